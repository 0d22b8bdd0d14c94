/// A vocabulary prepared for masking, built once per tokenizer and shared by every matcher:
/// the tokens in a byte trie, and the "slices" of tokens made only of ordinary string characters
/// whose masks are OR-ed in wholesale inside free strings (llguidance's slicing).
public struct TokenIndex: Sendable {
    /// Number of token ids; masks have `(tokenCount + 63) / 64` words.
    public let tokenCount: Int
    public var wordCount: Int { (tokenCount + 63) / 64 }

    /// Every token that JSON text could contain.
    let fullTrie: TokenTrie
    /// The tokens of `fullTrie` outside both string slices.
    let nonPlainTrie: TokenTrie
    /// Tokens of complete characters other than `"`, `\` and controls: allowed wherever a free
    /// string may continue.
    let plainMask: [UInt64]
    /// Plain characters followed by the start of a multi-byte character, likewise allowed.
    let plainPartialMask: [UInt64]
    /// End-of-generation tokens.
    let endOfGenerationMask: [UInt64]
    public let endOfGenerationTokens: [Int]
    /// The bytes of each token; empty for tokens no JSON text contains.
    let tokenBytes: [[UInt8]]

    /// - Parameter vocabulary: the tokenizer's tokens. Control tokens and tokens holding bytes
    ///   JSON never contains (raw control characters, bytes invalid in UTF-8) are left out.
    public init(_ vocabulary: some GrammarVocabulary) {
        tokenCount = vocabulary.tokenCount
        let words = (tokenCount + 63) / 64
        var plain = [UInt64](repeating: 0, count: words)
        var partial = [UInt64](repeating: 0, count: words)
        var eog = [UInt64](repeating: 0, count: words)
        var eogTokens: [Int] = []
        var all: [(bytes: [UInt8], id: Int32)] = []
        var rest: [(bytes: [UInt8], id: Int32)] = []
        var tokenBytes = [[UInt8]](repeating: [], count: tokenCount)
        for id in 0..<tokenCount {
            if vocabulary.isEndOfGeneration(id) {
                eog[id >> 6] |= 1 << UInt64(id & 63)
                eogTokens.append(id)
                continue
            }
            if vocabulary.isSpecial(id) { continue }
            let bytes = vocabulary.bytes(ofToken: id)
            guard !bytes.isEmpty, !bytes.contains(where: { $0 < 0x20 || $0 == 0xC0 || $0 == 0xC1 || $0 >= 0xF5 }) else { continue }
            all.append((bytes, Int32(id)))
            tokenBytes[id] = bytes
            switch Self.stringClass(bytes) {
            case .plain: plain[id >> 6] |= 1 << UInt64(id & 63)
            case .plainThenPartial: partial[id >> 6] |= 1 << UInt64(id & 63)
            case .other: rest.append((bytes, Int32(id)))
            }
        }
        fullTrie = TokenTrie(all)
        nonPlainTrie = TokenTrie(rest)
        plainMask = plain
        plainPartialMask = partial
        endOfGenerationMask = eog
        endOfGenerationTokens = eogTokens
        self.tokenBytes = tokenBytes
    }

    /// Trie nodes walked outside strings and inside free strings (a size measure).
    package var trieNodeCounts: (full: Int, nonPlain: Int) { (fullTrie.count, nonPlainTrie.count) }

    enum StringClass { case plain, plainThenPartial, other }

    /// Whether `bytes` are complete ordinary string characters (valid UTF-8 per RFC 3629, no
    /// `"`, `\` or controls), such characters then a valid unfinished character, or neither.
    static func stringClass(_ bytes: [UInt8]) -> StringClass {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b < 0x20 || b == 0x22 || b == 0x5C { return .other }
                i += 1
                continue
            }
            let need: Int
            var secondLo: UInt8 = 0x80, secondHi: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; secondLo = 0xA0
            case 0xED: need = 2; secondHi = 0x9F
            case 0xE1...0xEF: need = 2
            case 0xF0: need = 3; secondLo = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; secondHi = 0x8F
            default: return .other
            }
            for k in 1...need {
                guard i + k < bytes.count else { return .plainThenPartial }
                let c = bytes[i + k]
                let ok = k == 1 ? (secondLo...secondHi).contains(c) : (0x80...0xBF).contains(c)
                if !ok { return .other }
            }
            i += need + 1
        }
        return .plain
    }
}

/// Tokens in a byte trie flattened in preorder: node `i`'s subtree is `i..<skip[i]`, its depth
/// (1 for children of the root) says which ancestor's automaton state it continues from.
struct TokenTrie: Sendable {
    var byte: [UInt8] = []
    var depth: [UInt16] = []
    var skip: [Int32] = []
    /// The token ending at the node; -1 for none; `-2 - k` when several tokens share the bytes
    /// (rare): they are listed in `sharedBytes[k]`.
    var token: [Int32] = []
    var sharedBytes: [[Int32]] = []
    var maxDepth = 0

    var count: Int { byte.count }

    init(_ tokens: [(bytes: [UInt8], id: Int32)]) {
        let sorted = tokens.sorted { a, b in
            a.bytes.lexicographicallyPrecedes(b.bytes) || (a.bytes == b.bytes && a.id < b.id)
        }
        var path: [Int] = []  // node index at each depth - 1
        var previous: [UInt8] = []
        for (bytes, id) in sorted {
            var common = 0
            while common < min(previous.count, bytes.count), previous[common] == bytes[common] { common += 1 }
            if common == bytes.count, common == previous.count, let last = path.last {
                let existing = token[last]
                if existing >= 0 {
                    token[last] = Int32(-2 - sharedBytes.count)
                    sharedBytes.append([existing, id])
                } else {
                    sharedBytes[Int(-2 - existing)].append(id)
                }
                continue
            }
            while path.count > common {
                let n = path.removeLast()
                skip[n] = Int32(byte.count)
            }
            for k in common..<bytes.count {
                path.append(byte.count)
                byte.append(bytes[k])
                depth.append(UInt16(k + 1))
                skip.append(0)
                token.append(-1)
            }
            if let last = path.last { token[last] = id }
            maxDepth = max(maxDepth, bytes.count)
            previous = bytes
        }
        for n in path { skip[n] = Int32(byte.count) }
    }
}
