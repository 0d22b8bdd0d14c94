/// WordPiece (BERT), as llama.cpp's `llm_tokenizer_wpm_session`: each normalised word, prefixed
/// with U+2581 (GGUF BERT vocabularies spell word starts `▁word` and continuations without the
/// `##` of the original), is covered greedily from the left by the longest token that matches
/// there; a word that cannot be covered completely becomes the unknown token.
struct WordPieceModel: Sendable {
    let normalizer: BertNormalizer
    /// Longest token text in bytes: no match is tried beyond it.
    let maxTokenLength: Int
    /// `[UNK]`; a word that cannot be covered is dropped when there is none.
    let unknownID: Int?

    struct Scratch {
        var codePoints = CodePoints()
        var words: [UInt8] = []
        var ends: [Int] = []
        var word: [UInt8] = []
    }

    /// Appends the tokens of a raw text fragment to `out`.
    func encode(_ text: UnsafeBufferPointer<UInt8>, table: TokenTable, into out: inout [Int32], scratch s: inout Scratch) {
        normalizer.words(text, codePoints: &s.codePoints, buffer: &s.words, ends: &s.ends)
        var start = 0
        for end in s.ends {
            s.word.removeAll(keepingCapacity: true)
            s.word.append(contentsOf: EscapedSpace.bytes)
            s.word.append(contentsOf: s.words[start ..< end])
            start = end
            let before = out.count
            s.word.withUnsafeBufferPointer { word in
                let n = word.count
                var i = 0
                while i < n {
                    var j = min(n, i + maxTokenLength + 1)
                    var found: Int?
                    while j > i {
                        if let id = table.id(of: UnsafeBufferPointer(rebasing: word[i ..< j])) { found = id; break }
                        j -= 1
                    }
                    guard let id = found else {
                        out.removeSubrange(before...)
                        return
                    }
                    out.append(Int32(id))
                    i = j
                }
            }
            if out.count == before, let unknownID { out.append(Int32(unknownID)) }
        }
    }
}
