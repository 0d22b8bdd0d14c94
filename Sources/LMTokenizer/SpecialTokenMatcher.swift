/// Finds special-token texts in raw text before tokenizing, with llama.cpp's
/// `tokenizer_st_partition` semantics: special tokens are taken longest first (ties: lower id
/// first); each one claims its leftmost non-overlapping occurrences in the text not claimed yet.
/// Control and unknown tokens take part only when `parseSpecial` is true; user-defined tokens
/// always do.
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

    var isEmpty: Bool { tokenAt.count <= 1 }

    /// - Parameters:
    ///   - tokens: `(id, text, userDefined)` for every control, unknown or user-defined token.
    init(tokens: [(id: Int, text: ArraySlice<UInt8>, userDefined: Bool)]) {
        var edges: [UInt64: Int32] = [:]
        var tokenAt: [Int32] = [-1]
        var needsParseSpecial: [Bool] = [false]
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
                    nodeRank.append(Int32.max)
                    edges[key] = child
                    node = child
                }
            }
            tokenAt[Int(node)] = Int32(t.id)
            needsParseSpecial[Int(node)] = !t.userDefined
            nodeRank[Int(node)] = Int32(r)
            firstBytes[Int(t.text[t.text.startIndex])] = true
        }
        self.edges = edges
        self.tokenAt = tokenAt
        self.needsParseSpecial = needsParseSpecial
        self.rank = nodeRank
        self.firstBytes = firstBytes
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
        // Every occurrence of every eligible special text: (rank, start, length, token).
        var found: [(rank: Int32, start: Int, length: Int, token: Int32)] = []
        for start in 0..<n where firstBytes[Int(text[start])] {
            var node: Int32 = 0
            var p = start
            while p < n, let child = edges[UInt64(node) << 8 | UInt64(text[p])] {
                node = child
                p += 1
                let t = tokenAt[Int(node)]
                if t >= 0 && (parseSpecial || !needsParseSpecial[Int(node)]) && (excluded.isEmpty || !excluded.contains(Int(t))) {
                    found.append((rank[Int(node)], start, p - start, t))
                }
            }
        }
        guard !found.isEmpty else { return [.text(0..<n)] }
        found.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.start < $1.start }
        var claimed = [Int32](repeating: -1, count: n) // token id at the start byte of a claim
        var covered = [Bool](repeating: false, count: n)
        var lastEnd = 0
        var lastRank: Int32 = -1
        for f in found {
            if f.rank != lastRank { lastRank = f.rank; lastEnd = 0 }
            guard f.start >= lastEnd else { continue }
            var free = true
            for i in f.start ..< f.start + f.length where covered[i] { free = false; break }
            guard free else { continue }
            for i in f.start ..< f.start + f.length { covered[i] = true }
            claimed[f.start] = f.token
            lastEnd = f.start + f.length
        }
        var fragments: [Fragment] = []
        var i = 0
        var textStart = 0
        while i < n {
            if claimed[i] >= 0 {
                if textStart < i { fragments.append(.text(textStart ..< i)) }
                fragments.append(.token(Int(claimed[i])))
                i += 1
                while i < n && covered[i] && claimed[i] < 0 { i += 1 }
                textStart = i
            } else {
                i += 1
            }
        }
        if textStart < n { fragments.append(.text(textStart ..< n)) }
        return fragments
    }
}
