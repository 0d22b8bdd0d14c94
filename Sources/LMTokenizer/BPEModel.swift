/// Byte-level BPE merges (GPT-2 style, llama.cpp's `llm_tokenizer_bpe_session`).
///
/// llama.cpp merges strings; this works on symbol ids instead. Every string a merge can produce or
/// consume gets an id: vocabulary tokens keep theirs, other strings (rare: merge results missing
/// from the vocabulary) get ids from `vocabularySize` up. A pair of ids maps to the merge's rank
/// and the id of the joined string, so the merge loop never builds a string.
struct BPEModel: Sendable {
    let vocabularySize: Int
    /// `left << 32 | right` -> `rank << 32 | merged`.
    private let pairs: [UInt64: UInt64]
    /// Symbol id of the byte-level character standing for each byte.
    private let byteSymbol: [Int32]
    /// Byte-level text of the symbols that are not vocabulary tokens, indexed by `id - vocabularySize`.
    private let extraTexts: [[UInt8]]
    /// Token whose text is exactly the one byte `b`, or -1 (fallback for symbols with no token).
    private let singleByteToken: [Int32]
    /// Llama 3 style: a word that is itself a token is emitted without merging.
    let ignoreMerges: Bool

    /// Reads `tokenizer.ggml.merges` entries (`"left right"`, rank = index; the first of duplicate
    /// pairs wins, as llama.cpp's `bpe_ranks.emplace`).
    init(merges: [String], table: TokenTable, ignoreMerges: Bool) {
        vocabularySize = table.count
        self.ignoreMerges = ignoreMerges
        var extra: [[UInt8]: Int32] = [:]
        var extraTexts: [[UInt8]] = []
        let n = table.count
        func symbol(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            if let id = table.id(of: bytes) { return Int32(id) }
            let key = Array(bytes)
            if let id = extra[key] { return id }
            let id = Int32(n + extraTexts.count)
            extra[key] = id
            extraTexts.append(key)
            return id
        }
        byteSymbol = ByteLevel.encodedByte.map { bytes in bytes.withUnsafeBufferPointer { symbol($0) } }
        var pairs: [UInt64: UInt64] = [:]
        pairs.reserveCapacity(merges.count)
        var joined: [UInt8] = []
        // Over the strings' own UTF-8 storage: an array per merge side cost ~150,000 allocations
        // at every load of a 49K-merge vocabulary.
        for (rank, merge) in merges.enumerated() {
            var merge = merge
            merge.withUTF8 { u in
                // As llama.cpp: split at the first space after the first byte; no space, no merge.
                guard u.count > 1, let sp = u[1...].firstIndex(of: 0x20) else { return }
                let left = UnsafeBufferPointer(rebasing: u[..<sp]), right = UnsafeBufferPointer(rebasing: u[(sp + 1)...])
                let key = UInt64(UInt32(bitPattern: symbol(left))) << 32 | UInt64(UInt32(bitPattern: symbol(right)))
                guard pairs[key] == nil else { return }
                joined.removeAll(keepingCapacity: true)
                joined.append(contentsOf: left)
                joined.append(contentsOf: right)
                let merged = joined.withUnsafeBufferPointer { symbol($0) }
                pairs[key] = UInt64(rank) << 32 | UInt64(UInt32(bitPattern: merged))
            }
        }
        self.pairs = pairs
        self.extraTexts = extraTexts
        singleByteToken = (0..<256).map { b in table.id(of: [UInt8(b)]).map(Int32.init) ?? -1 }
    }

    fileprivate struct Bigram: Comparable {
        var rank: Int32, left: Int32, right: Int32, leftID: Int32, rightID: Int32
        static func < (a: Bigram, b: Bigram) -> Bool { a.rank < b.rank || (a.rank == b.rank && a.left < b.left) }
        static func == (a: Bigram, b: Bigram) -> Bool { a.rank == b.rank && a.left == b.left }
    }

    /// Reusable buffers for ``encodeWord(_:table:into:scratch:)``.
    struct Scratch {
        fileprivate var ids: [Int32] = [], prev: [Int32] = [], next: [Int32] = []
        fileprivate var heap = BinaryHeap<Bigram>()
    }

    /// Appends the tokens of one pre-tokenized word (raw UTF-8 bytes, before the byte-level
    /// mapping) to `out`.
    func encodeWord(_ word: UnsafeBufferPointer<UInt8>, table: TokenTable, into out: inout [Int32], scratch s: inout Scratch) {
        let n = word.count
        guard n > 0 else { return }
        if ignoreMerges {
            var encoded: [UInt8] = []
            for b in word { encoded.append(contentsOf: ByteLevel.encodedByte[Int(b)]) }
            if let id = table.id(of: encoded) { out.append(Int32(id)); return }
        }
        s.ids.removeAll(keepingCapacity: true)
        s.prev.removeAll(keepingCapacity: true)
        s.next.removeAll(keepingCapacity: true)
        s.heap.removeAll()
        for (i, b) in word.enumerated() {
            s.ids.append(byteSymbol[Int(b)])
            s.prev.append(Int32(i - 1))
            s.next.append(i + 1 < n ? Int32(i + 1) : -1)
        }
        func addBigram(_ l: Int32, _ r: Int32, _ s: inout Scratch) {
            guard l >= 0, r >= 0 else { return }
            let li = s.ids[Int(l)], ri = s.ids[Int(r)]
            guard let v = pairs[UInt64(UInt32(bitPattern: li)) << 32 | UInt64(UInt32(bitPattern: ri))] else { return }
            s.heap.push(Bigram(rank: Int32(truncatingIfNeeded: v >> 32), left: l, right: r, leftID: li, rightID: ri))
        }
        for i in 1..<n { addBigram(Int32(i - 1), Int32(i), &s) }
        while let bg = s.heap.pop() {
            let l = Int(bg.left), r = Int(bg.right)
            // Stale: one side has merged since this pair was queued (llama.cpp compares texts).
            guard s.ids[l] == bg.leftID, s.ids[r] == bg.rightID, s.ids[r] >= 0 else { continue }
            guard let v = pairs[UInt64(UInt32(bitPattern: bg.leftID)) << 32 | UInt64(UInt32(bitPattern: bg.rightID))] else { continue }
            s.ids[l] = Int32(truncatingIfNeeded: v & 0xFFFF_FFFF)
            s.ids[r] = -1
            let after = s.next[r]
            s.next[l] = after
            if after >= 0 { s.prev[Int(after)] = Int32(l) }
            addBigram(s.prev[l], Int32(l), &s)
            addBigram(Int32(l), s.next[l], &s)
        }
        var i: Int32 = 0
        while i >= 0 {
            let id = s.ids[Int(i)]
            if Int(id) < vocabularySize {
                out.append(id)
            } else {
                // No such token: llama.cpp looks up each byte of the byte-level text on its own.
                for b in extraTexts[Int(id) - vocabularySize] where singleByteToken[Int(b)] >= 0 {
                    out.append(singleByteToken[Int(b)])
                }
            }
            i = s.next[Int(i)]
        }
    }
}
