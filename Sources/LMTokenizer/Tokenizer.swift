import LMGGUF
import Synchronization

/// A tokenizer built from GGUF `tokenizer.*` metadata that reproduces llama.cpp's `llama_tokenize`
/// and `llama_detokenize` (llama.cpp b11312) token for token.
///
/// Two models are implemented:
/// - `gpt2`: byte-level BPE from `tokenizer.ggml.tokens` and `tokenizer.ggml.merges`, after the
///   pre-tokenizer named by `tokenizer.ggml.pre` (`smollm`, `gpt-2`/`gpt2`, `llama-bpe`, `qwen2`
///   and the names llama.cpp groups with them). SmolLM2 uses this.
/// - `llama`: SentencePiece-style merging by `tokenizer.ggml.scores` with `<0xNN>` byte fallback
///   and spaces escaped as U+2581. Gemma 3 uses this.
///
/// Token ids are `Int` in `0 ..< vocabularySize`. The type is immutable apart from an internal
/// word cache behind a mutex, so one instance can be shared across tasks.
public final class Tokenizer: Sendable {
    /// `tokenizer.ggml.model`: `"gpt2"` (byte-level BPE) or `"llama"` (SentencePiece).
    public let model: String
    /// `tokenizer.ggml.pre` for BPE models (`nil` for SentencePiece).
    public let preTokenizer: String?
    /// Beginning-of-sequence token, if the vocabulary has one.
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

    enum Engine: Sendable {
        case bpe(BPEModel, PreTokenizer)
        case spm(SPMModel)
    }

    /// Builds the tokenizer of a GGUF model.
    /// - Throws: ``TokenizerError`` when a required key is missing or has the wrong type, the model
    ///   or pre-tokenizer is not implemented, per-token arrays are shorter than the vocabulary, two
    ///   tokens have the same text, or BOS/EOS must be added but has no id.
    public convenience init(gguf: GGUFFile) throws(TokenizerError) {
        try self.init(metadata: gguf.metadata)
    }

    /// Builds a tokenizer from GGUF metadata (see ``init(gguf:)``).
    public init(metadata: [String: GGUFValue]) throws(TokenizerError) {
        let reader = MetadataReader(metadata: metadata)
        guard let model = try reader.string(TokenizerKey.model) else { throw .missingKey(TokenizerKey.model) }
        let isSPM: Bool
        var pre: PreTokenizerConfig?
        switch model {
        case "llama":
            isSPM = true
        case "gpt2":
            isSPM = false
            let name = try reader.string(TokenizerKey.pre) ?? "default"
            guard let config = PreTokenizerConfig(name: name) else { throw .unknownPreTokenizer(name) }
            pre = config
        default:
            throw .unknownModel(model)
        }
        self.model = model
        self.preTokenizer = isSPM ? nil : try reader.string(TokenizerKey.pre)

        guard var texts = try reader.strings(TokenizerKey.tokens) else { throw .missingKey(TokenizerKey.tokens) }
        guard !texts.isEmpty else { throw .emptyVocabulary }
        let n = texts.count
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(n + 1)
        for i in 0..<n {
            if texts[i].isEmpty { texts[i] = "[EMPTY_\(i)]" } // as llama.cpp
            bytes.append(contentsOf: texts[i].utf8)
            starts.append(Int32(truncatingIfNeeded: bytes.count))
        }
        let table = try TokenTable(bytes: bytes, starts: starts)

        var attributes = [TokenAttributes](repeating: .normal, count: n)
        if let types = try reader.ints(TokenizerKey.tokenType) {
            guard types.count >= n else { throw .arrayTooShort(key: TokenizerKey.tokenType, count: types.count, needed: n) }
            for i in 0..<n { attributes[i] = TokenAttributes(tokenType: types[i]) }
        }
        let special = try SpecialTokens(reader: reader, isSPM: isSPM, texts: texts, table: table, attributes: &attributes)

        var addBOS = isSPM ? true : pre?.addBOS ?? false
        var addEOS = false
        addBOS = try reader.bool(TokenizerKey.addBOS) ?? addBOS
        addEOS = try reader.bool(TokenizerKey.addEOS) ?? addEOS
        if addBOS && special.bos == nil { throw .missingSpecialToken(flagKey: TokenizerKey.addBOS, idKey: TokenizerKey.bos) }
        if addEOS && special.eos == nil { throw .missingSpecialToken(flagKey: TokenizerKey.addEOS, idKey: TokenizerKey.eos) }

        if isSPM {
            var scores = [Float](repeating: 0, count: n)
            if let s = try reader.floats(TokenizerKey.scores) {
                guard s.count >= n else { throw .arrayTooShort(key: TokenizerKey.scores, count: s.count, needed: n) }
                scores = Array(s[0..<n])
            }
            engine = .spm(SPMModel(scores: scores, table: table))
            cleanSpaces = false
            addSpacePrefix = try reader.bool(TokenizerKey.addSpacePrefix) ?? true
        } else {
            guard let merges = try reader.strings(TokenizerKey.merges) else { throw .missingKey(TokenizerKey.merges) }
            guard let config = pre else { throw .unknownModel(model) }
            engine = .bpe(BPEModel(merges: merges, table: table, ignoreMerges: config.ignoreMerges), config.splitter)
            cleanSpaces = config.cleanSpaces
            addSpacePrefix = try reader.bool(TokenizerKey.addSpacePrefix) ?? false
        }

        var specialTokens: [(id: Int, text: ArraySlice<UInt8>, userDefined: Bool)] = []
        for i in 0..<n where !attributes[i].isDisjoint(with: [.control, .userDefined, .unknown]) {
            specialTokens.append((i, table.text(i), attributes[i].isDisjoint(with: [.control, .unknown])))
        }
        specials = SpecialTokenMatcher(tokens: specialTokens)

        self.texts = texts
        self.table = table
        self.attributes = attributes
        self.bosID = special.bos
        self.eosID = special.eos
        self.eogIDs = special.eog
        self.addsBOS = addBOS
        self.addsEOS = addEOS
        self.chatTemplate = try reader.string(TokenizerKey.chatTemplate)
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
