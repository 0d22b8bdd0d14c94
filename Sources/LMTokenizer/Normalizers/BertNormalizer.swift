/// BERT's text normalisation and word split, as llama.cpp's `llm_tokenizer_wpm_session::preprocess`
/// (a subset of Hugging Face's `BertNormalizer` plus `BertPreTokenizer`):
///
/// 1. With ``stripAccents``, every code point is replaced by the first code point of its canonical
///    decomposition (``CodePointMappings/nfdFirst(_:)``: `é` → `e`).
/// 2. Whitespace ends a word; NUL, U+FFFD and control/format characters (`\p{C}`) are dropped, and
///    with ``stripAccents`` so are combining marks (`\p{M}`).
/// 3. With ``lowercase``, code points are lowercased (simple mapping).
/// 4. Punctuation (`\p{P}`), ASCII symbols (`$+<=>^`|~`) and CJK ideographs are words of their own.
struct BertNormalizer: Sendable {
    /// `tokenizer.ggml.normalizer.lowercase` (default true).
    let lowercase: Bool
    /// `tokenizer.ggml.normalizer.strip_accents` (default: ``lowercase``).
    let stripAccents: Bool

    /// Splits UTF-8 `text` into normalised words, written back to back into `buffer` with the end
    /// of each in `ends` (both emptied first).
    func words(_ text: UnsafeBufferPointer<UInt8>, codePoints: inout CodePoints, buffer: inout [UInt8], ends: inout [Int]) {
        buffer.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        codePoints.decode(text)
        @inline(__always) func endWord() {
            if buffer.count > (ends.last ?? 0) { ends.append(buffer.count) }
        }
        for original in codePoints.scalars {
            let cp = stripAccents ? CodePointMappings.nfdFirst(original) : original
            let flags = CodePointFlags.of(cp)
            if flags.isWhitespace {
                endWord()
                continue
            }
            if cp == 0 || cp == 0xFFFD || flags.contains(.control) { continue }
            if stripAccents && flags.isMark { continue }
            let out = lowercase ? CodePointMappings.lowercase(cp) : cp
            if flags.contains(.punctuation) || (cp < 0x7F && flags.contains(.symbol)) || Self.isCJKIdeograph(cp) {
                endWord()
                UTF8Bytes.append(out, to: &buffer)
                endWord()
            } else {
                UTF8Bytes.append(out, to: &buffer)
            }
        }
        endWord()
    }

    /// The CJK ideograph blocks BERT isolates (as Hugging Face's `_is_chinese_char`, with its
    /// U+2B920 lower bound for Extension E, which llama.cpp keeps).
    static func isCJKIdeograph(_ cp: UInt32) -> Bool {
        (0x4E00 ... 0x9FFF).contains(cp) || (0x3400 ... 0x4DBF).contains(cp) || (0x20000 ... 0x2A6DF).contains(cp)
            || (0x2A700 ... 0x2B73F).contains(cp) || (0x2B740 ... 0x2B81F).contains(cp) || (0x2B920 ... 0x2CEAF).contains(cp)
            || (0xF900 ... 0xFAFF).contains(cp) || (0x2F800 ... 0x2FA1F).contains(cp)
    }
}
