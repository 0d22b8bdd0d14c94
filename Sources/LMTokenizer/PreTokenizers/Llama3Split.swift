/// The Llama 3 pattern family, hand-written as llama.cpp's `unicode_regex_split_custom_llama3`,
/// `_qwen2` and `_qwen35`:
///
///     (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
///     \s*[\r\n]+|\s+(?!\S)|\s+
///
/// Qwen 2 takes single digits (`\p{N}`); Qwen 3.5 also counts combining marks as letters
/// (`[\p{L}\p{M}]+`, and `\p{M}` leaves the punctuation class).
enum Llama3Split {
    /// - Parameters:
    ///   - maxDigits: longest run of digits in one word (3 for Llama 3, 1 for Qwen).
    ///   - marksAreLetters: Qwen 3.5's `[\p{L}\p{M}]`.
    static func split(_ text: SplitText, _ lo: Int, _ hi: Int, maxDigits: Int, marksAreLetters: Bool, _ ends: inout [Int]) {
        let cps = text.scalars, cls = text.flags
        let apostrophe: UInt32 = 0x27, space: UInt32 = 0x20, cr: UInt32 = 0x0D, lf: UInt32 = 0x0A
        let letterLike: CodePointFlags = marksAreLetters ? [.letter, .mark] : .letter
        let wordBreak: CodePointFlags = letterLike.union([.whitespace, .number])
        @inline(__always) func flags(_ p: Int) -> CodePointFlags { p < hi ? cls[p] : [] }
        @inline(__always) func cpt(_ p: Int) -> UInt32 { p < hi ? cps[p] : 0xFFFF_FFFF }
        // The contractions are case-insensitive; only ASCII letters lowercase to s t r e v m l d.
        @inline(__always) func lower(_ c: UInt32) -> UInt32 { (0x41 ... 0x5A).contains(c) ? c + 32 : c }
        var prevEnd = lo
        @inline(__always) func add(_ end: Int) {
            if end > prevEnd { ends.append(end) }
            prevEnd = end
        }
        var pos = lo
        while pos < hi {
            let c = cps[pos]
            let f = cls[pos]
            if c == apostrophe && pos + 1 < hi {
                let c1 = lower(cps[pos + 1])
                if c1 == 0x73 || c1 == 0x74 || c1 == 0x6D || c1 == 0x64 {
                    pos += 2; add(pos); continue
                }
                if pos + 2 < hi {
                    let c2 = lower(cps[pos + 2])
                    if (c1 == 0x72 && c2 == 0x65) || (c1 == 0x76 && c2 == 0x65) || (c1 == 0x6C && c2 == 0x6C) {
                        pos += 3; add(pos); continue
                    }
                }
            }
            // [^\r\n\p{L}\p{N}]?\p{L}+
            if !(c == cr || c == lf || f.isNumber) {
                if !f.isDisjoint(with: letterLike) || !flags(pos + 1).isDisjoint(with: letterLike) {
                    pos += 1
                    while !flags(pos).isDisjoint(with: letterLike) { pos += 1 }
                    add(pos); continue
                }
            }
            // \p{N}{1,maxDigits}
            if f.isNumber {
                var first = pos
                while flags(pos).isNumber {
                    pos += 1
                    if pos - first >= maxDigits { add(pos); first = pos }
                }
                add(pos); continue
            }
            // ?[^\s\p{L}\p{N}]+[\r\n]*
            let f2 = c == space ? flags(pos + 1) : f
            if f2.isDisjoint(with: wordBreak) && !f.isEmpty {
                if c == space { pos += 1 }
                while true {
                    let g = flags(pos)
                    if !g.isDisjoint(with: wordBreak) || g.isEmpty { break }
                    pos += 1
                }
                while cpt(pos) == cr || cpt(pos) == lf { pos += 1 }
                add(pos); continue
            }
            var spaces = 0
            var lastNewlineEnd = 0
            while flags(pos + spaces).isWhitespace {
                let c2 = cpt(pos + spaces)
                if c2 == cr || c2 == lf { lastNewlineEnd = pos + spaces + 1 }
                spaces += 1
            }
            if lastNewlineEnd > 0 {
                pos = lastNewlineEnd // \s*[\r\n]+
            } else if spaces > 1 && pos + spaces < hi {
                pos += spaces - 1    // \s+(?!\S)
            } else if spaces > 0 {
                pos += spaces        // \s+
            } else {
                pos += 1
            }
            add(pos)
        }
    }
}
