/// SentencePiece-style merging by score (llama.cpp's `llm_tokenizer_spm_session`, used for
/// `tokenizer.ggml.model = llama`, e.g. Gemma 3).
///
/// The text (spaces already escaped as U+2581) starts as one symbol per UTF-8 character. Adjacent
/// pairs whose joined text is a token are queued by that token's score; the best pair merges
/// (highest score, then leftmost), and the new neighbours are queued. Symbols left that are not
/// tokens fall back to byte tokens `<0xNN>`.
struct SPMModel: Sendable {
    let scores: [Float]
    /// Token for each byte: `<0xNN>`, else the one-byte text, else -1 (llama.cpp `byte_to_token`).
    let byteToken: [Int32]

    init(scores: [Float], table: TokenTable) {
        self.scores = scores
        byteToken = (0..<256).map { b in
            if let id = table.id(of: ByteToken.name(UInt8(b))) { return Int32(id) }
            return table.id(of: [UInt8(b)]).map(Int32.init) ?? -1
        }
    }

    fileprivate struct Bigram: Comparable {
        var score: Float, left: Int32, right: Int32, size: Int32
        // Min-heap order = llama.cpp's max-heap order: higher score first, then leftmost.
        static func < (a: Bigram, b: Bigram) -> Bool { a.score > b.score || (a.score == b.score && a.left < b.left) }
        static func == (a: Bigram, b: Bigram) -> Bool { a.score == b.score && a.left == b.left }
    }

    struct Scratch {
        fileprivate var start: [Int32] = [], len: [Int32] = [], prev: [Int32] = [], next: [Int32] = []
        fileprivate var heap = BinaryHeap<Bigram>()
    }

    /// Appends the tokens of `text` (already escaped) to `out`.
    func encode(_ text: UnsafeBufferPointer<UInt8>, table: TokenTable, into out: inout [Int32], scratch s: inout Scratch) {
        let n = text.count
        guard n > 0 else { return }
        s.start.removeAll(keepingCapacity: true)
        s.len.removeAll(keepingCapacity: true)
        s.prev.removeAll(keepingCapacity: true)
        s.next.removeAll(keepingCapacity: true)
        s.heap.removeAll()
        var offset = 0
        var index: Int32 = 0
        while offset < n {
            let b = text[offset]
            let len = min(UTF8Bytes.sequenceLength(lead: b), n - offset)
            s.start.append(Int32(offset))
            s.len.append(Int32(len))
            offset += len
            s.prev.append(index - 1)
            s.next.append(offset == n ? -1 : index + 1)
            index += 1
        }
        let count = s.start.count
        func tryAdd(_ l: Int32, _ r: Int32, _ s: inout Scratch) {
            guard l >= 0, r >= 0 else { return }
            let lo = Int(s.start[Int(l)])
            let size = Int(s.len[Int(l)] + s.len[Int(r)])
            guard let id = table.id(of: UnsafeBufferPointer(rebasing: text[lo ..< lo + size])) else { return }
            s.heap.push(Bigram(score: scores[id], left: l, right: r, size: Int32(size)))
        }
        for i in 1..<max(count, 1) { tryAdd(Int32(i - 1), Int32(i), &s) }
        while let bg = s.heap.pop() {
            let l = Int(bg.left), r = Int(bg.right)
            let ll = s.len[l], rl = s.len[r]
            guard ll != 0, rl != 0, ll + rl == bg.size else { continue }
            s.len[l] = ll + rl
            s.len[r] = 0
            let after = s.next[r]
            s.next[l] = after
            if after >= 0 { s.prev[Int(after)] = Int32(l) }
            tryAdd(s.prev[l], Int32(l), &s)
            tryAdd(Int32(l), s.next[l], &s)
        }
        // Every merged symbol is a token by construction, so llama.cpp's `resegment` through
        // `rev_merge` never recurses: a symbol is a token or a single character spelled in bytes.
        var i: Int32 = 0
        while i >= 0 {
            let lo = Int(s.start[Int(i)]), len = Int(s.len[Int(i)])
            if let id = table.id(of: UnsafeBufferPointer(rebasing: text[lo ..< lo + len])) {
                out.append(Int32(id))
            } else {
                for k in lo ..< lo + len where byteToken[Int(text[k])] >= 0 {
                    out.append(byteToken[Int(text[k])])
                }
            }
            i = s.next[Int(i)]
        }
    }
}
