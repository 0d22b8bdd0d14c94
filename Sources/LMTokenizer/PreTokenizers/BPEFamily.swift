/// What a BPE vocabulary's `tokenizer.ggml.pre` name selects in llama.cpp b11312
/// (`llama_vocab::impl::load` and `llm_tokenizer_bpe`): the pre-tokenizer patterns and the flags
/// the same branch sets. Names are grouped as llama.cpp groups them; a name llama.cpp knows whose
/// patterns are not implemented here (tekken, gpt-4o, chameleon, bloom, kimi-k2, ...) gives `nil`,
/// which ``Tokenizer`` reports as ``TokenizerError/unknownPreTokenizer(_:)``.
struct BPEFamily: Sendable, Equatable {
    var preTokenizer: PreTokenizer
    /// Words are spelled in GPT-2's byte-level alphabet before merges; `false` merges raw UTF-8
    /// characters and falls back to `<0xNN>` byte tokens (Gemma 4).
    var byteLevel = true
    /// Spaces become U+2581 before splitting, and back when decoding (`escape_whitespaces`).
    var escapesSpaces = false
    /// Decoding removes spaces before `?!.,` and in contractions (`clean_spaces`).
    var cleanSpaces = true
    /// A word that is itself a token skips merging (`ignore_merges`).
    var ignoreMerges = false
    /// A word of newlines only that is itself a token skips merging (Gemma 4's fix-up).
    var newlineWordsWhole = false
    /// Default for adding BOS when `tokenizer.ggml.add_bos_token` is absent.
    var addBOS = false
    /// BOS is added even when `tokenizer.ggml.add_bos_token` is false (llama.cpp's Gemma 4 workaround).
    var forcesBOS = false
    /// BOS defaults to id 11 like other BPE vocabularies; ChatGLM has no default BOS.
    var hasDefaultBOS = true

    /// `nil` for names not implemented.
    init?(name: String) {
        switch name {
        case "default":
            self.init(.defaultPatterns)
        case "llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2", "jina-v5-nano":
            self.init(.llama3)
            ignoreMerges = true
            addBOS = true
        case "dbrx", "smaug-bpe":
            self.init(.llama3)
        case "chatglm-bpe":
            self.init(.llama3)
            hasDefaultBOS = false
        case "glm4", "glm5":
            self.init(.llama3)
            hasDefaultBOS = false
            ignoreMerges = true
        case "deepseek-llm":
            self.init(.deepSeekLLM)
            cleanSpaces = false
        case "deepseek-coder":
            self.init(.deepSeekCoder)
            cleanSpaces = false
        case "falcon":
            self.init(.falcon)
        case "gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de", "a.x-4.0", "mellum",
             "modern-bert", "jina-v1-en", "jina-v2-code", "roberta-bpe", "mpt", "olmo", "jais", "exaone4":
            self.init(.gpt2)
        case "trillion", "granite-docling":
            self.init(.gpt2)
            cleanSpaces = false
        case "starcoder", "refact", "codeshell", "exaone", "minerva-7b", "mellum2":
            self.init(.digitsThenGPT2)
        case "command-r", "smollm":
            self.init(.digitsThenGPT2)
            cleanSpaces = false
        case "qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "hunyuan", "solar-open":
            self.init(.qwen2)
            cleanSpaces = false
        case "stablelm2", "megrez":
            self.init(.qwen2)
        case "qwen35":
            self.init(.qwen35)
            cleanSpaces = false
        case "gemma4", "granite-embed-multi-311m":
            self.init(.newlineRuns)
            byteLevel = false
            escapesSpaces = true
            newlineWordsWhole = true
            forcesBOS = true
        case "sarvam-moe":
            self.init(.newlineRuns)
            byteLevel = false
            escapesSpaces = true
            cleanSpaces = false
        default:
            return nil
        }
    }

    private init(_ stages: [SplitStage]) {
        preTokenizer = PreTokenizer(stages: stages)
    }
}

/// The pattern lists of llama.cpp's `llm_tokenizer_bpe`, by family.
extension [SplitStage] {
    /// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)`.
    static let gpt2: [SplitStage] = [.gpt2]
    /// `\p{N}`, then GPT-2's (StarCoder, SmolLM, Command R, Refact...).
    static let digitsThenGPT2: [SplitStage] = [.match(.number, repeated: false, leadingSpace: false), .gpt2]
    static let llama3: [SplitStage] = [.llama3(maxDigits: 3, marksAreLetters: false)]
    static let qwen2: [SplitStage] = [.llama3(maxDigits: 1, marksAreLetters: false)]
    static let qwen35: [SplitStage] = [.llama3(maxDigits: 1, marksAreLetters: true)]
    /// `[\p{P}\$\+<=>\^~\|]+`, GPT-2's, `\p{N}+`, `[0-9][0-9][0-9]`: llama.cpp's default.
    static let defaultPatterns: [SplitStage] = [
        .match(.punctuationAndOperators, repeated: true, leadingSpace: false), .gpt2,
        .match(.number, repeated: true, leadingSpace: false), .asciiDigitTriples,
    ]
    /// `[\p{P}\$\+<=>\^~\|]+`, GPT-2's, `[0-9][0-9][0-9]`.
    static let falcon: [SplitStage] = [
        .match(.punctuationAndOperators, repeated: true, leadingSpace: false), .gpt2, .asciiDigitTriples,
    ]
    /// `[\r\n]`, `\s?\p{L}+`, `\s?\p{P}+`, `[一-龥ࠀ-一가-퟿]+`, `\p{N}`.
    static let deepSeekCoder: [SplitStage] = [
        .match(.newline, repeated: false, leadingSpace: false),
        .match(.letter, repeated: true, leadingSpace: true),
        .match(.punctuation, repeated: true, leadingSpace: true),
        .match(.deepSeekCJK, repeated: true, leadingSpace: false),
        .match(.number, repeated: false, leadingSpace: false),
    ]
    /// `[\r\n]`, `\s?[A-Za-zµÀ-Ö...]+`, `\s?[!-/:-~！-／：-～‘-‟　-。]+`, `\s+$`, `[一-龥ࠀ-一가-퟿]+`, `\p{N}+`.
    static let deepSeekLLM: [SplitStage] = [
        .match(.newline, repeated: false, leadingSpace: false),
        .match(.deepSeekLetter, repeated: true, leadingSpace: true),
        .match(.deepSeekPunctuation, repeated: true, leadingSpace: true),
        .trailingWhitespace,
        .match(.deepSeekCJK, repeated: true, leadingSpace: false),
        .match(.number, repeated: true, leadingSpace: false),
    ]
    /// `[^\n]+|[\n]+` (Gemma 4: merges run over whole lines).
    static let newlineRuns: [SplitStage] = [.newlineRuns]
}
