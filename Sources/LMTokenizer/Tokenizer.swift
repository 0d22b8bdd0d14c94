import LMGGUF
import Synchronization

/// A tokenizer built from GGUF `tokenizer.*` metadata that reproduces llama.cpp's `llama_tokenize`
/// and `llama_detokenize` (llama.cpp b11312) token for token.
///
/// The vocabulary types (`tokenizer.ggml.model`) implemented:
/// - `gpt2`: byte-level BPE from `tokenizer.ggml.tokens` and `tokenizer.ggml.merges`, after the
///   pre-tokenizer named by `tokenizer.ggml.pre` (`default` when absent, as llama.cpp): GPT-2,
///   Llama 3, Qwen 2 / 3.5, StarCoder / SmolLM / Command R / Refact, Falcon, MPT, DeepSeek LLM and
///   Coder and the names llama.cpp groups with them. SmolLM2 uses this.
/// - `gemma4`: BPE over raw UTF-8 with spaces escaped as U+2581, split only at newlines, with
///   `<0xNN>` byte fallback (Gemma 4).
/// - `llama`: SentencePiece-style merging by `tokenizer.ggml.scores` with `<0xNN>` byte fallback
///   and spaces escaped as U+2581 (Llama 2, Phi-3, Gemma 3).
/// - `bert`: WordPiece after BERT's normaliser (lowercasing, accent stripping, punctuation split).
///
/// Token ids are `Int` in `0 ..< vocabularySize`. The type is immutable apart from an internal
/// word cache behind a mutex, so one instance can be shared across tasks.
///
/// Where bad vocabularies meet llama.cpp's asserts or silent skips, this throws or stays total
/// instead: a merge that is not `"left right"` is ``TokenizerError/malformedMerge(index:text:)``
/// (llama.cpp ignores it); BOS or EOS asked for without a valid id is an error at load (llama.cpp
/// aborts when tokenizing); a missing byte token is skipped (llama.cpp throws), and so is the
/// unknown token of a WordPiece vocabulary that has none (llama.cpp emits -1).
public final class Tokenizer: Sendable {
    /// `tokenizer.ggml.model`: `"gpt2"`, `"gemma4"`, `"llama"` or `"bert"`.
    public let model: String
    /// The BPE pre-tokenizer: `tokenizer.ggml.pre` (`nil` when absent, which selects `default`),
    /// `"gemma4"` for Gemma 4; `nil` for SentencePiece and WordPiece, which have none.
    public let preTokenizer: String?
    /// Beginning-of-sequence token (WordPiece: `[CLS]`), if the vocabulary has one.
    public let bosID: Int?
    /// End-of-sequence token, if the vocabulary has one.
    public let eosID: Int?
    /// Tokens that end generation, computed as llama.cpp's `special_eog_ids`: EOS, EOT, EOM, the
    /// fill-in-the-middle pad/repo/separator tokens, and tokens whose text is one of llama.cpp's
    /// end-of-generation texts (`<|im_end|>`, `<|endoftext|>`, `<end_of_turn>`, `<|eot_id|>`, ...).
    public let eogIDs: Set<Int>
    /// Whether ``encode(_:addBOS:parseSpecial:)`` prepends BOS by default
    /// (`tokenizer.ggml.add_bos_token`, else llama.cpp's default for the model and pre-tokenizer).
    public let addsBOS: Bool
    /// Whether encoding appends EOS by default (`tokenizer.ggml.add_eos_token`).
    public let addsEOS: Bool
    /// `tokenizer.chat_template` (a Jinja template), if present.
    public let chatTemplate: String?

    let texts: [String]
    let table: TokenTable
    let attributes: [TokenAttributes]
    let specials: SpecialTokenMatcher
    let engine: Engine
    /// WordPiece's `[SEP]`, appended when special tokens are added.
    let sepID: Int?
    /// SentencePiece: prepend a space to the text (`tokenizer.ggml.add_space_prefix`); decoding
    /// then drops one leading space.
    let addSpacePrefix: Bool
    /// Decoding tidies spaces before punctuation (llama.cpp `clean_spaces`).
    let cleanSpaces: Bool
    /// Tokens of recently seen BPE words, keyed by the word's bytes.
    let wordCache = Mutex<[[UInt8]: [Int32]]>([:])
    /// ``pieces``, built on first use.
    let pieceTable = Mutex<TokenPieces?>(nil)
    static let wordCacheLimit = 1 << 16
    /// Longer words are not cached (Gemma 4's words are whole lines).
    static let cachedWordLength = 256

    enum Engine: Sendable {
        /// `escapesSpaces`: spaces become U+2581 before pre-tokenizing (Gemma 4).
        case bpe(BPEModel, PreTokenizer, escapesSpaces: Bool)
        case spm(SPMModel)
        case wpm(WordPieceModel)
    }

    /// Builds the tokenizer of a GGUF model (only its metadata is read, so a vocabulary-only file
    /// such as llama.cpp's `ggml-vocab-*.gguf` works).
    /// - Throws: ``TokenizerError`` when a required key is missing or has the wrong type, the model
    ///   or pre-tokenizer is not implemented, per-token arrays are shorter than the vocabulary, two
    ///   tokens have the same text, a merge is malformed, or BOS/EOS must be added but has no id.
    public convenience init(gguf: GGUFFile) throws(TokenizerError) {
        try self.init(metadata: gguf.metadata)
    }

    init(model: String, preTokenizer: String?, special: SpecialTokens, addsBOS: Bool, addsEOS: Bool,
         chatTemplate: String?, texts: [String], table: TokenTable, attributes: [TokenAttributes],
         engine: Engine, addSpacePrefix: Bool, cleanSpaces: Bool) {
        self.model = model
        self.preTokenizer = preTokenizer
        self.bosID = special.bos
        self.eosID = special.eos
        self.sepID = special.sep
        self.eogIDs = special.eog
        self.addsBOS = addsBOS
        self.addsEOS = addsEOS
        self.chatTemplate = chatTemplate
        self.texts = texts
        self.table = table
        self.attributes = attributes
        self.engine = engine
        self.addSpacePrefix = addSpacePrefix
        self.cleanSpaces = cleanSpaces
        var entries: [SpecialTokenMatcher.Entry] = []
        for i in texts.indices where !attributes[i].isDisjoint(with: [.control, .userDefined, .unknown]) {
            let a = attributes[i]
            entries.append(.init(id: i, text: table.text(i), userDefined: a.isDisjoint(with: [.control, .unknown]),
                                 lstrip: a.contains(.lstrip), rstrip: a.contains(.rstrip)))
        }
        specials = SpecialTokenMatcher(tokens: entries)
    }

    /// Number of tokens in the vocabulary.
    public var vocabularySize: Int { texts.count }

    /// The vocabulary entry of `id` as stored in the GGUF file (byte-level BPE text such as
    /// `"Ġthe"`, or SentencePiece text such as `"▁the"`); `""` for ids outside the vocabulary.
    public func tokenText(_ id: Int) -> String {
        id >= 0 && id < texts.count ? texts[id] : ""
    }

    /// The token whose vocabulary entry is exactly `text` (byte for byte), e.g. `"<|im_end|>"`.
    public func tokenID(forText text: String) -> Int? {
        var t = text
        return t.withUTF8 { table.id(of: $0) }
    }

    /// Whether `id` is a control or unknown token: these decode to nothing unless special tokens
    /// are asked for, and include BOS, EOS and chat markers such as `<|im_start|>`.
    /// User-defined tokens (Gemma's `"\n"` and runs of spaces) are text, so they are not control.
    public func isControl(_ id: Int) -> Bool {
        id >= 0 && id < attributes.count && !attributes[id].isDisjoint(with: [.control, .unknown])
    }

    /// Whether `id` is a user-defined token: matched as a whole before tokenizing, even when special
    /// tokens are not parsed, and decoded as its text.
    public func isUserDefined(_ id: Int) -> Bool {
        id >= 0 && id < attributes.count && attributes[id].contains(.userDefined)
    }
}
