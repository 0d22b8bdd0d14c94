/// Python's `str` algorithms on ``Text``, by Unicode scalar as Python counts characters. Pieces
/// cut from the input keep their origin; inserted text (a `replace` replacement, padding) keeps
/// its own; case changes are rewrites (see ``Text/rewritten(_:)``).
extension Text {
    // MARK: - Stripping and splitting

    /// `str.strip(chars)` (`left`/`right` select `lstrip`/`rstrip`); nil `chars` strips whitespace.
    func stripped(_ chars: String?, left: Bool = true, right: Bool = true) -> Text {
        let set = chars.map { Set($0.unicodeScalars) }
        func strip(_ s: Unicode.Scalar) -> Bool { set.map { $0.contains(s) } ?? PythonUnicode.isSpace(s) }
        let scalars = self.scalars
        var lo = 0, hi = scalars.count
        if left { while lo < hi, strip(scalars[lo]) { lo += 1 } }
        if right { while hi > lo, strip(scalars[hi - 1]) { hi -= 1 } }
        if lo == 0, hi == scalars.count { return self }
        return slice(scalars: lo..<hi, offsets: utf8Offsets()).markup(isMarkup)
    }

    /// `str.split(sep, maxsplit)`; nil `sep` splits on whitespace runs and drops empty pieces.
    func split(_ sep: String?, maxSplit: Int = -1) -> [Text] {
        let scalars = self.scalars, offsets = utf8Offsets()
        var out: [Text] = []
        func piece(_ r: Range<Int>) { out.append(slice(scalars: r, offsets: offsets).markup(isMarkup)) }
        guard let sep else {
            var i = 0, splits = 0
            while true {
                while i < scalars.count, PythonUnicode.isSpace(scalars[i]) { i += 1 }
                if i == scalars.count { break }
                if maxSplit >= 0, splits == maxSplit {
                    var end = scalars.count
                    while end > i, PythonUnicode.isSpace(scalars[end - 1]) { end -= 1 }
                    piece(i..<end)
                    break
                }
                let start = i
                while i < scalars.count, !PythonUnicode.isSpace(scalars[i]) { i += 1 }
                piece(start..<i)
                splits += 1
            }
            return out
        }
        let needle = Array(sep.unicodeScalars)
        var start = 0, i = 0, splits = 0
        while i + needle.count <= scalars.count, maxSplit < 0 || splits < maxSplit {
            if scalars[i..<(i + needle.count)].elementsEqual(needle) {
                piece(start..<i)
                i += needle.count
                start = i
                splits += 1
            } else {
                i += 1
            }
        }
        piece(start..<scalars.count)
        return out
    }

    /// `str.rsplit(sep, maxsplit)`: as `split`, counting splits from the right.
    func rsplit(_ sep: String?, maxSplit: Int = -1) -> [Text] {
        guard maxSplit >= 0 else { return split(sep, maxSplit: -1) }
        let scalars = self.scalars, offsets = utf8Offsets()
        var out: [Text] = []
        func piece(_ r: Range<Int>) { out.append(slice(scalars: r, offsets: offsets).markup(isMarkup)) }
        guard let sep else {
            var i = scalars.count, splits = 0
            while true {
                while i > 0, PythonUnicode.isSpace(scalars[i - 1]) { i -= 1 }
                if i == 0 { break }
                if splits == maxSplit {
                    var start = 0
                    while start < i, PythonUnicode.isSpace(scalars[start]) { start += 1 }
                    piece(start..<i)
                    break
                }
                let end = i
                while i > 0, !PythonUnicode.isSpace(scalars[i - 1]) { i -= 1 }
                piece(i..<end)
                splits += 1
            }
            return out.reversed()
        }
        let needle = Array(sep.unicodeScalars)
        var end = scalars.count, i = scalars.count - needle.count, splits = 0
        while i >= 0, splits < maxSplit {
            if scalars[i..<(i + needle.count)].elementsEqual(needle) {
                piece((i + needle.count)..<end)
                end = i
                i -= needle.count
                splits += 1
            } else {
                i -= 1
            }
        }
        piece(0..<end)
        return out.reversed()
    }

    /// `str.splitlines(keepends)`: breaks at `\n`, `\r`, `\r\n`, `\v`, `\f`, `\x1c`-`\x1e`,
    /// `\x85`, U+2028, U+2029.
    func splitLines(keepEnds: Bool = false) -> [Text] {
        let scalars = self.scalars, offsets = utf8Offsets()
        var out: [Text] = []
        var start = 0, i = 0
        while i < scalars.count {
            guard PythonUnicode.isLineBreak(scalars[i]) else { i += 1; continue }
            var end = i + 1
            if scalars[i] == "\r", end < scalars.count, scalars[end] == "\n" { end += 1 }
            out.append(slice(scalars: start..<(keepEnds ? end : i), offsets: offsets).markup(isMarkup))
            start = end
            i = end
        }
        if start < scalars.count { out.append(slice(scalars: start..<scalars.count, offsets: offsets).markup(isMarkup)) }
        return out
    }

    /// `separator.join(items)` keeping each piece's origin.
    static func joined(_ items: [Text], separator: Text) -> Text {
        var out = Text.empty
        for (i, item) in items.enumerated() {
            if i > 0 { out.append(separator) }
            out.append(item)
        }
        return out
    }

    // MARK: - Searching and replacing

    /// Scalar index of the first occurrence of `needle` in scalars `[start, end)`, or nil.
    func find(_ needle: String, start: Int = 0, end: Int? = nil, fromRight: Bool = false) -> Int? {
        let scalars = self.scalars
        let n = Array(needle.unicodeScalars)
        let lo = Swift.max(0, start), hi = Swift.min(scalars.count, end ?? scalars.count)
        guard hi - lo >= n.count else { return nil }
        let candidates = Array(lo...(hi - n.count))
        for i in fromRight ? candidates.reversed() : candidates where scalars[i..<(i + n.count)].elementsEqual(n) {
            return i
        }
        return nil
    }

    /// `str.count(sub)`: non-overlapping occurrences (an empty `sub` counts `len + 1`).
    func count(_ needle: String, start: Int = 0, end: Int? = nil) -> Int {
        let scalars = self.scalars
        let n = Array(needle.unicodeScalars)
        let lo = Swift.max(0, start), hi = Swift.min(scalars.count, end ?? scalars.count)
        guard lo <= hi else { return 0 }
        if n.isEmpty { return hi - lo + 1 }
        var i = lo, c = 0
        while i + n.count <= hi {
            if scalars[i..<(i + n.count)].elementsEqual(n) { c += 1; i += n.count } else { i += 1 }
        }
        return c
    }

    /// `str.replace(old, new, count)`; an empty `old` inserts `new` around every character.
    func replacing(_ old: String, with new: Text, count: Int = -1) -> Text {
        let scalars = self.scalars, offsets = utf8Offsets()
        let o = Array(old.unicodeScalars)
        var out = Text.empty
        var done = 0
        func more() -> Bool { count < 0 || done < count }
        if o.isEmpty {
            for i in 0...scalars.count {
                if more() { out.append(new); done += 1 }
                if i < scalars.count { out.append(slice(scalars: i..<(i + 1), offsets: offsets)) }
            }
            return out
        }
        var start = 0, i = 0
        while i + o.count <= scalars.count, more() {
            if scalars[i..<(i + o.count)].elementsEqual(o) {
                out.append(slice(scalars: start..<i, offsets: offsets))
                out.append(new)
                done += 1
                i += o.count
                start = i
            } else {
                i += 1
            }
        }
        out.append(slice(scalars: start..<scalars.count, offsets: offsets))
        return out
    }

    // MARK: - Case

    func upper() -> Text { rewritten(PythonUnicode.uppered(scalars)) }
    func lower() -> Text { rewritten(PythonUnicode.lowered(scalars)) }

    /// `str.title()`: a cased character after an uncased one is titlecased, others lowercased.
    func title() -> Text {
        var out = ""
        var previousCased = false
        for s in scalars {
            out += previousCased ? PythonUnicode.lower(s) : PythonUnicode.title(s)
            previousCased = PythonUnicode.isCased(s)
        }
        return rewritten(out)
    }

    /// `str.capitalize()`: first character titlecased, the rest lowercased.
    func capitalize() -> Text {
        let s = scalars
        guard let first = s.first else { return self }
        return rewritten(PythonUnicode.title(first) + PythonUnicode.lowered(Array(s.dropFirst())))
    }

    func swapcase() -> Text {
        var out = ""
        for s in scalars {
            out += PythonUnicode.isUpper(s) ? PythonUnicode.lower(s) : PythonUnicode.isLower(s) ? PythonUnicode.upper(s) : String(s)
        }
        return rewritten(out)
    }

    // MARK: - Padding

    /// `str.center`/`ljust`/`rjust`: `fill` (one character) around to `width` characters.
    func padded(to width: Int, fill: Text, align: Alignment) -> Text {
        let n = scalarCount
        guard width > n else { return self }
        let margin = width - n
        let left: Int = switch align {
        case .left: 0
        case .right: margin
        case .center: margin / 2 + (margin & width & 1)
        }
        var out = Text.empty
        for _ in 0..<left { out.append(fill) }
        out.append(self)
        for _ in 0..<(margin - left) { out.append(fill) }
        return out.markup(isMarkup)
    }

    enum Alignment { case left, right, center }
}
