/// Finds special-token texts in raw text before tokenizing, with llama.cpp's
/// `tokenizer_st_partition` semantics: special tokens are taken longest first (ties: lower id
/// first); each one claims its leftmost non-overlapping occurrences in the text not claimed yet.
/// Control and unknown tokens take part only when `parseSpecial` is true; user-defined tokens
/// always do. A token with `lstrip` (`rstrip`) also removes the ASCII whitespace (C `isspace`)
/// before (after) it, up to the nearest text already claimed.
///
/// llama.cpp searches the text once per special token (6,414 of them for Gemma 3). Here one pass
/// over a trie of all special texts collects every occurrence, and the claims are then replayed in
/// priority order, which gives the same partition.
struct SpecialTokenMatcher: Sendable {
    /// Trie edges: `node << 8 | byte` -> child node. Node 0 is the root.
    private let edges: [UInt64: Int32]
    /// Token ending at each node, or -1.
    private let tokenAt: [Int32]
    /// Whether a token that only counts under `parseSpecial` ends at each node.
    private let needsParseSpecial: [Bool]
    /// Claim order: lower rank claims first.
    private let rank: [Int32]
    /// Bytes that start some special text.
    private let firstBytes: [Bool]
    /// `lstrip` / `rstrip` of the token ending at each node.
    private let strips: [(left: Bool, right: Bool)]

    var isEmpty: Bool { tokenAt.count <= 1 }

    /// A token the matcher looks for.
    struct Entry {
        var id: Int
        var text: ArraySlice<UInt8>
        /// Matched even when special tokens are not parsed.
        var userDefined: Bool
        var lstrip = false, rstrip = false
    }

    /// - Parameter tokens: every control, unknown or user-defined token.
    init(tokens: [Entry]) {
        var edges: [UInt64: Int32] = [:]
        var tokenAt: [Int32] = [-1]
        var needsParseSpecial: [Bool] = [false]
        var strips: [(left: Bool, right: Bool)] = [(false, false)]
        var nodeRank: [Int32] = [Int32.max]
        var firstBytes = [Bool](repeating: false, count: 256)
        let ordered = tokens.filter { !$0.text.isEmpty }.sorted {
            $0.text.count != $1.text.count ? $0.text.count > $1.text.count : $0.id < $1.id
        }
        for (r, t) in ordered.enumerated() {
            var node: Int32 = 0
            for b in t.text {
                let key = UInt64(node) << 8 | UInt64(b)
                if let child = edges[key] {
                    node = child
                } else {
                    let child = Int32(tokenAt.count)
                    tokenAt.append(-1)
                    needsParseSpecial.append(false)
                    strips.append((false, false))
                    nodeRank.append(Int32.max)
                    edges[key] = child
                    node = child
                }
            }
            tokenAt[Int(node)] = Int32(t.id)
            needsParseSpecial[Int(node)] = !t.userDefined
            strips[Int(node)] = (t.lstrip, t.rstrip)
            nodeRank[Int(node)] = Int32(r)
            firstBytes[Int(t.text[t.text.startIndex])] = true
        }
        self.edges = edges
        self.tokenAt = tokenAt
        self.needsParseSpecial = needsParseSpecial
        self.rank = nodeRank
        self.firstBytes = firstBytes
        self.strips = strips
    }

    /// A piece of the partitioned text: a special token, or a byte range of raw text.
    enum Fragment: Equatable {
        case token(Int)
        case text(Range<Int>)
    }

    /// - Parameter excluded: tokens never matched, whatever their kind (their text stays text).
    func partition(_ text: UnsafeBufferPointer<UInt8>, parseSpecial: Bool, excluding excluded: Set<Int> = []) -> [Fragment] {
        let n = text.count
        guard n > 0 else { return [] }
        guard !isEmpty else { return [.text(0..<n)] }
        // Every occurrence of every eligible special text: (rank, start, length, node).
        var found: [(rank: Int32, start: Int, length: Int, node: Int32)] = []
        for start in 0..<n where firstBytes[Int(text[start])] {
            var node: Int32 = 0
            var p = start
            while p < n, let child = edges[UInt64(node) << 8 | UInt64(text[p])] {
                node = child
                p += 1
                let t = tokenAt[Int(node)]
                if t >= 0 && (parseSpecial || !needsParseSpecial[Int(node)]) && (excluded.isEmpty || !excluded.contains(Int(t))) {
                    found.append((rank[Int(node)], start, p - start, node))
                }
            }
        }
        guard !found.isEmpty else { return [.text(0..<n)] }
        found.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.start < $1.start }
        // Per byte: free text, part of a claimed token, or whitespace a token stripped.
        let free: UInt8 = 0, claimedByte: UInt8 = 1, stripped: UInt8 = 2
        var state = [UInt8](repeating: free, count: n)
        var tokenAtStart = [Int32](repeating: -1, count: n)
        @inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09 ... 0x0D).contains(b) }
        var lastEnd = 0
        var lastRank: Int32 = -1
        for f in found {
            if f.rank != lastRank { lastRank = f.rank; lastEnd = 0 }
            let end = f.start + f.length
            guard f.start >= lastEnd, !state[f.start ..< end].contains(where: { $0 != free }) else { continue }
            for i in f.start ..< end { state[i] = claimedByte }
            tokenAtStart[f.start] = tokenAt[Int(f.node)]
            lastEnd = end
            let strip = strips[Int(f.node)]
            if strip.left {
                var k = f.start - 1
                while k >= 0 && state[k] == free && isSpace(text[k]) { state[k] = stripped; k -= 1 }
            }
            if strip.right {
                var k = end
                while k < n && state[k] == free && isSpace(text[k]) { state[k] = stripped; k += 1 }
            }
        }
        var fragments: [Fragment] = []
        var textStart = -1
        for i in 0..<n {
            if state[i] == free {
                if textStart < 0 { textStart = i }
                continue
            }
            if textStart >= 0 { fragments.append(.text(textStart ..< i)); textStart = -1 }
            if tokenAtStart[i] >= 0 { fragments.append(.token(Int(tokenAtStart[i]))) }
        }
        if textStart >= 0 { fragments.append(.text(textStart ..< n)) }
        return fragments
    }
}
