/// GPT-2's pattern `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`,
/// hand-written as llama.cpp's `unicode_regex_split_custom_gpt2`: splits `lo ..< hi` and appends
/// the end of every word to `ends`.
enum GPT2Split {
    static func split(_ text: SplitText, _ lo: Int, _ hi: Int, _ ends: inout [Int]) {
        let cps = text.scalars, cls = text.flags
        let apostrophe: UInt32 = 0x27, space: UInt32 = 0x20
        let wordBreak: CodePointFlags = [.whitespace, .letter, .number]
        @inline(__always) func flags(_ p: Int) -> CodePointFlags { p < hi ? cls[p] : [] }
        var pos = lo
        while pos < hi {
            let c = cps[pos]
            if c == apostrophe && pos + 1 < hi {
                let c1 = cps[pos + 1]
                if c1 == 0x73 || c1 == 0x74 || c1 == 0x6D || c1 == 0x64 { // s t m d
                    pos += 2; ends.append(pos); continue
                }
                if pos + 2 < hi {
                    let c2 = cps[pos + 2]
                    if (c1 == 0x72 && c2 == 0x65) || (c1 == 0x76 && c2 == 0x65) || (c1 == 0x6C && c2 == 0x6C) { // re ve ll
                        pos += 3; ends.append(pos); continue
                    }
                }
            }
            let f2 = c == space ? flags(pos + 1) : cls[pos]
            if f2.isLetter {
                if c == space { pos += 1 }
                while flags(pos).isLetter { pos += 1 }
                ends.append(pos); continue
            }
            if f2.isNumber {
                if c == space { pos += 1 }
                while flags(pos).isNumber { pos += 1 }
                ends.append(pos); continue
            }
            if f2.isDisjoint(with: wordBreak) && !f2.isEmpty {
                if c == space { pos += 1 }
                while true {
                    let f = flags(pos)
                    if !f.isDisjoint(with: wordBreak) || f.isEmpty { break }
                    pos += 1
                }
                ends.append(pos); continue
            }
            var spaces = 0
            while flags(pos + spaces).isWhitespace { spaces += 1 }
            if spaces > 1 && pos + spaces < hi {
                pos += spaces - 1 // \s+(?!\S): the last space starts the next word
            } else if spaces > 0 {
                pos += spaces
            } else {
                pos += 1
            }
            ends.append(pos)
        }
    }
}
