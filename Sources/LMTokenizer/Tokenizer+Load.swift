import LMGGUF

extension Tokenizer {
    /// Builds a tokenizer from GGUF metadata (see ``init(gguf:)``), following llama.cpp's
    /// `llama_vocab::impl::load`: defaults by vocabulary type and pre-tokenizer, then the
    /// `tokenizer.ggml.*` keys, then its fix-ups by token text and model name.
    public convenience init(metadata: [String: GGUFValue]) throws(TokenizerError) {
        let reader = MetadataReader(metadata: metadata)
        guard let model = try reader.string(TokenizerKey.model) else { throw .missingKey(TokenizerKey.model) }
        let type = try VocabularyType(model: model, reader: reader)

        let (texts, table) = try Self.readTokens(reader)
        let n = texts.count
        var attributes = [TokenAttributes](repeating: .normal, count: n)
        if let types = try reader.ints(TokenizerKey.tokenType) {
            guard types.count >= n else { throw .arrayTooShort(key: TokenizerKey.tokenType, count: types.count, needed: n) }
            for i in 0..<n { attributes[i] = TokenAttributes(tokenType: types[i]) }
        }
        let special = try SpecialTokens(reader: reader, defaults: type.defaultIDs, texts: texts, table: table, attributes: &attributes)
        try TokenAttributes.applyStripRules(reader: reader, table: table, attributes: &attributes)

        var addBOS = try reader.bool(TokenizerKey.addBOS) ?? type.addsBOS
        let addEOS = try reader.bool(TokenizerKey.addEOS) ?? false
        if type.family?.forcesBOS == true { addBOS = true }
        if addBOS && special.bos == nil { throw .missingSpecialToken(flagKey: TokenizerKey.addBOS, idKey: TokenizerKey.bos) }
        if addEOS && special.eos == nil { throw .missingSpecialToken(flagKey: TokenizerKey.addEOS, idKey: TokenizerKey.eos) }

        // Checked for every type, as llama.cpp does; only SentencePiece merges by score.
        var scores = [Float](repeating: 0, count: n)
        if let s = try reader.floats(TokenizerKey.scores) {
            guard s.count >= n else { throw .arrayTooShort(key: TokenizerKey.scores, count: s.count, needed: n) }
            scores = Array(s[0..<n])
        }

        let engine: Engine
        switch type.kind {
        case .spm:
            engine = .spm(SPMModel(scores: scores, table: table))
        case .wpm:
            let lowercase = try reader.bool(TokenizerKey.lowercase) ?? true
            let stripAccents = try reader.bool(TokenizerKey.stripAccents) ?? lowercase
            engine = .wpm(WordPieceModel(normalizer: BertNormalizer(lowercase: lowercase, stripAccents: stripAccents),
                                         maxTokenLength: table.maxTokenLength, unknownID: special.unknown))
        case let .bpe(family):
            guard let merges = try reader.strings(TokenizerKey.merges) else { throw .missingKey(TokenizerKey.merges) }
            let bpe = try BPEModel(merges: merges, table: table, byteLevel: family.byteLevel,
                                   ignoreMerges: family.ignoreMerges, newlineWordsWhole: family.newlineWordsWhole)
            engine = .bpe(bpe, family.preTokenizer, escapesSpaces: family.escapesSpaces)
        }

        self.init(model: model, preTokenizer: type.preTokenizerName, special: special, addsBOS: addBOS, addsEOS: addEOS,
                  chatTemplate: try reader.string(TokenizerKey.chatTemplate), texts: texts, table: table,
                  attributes: attributes, engine: engine,
                  addSpacePrefix: try reader.bool(TokenizerKey.addSpacePrefix) ?? type.addsSpacePrefix,
                  cleanSpaces: type.cleansSpaces)
    }

    /// `tokenizer.ggml.tokens`, with empty entries renamed `[EMPTY_<id>]` as llama.cpp does, and
    /// their byte index.
    private static func readTokens(_ reader: MetadataReader) throws(TokenizerError) -> ([String], TokenTable) {
        guard var texts = try reader.strings(TokenizerKey.tokens) else { throw .missingKey(TokenizerKey.tokens) }
        guard !texts.isEmpty else { throw .emptyVocabulary }
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(texts.count + 1)
        for i in texts.indices {
            if texts[i].isEmpty { texts[i] = "[EMPTY_\(i)]" }
            bytes.append(contentsOf: texts[i].utf8)
            // Offsets are 32-bit; a vocabulary of more than 2 GB of text is not one.
            guard let end = Int32(exactly: bytes.count) else { throw .vocabularyTooLarge(bytes: bytes.count) }
            starts.append(end)
        }
        return (texts, try TokenTable(bytes: bytes, starts: starts))
    }
}

/// The vocabulary type a `tokenizer.ggml.model` value selects, with llama.cpp's defaults for it.
struct VocabularyType {
    enum Kind {
        /// `llama`: SentencePiece.
        case spm
        /// `bert`: WordPiece.
        case wpm
        /// `gpt2` and `gemma4`: BPE.
        case bpe(BPEFamily)
    }

    let kind: Kind
    /// The pre-tokenizer as the tokenizer reports it.
    let preTokenizerName: String?
    /// Special token ids assumed before metadata is read.
    let defaultIDs: SpecialTokens.Defaults

    /// - Throws: ``TokenizerError/unknownModel(_:)``, ``TokenizerError/unknownPreTokenizer(_:)``.
    init(model: String, reader: MetadataReader) throws(TokenizerError) {
        switch model {
        case "llama":
            (kind, preTokenizerName, defaultIDs) = (.spm, nil, .spm)
        case "bert":
            (kind, preTokenizerName, defaultIDs) = (.wpm, nil, .wpm)
        case "gpt2":
            // llama.cpp warns and uses its default patterns when the key is missing.
            let pre = try reader.string(TokenizerKey.pre)
            let name = pre ?? "default"
            guard let family = BPEFamily(name: name) else { throw .unknownPreTokenizer(name) }
            var ids = SpecialTokens.Defaults.bpe
            if !family.hasDefaultBOS { ids.bos = nil }
            (kind, preTokenizerName, defaultIDs) = (.bpe(family), pre, ids)
        case "gemma4":
            // llama.cpp sets the pre-tokenizer to `gemma4` whatever the file says, and assumes no ids.
            guard let family = BPEFamily(name: "gemma4") else { throw .unknownPreTokenizer("gemma4") }
            (kind, preTokenizerName, defaultIDs) = (.bpe(family), "gemma4", .none)
        default:
            throw .unknownModel(model)
        }
    }

    var family: BPEFamily? {
        if case let .bpe(family) = kind { family } else { nil }
    }

    var addsBOS: Bool {
        switch kind {
        case .spm, .wpm: true
        case let .bpe(family): family.addBOS
        }
    }

    var addsSpacePrefix: Bool {
        if case .spm = kind { true } else { false }
    }

    var cleansSpaces: Bool {
        switch kind {
        case .spm: false
        case .wpm: true
        case let .bpe(family): family.cleanSpaces
        }
    }
}
