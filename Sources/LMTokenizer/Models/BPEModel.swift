/// BPE merges by rank (llama.cpp's `llm_tokenizer_bpe_session`), over one pre-tokenized word.
///
/// Two spellings of the word exist. Byte-level vocabularies (GPT-2 style) spell every byte as one
/// character of GPT-2's alphabet (``ByteLevel``), so the word starts as one symbol per byte and a
/// symbol with no token falls back to the tokens of its single bytes. Raw vocabularies (Gemma 4)
/// start from the word's UTF-8 characters and fall back to `<0xNN>` byte tokens.
///
/// llama.cpp merges strings; this works on symbol ids instead. Every string a merge can produce or
/// consume gets an id: vocabulary tokens keep theirs, other strings (merge sides or results missing
/// from the vocabulary) get ids from `vocabularySize` up. A pair of ids maps to the merge's rank and
/// the id of the joined string, so the merge loop never builds a string.
struct BPEModel: Sendable {
    let vocabularySize: Int
    let byteLevel: Bool
    /// Llama 3 style: a word that is itself a token is emitted without merging.
    let ignoreMerges: Bool
    /// Gemma 4: a word of newlines only that is itself a token is emitted without merging.
    let newlineWordsWhole: Bool
    /// `left << 32 | right` -> `rank << 32 | merged`.
    private let pairs: [UInt64: UInt64]
    /// Texts of the symbols that are not vocabulary tokens, indexed by `id - vocabularySize`.
    private let extraTexts: [[UInt8]]
    /// Ids of those texts (raw vocabularies look characters up here).
    private let extraIDs: [[UInt8]: Int32]
    /// Byte-level: the symbol of the alphabet character standing for each byte.
    private let byteSymbol: [Int32]
    /// Token of each byte when a symbol has none: the token whose text is that one byte
    /// (byte-level), or `<0xNN>` (raw); -1 when there is none and the byte is dropped, as llama.cpp.
    private let byteFallback: [Int32]

    /// Reads `tokenizer.ggml.merges` entries `"left right"` (rank = index; split at the first space
    /// after the first byte, as llama.cpp; the first of duplicate pairs wins, as its
    /// `bpe_ranks.emplace`).
    /// - Throws: ``TokenizerError/malformedMerge(index:text:)`` for an entry with no space after
    ///   its first byte or nothing after that space (llama.cpp skips such entries silently).
    init(merges: [String], table: TokenTable, byteLevel: Bool, ignoreMerges: Bool, newlineWordsWhole: Bool) throws(TokenizerError) {
        vocabularySize = table.count
        self.byteLevel = byteLevel
        self.ignoreMerges = ignoreMerges
        self.newlineWordsWhole = newlineWordsWhole
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
        byteSymbol = byteLevel ? ByteLevel.encodedByte.map { bytes in bytes.withUnsafeBufferPointer { symbol($0) } } : []
        var pairs: [UInt64: UInt64] = [:]
        pairs.reserveCapacity(merges.count)
        var joined: [UInt8] = []
        var malformed: Int?
        // Over the strings' own UTF-8 storage: an array per merge side cost ~150,000 allocations
        // at every load of a 49K-merge vocabulary.
        for (rank, merge) in merges.enumerated() {
            var merge = merge
            merge.withUTF8 { u in
                guard u.count > 2, let sp = u[1...].firstIndex(of: 0x20), sp + 1 < u.count else {
                    malformed = rank
                    return
                }
                let left = UnsafeBufferPointer(rebasing: u[..<sp]), right = UnsafeBufferPointer(rebasing: u[(sp + 1)...])
                let key = Self.key(symbol(left), symbol(right))
                guard pairs[key] == nil else { return }
                joined.removeAll(keepingCapacity: true)
                joined.append(contentsOf: left)
                joined.append(contentsOf: right)
                let merged = joined.withUnsafeBufferPointer { symbol($0) }
                pairs[key] = UInt64(rank) << 32 | UInt64(UInt32(bitPattern: merged))
            }
            if let malformed { throw .malformedMerge(index: malformed, text: merges[malformed]) }
        }
        self.pairs = pairs
        self.extraTexts = extraTexts
        self.extraIDs = byteLevel ? [:] : extra
        byteFallback = (0 ..< 256).map { b in
            let text = byteLevel ? [UInt8(b)] : ByteToken.name(UInt8(b))
            return table.id(of: text).map(Int32.init) ?? -1
        }
    }

    @inline(__always)
    private static func key(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
    }

    fileprivate struct Bigram: Comparable {
        var rank: Int32, left: Int32, right: Int32, leftID: Int32, rightID: Int32
        static func < (a: Bigram, b: Bigram) -> Bool { a.rank < b.rank || (a.rank == b.rank && a.left < b.left) }
        static func == (a: Bigram, b: Bigram) -> Bool { a.rank == b.rank && a.left == b.left }
    }

    /// Reusable buffers for ``encodeWord(_:table:into:scratch:)``.
    struct Scratch {
        fileprivate var ids: [Int32] = [], starts: [Int32] = [], prev: [Int32] = [], next: [Int32] = []
        fileprivate var heap = BinaryHeap<Bigram>()
        fileprivate var spelled: [UInt8] = []
    }

    /// Symbol id of a merged-away symbol (never a vocabulary or extra id, never -1).
    private static let dead: Int32 = -2

    /// Appends the tokens of one pre-tokenized word to `out`: raw UTF-8 bytes for byte-level
    /// vocabularies (the alphabet mapping happens here), the (space-escaped) text itself for raw ones.
    func encodeWord(_ word: UnsafeBufferPointer<UInt8>, table: TokenTable, into out: inout [Int32], scratch s: inout Scratch) {
        let n = word.count
        guard n > 0 else { return }
        if let whole = wholeWordToken(word, table: table, spelled: &s.spelled) {
            out.append(whole)
            return
        }
        s.ids.removeAll(keepingCapacity: true)
        s.starts.removeAll(keepingCapacity: true)
        s.prev.removeAll(keepingCapacity: true)
        s.next.removeAll(keepingCapacity: true)
        s.heap.removeAll()
        if byteLevel {
            for (i, b) in word.enumerated() {
                s.ids.append(byteSymbol[Int(b)])
                s.starts.append(Int32(i))
            }
        } else {
            var offset = 0
            while offset < n {
                let length = min(UTF8Bytes.sequenceLength(lead: word[offset]), n - offset)
                let char = UnsafeBufferPointer(rebasing: word[offset ..< offset + length])
                s.ids.append(table.id(of: char).map(Int32.init) ?? extraIDs[Array(char)] ?? -1)
                s.starts.append(Int32(offset))
                offset += length
            }
        }
        let count = s.ids.count
        for i in 0 ..< count {
            s.prev.append(Int32(i - 1))
            s.next.append(i + 1 < count ? Int32(i + 1) : -1)
        }
        func addBigram(_ l: Int32, _ r: Int32, _ s: inout Scratch) {
            guard l >= 0, r >= 0 else { return }
            let li = s.ids[Int(l)], ri = s.ids[Int(r)]
            guard li >= 0, ri >= 0, let v = pairs[Self.key(li, ri)] else { return }
            s.heap.push(Bigram(rank: Int32(truncatingIfNeeded: v >> 32), left: l, right: r, leftID: li, rightID: ri))
        }
        for i in 1 ..< max(count, 1) { addBigram(Int32(i - 1), Int32(i), &s) }
        while let bg = s.heap.pop() {
            let l = Int(bg.left), r = Int(bg.right)
            // Stale: one side has merged since this pair was queued (llama.cpp compares texts).
            guard s.ids[l] == bg.leftID, s.ids[r] == bg.rightID, let v = pairs[Self.key(bg.leftID, bg.rightID)] else { continue }
            s.ids[l] = Int32(truncatingIfNeeded: v & 0xFFFF_FFFF)
            s.ids[r] = Self.dead
            let after = s.next[r]
            s.next[l] = after
            if after >= 0 { s.prev[Int(after)] = Int32(l) }
            addBigram(s.prev[l], Int32(l), &s)
            addBigram(Int32(l), s.next[l], &s)
        }
        var i: Int32 = 0
        while i >= 0 {
            let id = s.ids[Int(i)]
            let next = s.next[Int(i)]
            if id >= 0 && Int(id) < vocabularySize {
                out.append(id)
            } else if byteLevel, id >= 0 {
                // No such token: llama.cpp looks up each byte of the byte-level text on its own.
                for b in extraTexts[Int(id) - vocabularySize] where byteFallback[Int(b)] >= 0 {
                    out.append(byteFallback[Int(b)])
                }
            } else {
                let end = next >= 0 ? Int(s.starts[Int(next)]) : n
                for k in Int(s.starts[Int(i)]) ..< end where byteFallback[Int(word[k])] >= 0 {
                    out.append(byteFallback[Int(word[k])])
                }
            }
            i = next
        }
    }

    /// The token a word stands for as a whole, when ``ignoreMerges`` or ``newlineWordsWhole`` says
    /// it skips merging.
    private func wholeWordToken(_ word: UnsafeBufferPointer<UInt8>, table: TokenTable, spelled: inout [UInt8]) -> Int32? {
        if byteLevel {
            guard ignoreMerges else { return nil }
            spelled.removeAll(keepingCapacity: true)
            for b in word { spelled.append(contentsOf: ByteLevel.encodedByte[Int(b)]) }
            return spelled.withUnsafeBufferPointer { table.id(of: $0) }.map(Int32.init)
        }
        guard ignoreMerges || (newlineWordsWhole && !word.contains(where: { $0 != 0x0A })) else { return nil }
        return table.id(of: word).map(Int32.init)
    }
}
