import LMGrammar

/// A small vocabulary built in code: every printable ASCII byte as its own token, a few
/// multi-character tokens that straddle JSON structure, the UTF-8 bytes of a turtle emoji as
/// separate tokens, and control tokens.
enum SyntheticVocabulary {
    static let texts: [String] = {
        var t = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
        t += (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        t += ["\":", "\": ", "\",", "\", \"", "\"],", "\"]", "{\"", "[\"", "\"}", "},", "ab", "low", "lower", "\n", "  ", "é", "\\n", "\\\""]
        return t
    }()

    /// Raw byte tokens appended after `texts`: 🐢 is F0 9F 90 A2.
    static let rawBytes: [[UInt8]] = [[0xF0], [0x9F], [0x90], [0xA2], [0xF0, 0x9F], [0x90, 0xA2], [0xFF]]

    static let vocabulary = ArrayVocabulary(
        tokens: texts.map { Array($0.utf8) } + rawBytes,
        special: [0, 1, 2], endOfGeneration: [2])

    static let index = TokenIndex(vocabulary)
    static let eos = 2

    static func id(_ text: String) -> Int? { texts.firstIndex(of: text) }
    static func id(bytes: [UInt8]) -> Int? { rawBytes.firstIndex(of: bytes).map { texts.count + $0 } }
}

/// Drives a matcher over text and reports what the grammar allows.
struct GrammarProbe {
    let matcher: GrammarMatcher
    let index: TokenIndex

    init(_ grammar: Grammar, index: TokenIndex = SyntheticVocabulary.index, options: GrammarOptions = GrammarOptions()) throws {
        matcher = GrammarMatcher(grammar: try CompiledGrammar(grammar, options: options), index: index)
        self.index = index
    }

    init(schema: String, index: TokenIndex = SyntheticVocabulary.index) throws {
        try self.init(try Grammar(jsonSchema: schema), index: index)
    }

    /// Feeds `text` byte by byte; false if some byte is rejected.
    func feed(_ text: String) -> Bool { matcher.accept(bytes: Array(text.utf8)) }

    /// Feeds tokens of the synthetic vocabulary; false at the first one rejected.
    func feed(tokens: [Int]) -> Bool { tokens.allSatisfy { matcher.accept(token: $0) } }

    /// True when `text` is accepted as a complete value.
    static func accepts(_ grammar: Grammar, _ text: String) throws -> Bool {
        let probe = try GrammarProbe(grammar)
        return probe.feed(text) && probe.matcher.isComplete
    }

    /// The ids whose bit is set in the current mask.
    func allowed() -> Set<Int> {
        var mask = [UInt64](repeating: 0, count: index.wordCount)
        mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
        return Set((0..<index.tokenCount).filter { mask[$0 >> 6] >> UInt64($0 & 63) & 1 == 1 })
    }

    func allows(_ text: String) -> Bool {
        guard let id = SyntheticVocabulary.id(text) else { return false }
        return allowed().contains(id)
    }

    func allows(bytes: [UInt8]) -> Bool {
        guard let id = SyntheticVocabulary.id(bytes: bytes) else { return false }
        return allowed().contains(id)
    }
}
