extension Tokenizer {
    /// The bytes token `id` stands for, as llama.cpp's `llama_token_to_piece(special: false)`:
    /// byte-level BPE text mapped back to bytes, SentencePiece, WordPiece and Gemma 4 text with
    /// U+2581 turned into spaces, `<0xNN>` byte tokens as that byte, user-defined tokens as their
    /// text, and nothing for control and unknown tokens or ids outside the vocabulary.
    public func tokenBytes(_ id: Int) -> [UInt8] {
        piece(id, special: false)
    }

    /// `tokenBytes`, with control and unknown tokens rendered as their text when `special` is true.
    public func tokenBytes(_ id: Int, includeSpecial special: Bool) -> [UInt8] {
        piece(id, special: special)
    }

    func piece(_ id: Int, special: Bool) -> [UInt8] {
        guard id >= 0 && id < texts.count else { return [] }
        let attr = attributes[id]
        let isSpecial = !attr.isDisjoint(with: [.unknown, .control])
        if isSpecial && !special { return [] }
        let text = table.text(id)
        if isSpecial || attr.contains(.userDefined) { return Array(text) }
        if attr.contains(.normal) {
            switch engine {
            case .spm, .wpm: return EscapedSpace.unescape(text)
            case let .bpe(_, _, escapesSpaces): return escapesSpaces ? EscapedSpace.unescape(text) : Self.byteLevelDecode(text)
            }
        }
        if attr.contains(.byte) {
            // llama.cpp `token_to_byte`: the two hex digits of `<0xNN>`.
            return ByteToken.value(text).map { [$0] } ?? []
        }
        return []
    }

    /// Text of `ids`, as llama.cpp's `llama_detokenize(remove_special: false, unparse_special:
    /// includeSpecial)`: the pieces concatenated, one leading space dropped when the model adds a
    /// space prefix, and spaces tidied for models with `clean_spaces`. Bytes that are not valid
    /// UTF-8 (a character cut off at the end) become U+FFFD.
    public func decode(_ ids: [Int], includeSpecial: Bool = false) -> String {
        String(decoding: decodeBytes(ids, includeSpecial: includeSpecial), as: UTF8.self)
    }

    /// The UTF-8 bytes ``decode(_:includeSpecial:)`` turns into a string.
    public func decodeBytes(_ ids: [Int], includeSpecial: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        var removeSpace = addSpacePrefix
        for id in ids {
            var p = piece(id, special: includeSpecial)
            if removeSpace, p.first == 0x20 { p.removeFirst() }
            removeSpace = false
            out.append(contentsOf: p)
        }
        return cleanSpaces ? Self.cleanUpSpaces(out) : out
    }

    /// Byte-level BPE text back to bytes. A character outside GPT-2's byte alphabet (llama.cpp
    /// then writes an `[UNK_BYTE_0x..]` marker) is kept as its own UTF-8.
    static func byteLevelDecode(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            if let b = ByteLevel.byte(for: scalar.value) {
                out.append(b)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// llama.cpp's `clean_spaces` passes: drop the space in `" ?"`, `" !"`, `" ."`, `" ,"`; turn
    /// `" ' "` into `"'"`; drop the space in `" 's"`, `" 'm"`, `" 're"`, `" 've"`.
    static func cleanUpSpaces(_ text: [UInt8]) -> [UInt8] {
        let space: UInt8 = 0x20, quote: UInt8 = 0x27
        var t = text
        // Pass 1.
        var total = t.isEmpty ? 0 : 1
        for i in 1 ..< max(t.count, 1) {
            let x = t[i]
            if t[i - 1] == space && (x == 0x3F || x == 0x21 || x == 0x2E || x == 0x2C) { total -= 1 }
            t[total] = x
            total += 1
        }
        t.removeSubrange(total...)
        // Pass 2.
        let n2 = t.count
        total = n2 == 0 ? 0 : 1
        var i = 1
        while i < n2 {
            let x = t[i]
            if x == quote && i + 1 < n2 && t[i - 1] == space && t[i + 1] == space {
                total -= 1
                t[i + 1] = 0 // as llama.cpp: the next space is overwritten with NUL
                t[total] = x
                total += 1
                i += 1
                continue
            }
            t[total] = x
            total += 1
            i += 1
        }
        t.removeSubrange(total...)
        // Pass 3.
        let n3 = t.count
        total = n3 == 0 ? 0 : 1
        for i in 1 ..< max(n3, 1) {
            let x = t[i]
            if t[i - 1] == space && x == quote && i + 1 < n3 {
                let x1 = t[i + 1]
                if x1 == 0x73 || x1 == 0x6D {
                    total -= 1
                } else if i + 2 < n3 {
                    let x2 = t[i + 2]
                    if (x1 == 0x72 && x2 == 0x65) || (x1 == 0x76 && x2 == 0x65) { total -= 1 }
                }
            }
            t[total] = x
            total += 1
        }
        t.removeSubrange(total...)
        return t
    }
}
