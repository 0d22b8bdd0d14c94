/// Special token ids and the end-of-generation set, resolved as llama.cpp's
/// `llama_vocab::impl::load` does: model-type defaults, then `tokenizer.ggml.*_token_id` metadata
/// (ids outside the vocabulary are ignored, as llama.cpp warns and ignores them), then tokens found
/// by their text (`<|im_end|>`, `<end_of_turn>`, `<|fim_prefix|>`, ...), which are also marked
/// `control`.
struct SpecialTokens: Sendable {
    var bos: Int?
    var eos: Int?
    var eot: Int?
    var eom: Int?
    var unknown: Int?
    /// Separator (BERT's `[SEP]`), appended by WordPiece when special tokens are added.
    var sep: Int?
    var fimPre: Int?, fimSuf: Int?, fimMid: Int?, fimPad: Int?, fimRep: Int?, fimSep: Int?
    var eog: Set<Int> = []

    /// Texts llama.cpp recognises as an end-of-turn token when no id is given.
    static let eotTexts: Set<String> = [
        "<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<|end_of_text|>",
        "<EOT>", "_<EOT>", "[EOT]", "<｜end▁of▁sentence｜>", "<end_of_utterance>",
    ]
    static let eomTexts: Set<String> = ["<|eom_id|>"]
    static let fimPreTexts: Set<String> = ["<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>", "▁<PRE>", "<|code_prefix|>", "<|prefix|>"]
    static let fimSufTexts: Set<String> = ["<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>", "▁<SUF>", "<|code_suffix|>", "<|suffix|>"]
    static let fimMidTexts: Set<String> = ["<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>", "▁<MID>", "<|code_middle|>", "<|middle|>"]
    static let fimPadTexts: Set<String> = ["<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"]
    static let fimRepTexts: Set<String> = ["<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"]
    static let fimSepTexts: Set<String> = ["<|file_sep|>"]
    /// gpt-oss tokens llama.cpp always renders as text.
    static let renderedTexts: Set<String> = ["<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"]
    /// Texts that always end generation.
    static let eogTexts: Set<String> = [
        "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
        "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
        "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
        "<｜end▁of▁sentence｜>", "[e~[",
    ]

    /// The ids llama.cpp assumes for a vocabulary type before reading metadata.
    struct Defaults {
        var bos: Int?, eos: Int?, unknown: Int?, sep: Int?

        /// SentencePiece (`llama`).
        static let spm = Defaults(bos: 1, eos: 2, unknown: 0)
        /// Byte-level BPE (`gpt2`).
        static let bpe = Defaults(bos: 11, eos: 11)
        /// WordPiece (`bert`): `[CLS]` 101 serves as BOS, `[UNK]` 100, `[SEP]` 102.
        static let wpm = Defaults(bos: 101, unknown: 100, sep: 102)
        /// Gemma 4's BPE: nothing until metadata says.
        static let none = Defaults()
    }

    /// - Parameters:
    ///   - defaults: ids used when metadata gives none (ids outside the vocabulary count as none).
    ///   - table: the vocabulary's byte index, for finding tokens by exact text.
    ///   - attributes: updated with llama.cpp's fix-ups.
    init(reader: MetadataReader, defaults: Defaults, texts: [String], table: TokenTable,
         attributes: inout [TokenAttributes]) throws(TokenizerError) {
        let n = texts.count
        func inRange(_ id: Int?) -> Int? { id.flatMap { $0 >= 0 && $0 < n ? $0 : nil } }
        func read(_ key: String, default d: Int?) throws(TokenizerError) -> Int? {
            let d = inRange(d)
            guard let v = try reader.int(key) else { return d }
            return inRange(v) ?? d
        }
        bos = try read(TokenizerKey.bos, default: defaults.bos)
        eos = try read(TokenizerKey.eos, default: defaults.eos)
        eot = try read(TokenizerKey.eot, default: nil)
        eom = try read(TokenizerKey.eom, default: nil)
        unknown = try read(TokenizerKey.unknown, default: defaults.unknown)
        sep = try read(TokenizerKey.sep, default: defaults.sep)
        let fimPreCurrent = try read(TokenizerKey.fimPre, default: nil)
        fimPre = try read("tokenizer.ggml.prefix_token_id", default: fimPreCurrent) // deprecated key, read last
        let fimSufCurrent = try read(TokenizerKey.fimSuf, default: nil)
        fimSuf = try read("tokenizer.ggml.suffix_token_id", default: fimSufCurrent) // deprecated key, read last
        let fimMidCurrent = try read(TokenizerKey.fimMid, default: nil)
        fimMid = try read("tokenizer.ggml.middle_token_id", default: fimMidCurrent) // deprecated key, read last
        fimPad = try read(TokenizerKey.fimPad, default: nil)
        fimRep = try read(TokenizerKey.fimRep, default: nil)
        fimSep = try read(TokenizerKey.fimSep, default: nil)

        // Found by text. llama.cpp walks an unordered map, so when several texts of one kind exist
        // the one it picks is unspecified; here the lowest id wins.
        let watched = Self.eotTexts.union(Self.eomTexts).union(Self.fimPreTexts).union(Self.fimSufTexts)
            .union(Self.fimMidTexts).union(Self.fimPadTexts).union(Self.fimRepTexts).union(Self.fimSepTexts)
            .union(Self.eogTexts).union(Self.renderedTexts)
        var byText: [String: Int] = [:]
        for t in watched {
            if let id = table.id(of: Array(t.utf8)) { byText[t] = id }
        }
        func find(_ current: Int?, _ set: Set<String>) -> Int? {
            if let current { return current }
            let id = set.compactMap { byText[$0] }.min()
            if let id { attributes[id].insert(.control) }
            return id
        }
        eot = find(eot, Self.eotTexts)
        eom = find(eom, Self.eomTexts)
        fimPre = find(fimPre, Self.fimPreTexts)
        fimSuf = find(fimSuf, Self.fimSufTexts)
        fimMid = find(fimMid, Self.fimMidTexts)
        fimPad = find(fimPad, Self.fimPadTexts)
        fimRep = find(fimRep, Self.fimRepTexts)
        fimSep = find(fimSep, Self.fimSepTexts)

        var eog: Set<Int> = []
        for id in [fimPad, fimRep, fimSep].compactMap({ $0 }) { eog.insert(id) }
        for t in Self.eogTexts {
            if let id = byText[t] {
                eog.insert(id)
                attributes[id].insert(.control)
            }
        }
        // gpt-oss: these render as text.
        for t in Self.renderedTexts {
            if let id = byText[t] { attributes[id] = .userDefined }
        }
        for id in [eos, eot, eom].compactMap({ $0 }) { eog.insert(id) }
        // o200k_harmony / solar-open: there `<|end|>` does not end generation.
        let eogTexts = Set(eog.map { texts[$0] })
        let hasReturn = eogTexts.contains("<|return|>"), hasFlush = eogTexts.contains("<|flush|>")
        let hasCall = eogTexts.contains("<|call|>") || eogTexts.contains("<|calls|>")
        if let end = eog.first(where: { texts[$0] == "<|end|>" }), (hasReturn && hasCall) || (hasCall && hasFlush) {
            eog.remove(end)
            attributes[end] = .userDefined
        }
        // Gemma 4 / PaddleOCR: `</s>` is text when `<|tool_response>` exists.
        if eogTexts.contains("<|tool_response>"), let s = eog.first(where: { texts[$0] == "</s>" }) {
            eog.remove(s)
            attributes[s] = .normal
        }
        self.eog = eog
    }
}
