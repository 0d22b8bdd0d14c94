/// What a BPE `tokenizer.ggml.pre` name selects in llama.cpp (`llama_vocab::impl::load`): the
/// splitter, and the flags the same branch sets.
struct PreTokenizerConfig: Sendable, Equatable {
    var splitter: PreTokenizer
    /// Detokenizing removes spaces before `?!.,` and around apostrophes (`clean_spaces`).
    var cleanSpaces = true
    /// A word that is itself a token skips merging (`ignore_merges`).
    var ignoreMerges = false
    /// Default for adding BOS when `tokenizer.ggml.add_bos_token` is absent.
    var addBOS = false

    /// `nil` for names LMSession does not implement.
    init?(name: String) {
        guard let splitter = PreTokenizer(name: name) else { return nil }
        self.splitter = splitter
        switch name {
        case "smollm", "command-r", "trillion", "granite-docling", "qwen2", "deepseek-r1-qwen":
            cleanSpaces = false
        case "llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2":
            ignoreMerges = true
            addBOS = true
        default:
            break
        }
    }
}
