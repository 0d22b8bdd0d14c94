/// Splits a template into tokens the way jinja2 3.1's lexer does with the settings Hugging Face's
/// `apply_chat_template` uses (`trim_blocks=True`, `lstrip_blocks=True`, default delimiters,
/// `keep_trailing_newline=False`):
///
/// - line ends (`\r\n`, `\r`, `\n`) become `\n` and one final line end is dropped;
/// - `{%-`, `{{-`, `{#-` strip all whitespace before the tag, `-%}`, `-}}`, `-#}` all after it;
/// - a block or comment tag alone on its line (only whitespace before it) loses that whitespace
///   unless it opens with `{%+` (`lstrip_blocks`), and one newline after `%}`/`#}` is dropped
///   (`trim_blocks`);
/// - `{% raw %}...{% endraw %}` is text.
///
/// Source: jinja2/lexer.py (`Lexer.tokeniter`, `OptionalLStrip`), read to learn the rules.
struct Lexer {
    private let src: [Unicode.Scalar]
    private let lineStarts: [Int]
    private var pos = 0
    private var tokens: [Token] = []
    /// Whether the last match ended with a newline (or nothing was matched yet): decides
    /// whether whitespace before a block tag at the start of the text counts as a line start.
    private var lineStarting = true

    /// Tokens of `source`, ending with `.eof`.
    /// - Throws: ``JinjaError/syntax(message:at:)`` for unterminated comments or raw blocks,
    ///   unbalanced brackets, characters that start no token, invalid escapes;
    ///   ``JinjaError/unsupported(construct:at:)`` for `\N{...}` escapes, lone surrogates and
    ///   integer literals beyond 64 bits.
    static func tokenize(_ source: String) throws(JinjaError) -> [Token] {
        var lexer = Lexer(normalizing: source)
        try lexer.run()
        return lexer.tokens
    }

    private init(normalizing source: String) {
        // Newlines are normalized and one trailing newline dropped, as jinja2 does before lexing.
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(source.unicodeScalars.count)
        var previousCR = false
        for s in source.unicodeScalars {
            if s == "\n" {
                if !previousCR { out.append("\n") }
                previousCR = false
            } else if s == "\r" {
                out.append("\n")
                previousCR = true
            } else {
                out.append(s)
                previousCR = false
            }
        }
        if out.last == "\n" { out.removeLast() }
        src = out
        var starts = [0]
        for (i, s) in out.enumerated() where s == "\n" { starts.append(i + 1) }
        lineStarts = starts
    }

    func location(_ offset: Int) -> JinjaSourceLocation {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return JinjaSourceLocation(line: lo + 1, column: offset - lineStarts[lo] + 1)
    }

    private func fail(_ message: String, at offset: Int) -> JinjaError {
        .syntax(message: message, at: location(offset))
    }

    private func at(_ i: Int) -> Unicode.Scalar? { i < src.count ? src[i] : nil }

    /// The source text of `range` (scalar offsets), built from UTF-8 directly (fast for ASCII).
    private func text(_ range: Range<Int>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        for s in src[range] {
            if s.value < 0x80 { bytes.append(UInt8(s.value)) } else { UTF8.encode(s) { bytes.append($0) } }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func matches(_ literal: String, at i: Int) -> Bool {
        var j = i
        for s in literal.unicodeScalars {
            guard j < src.count, src[j] == s else { return false }
            j += 1
        }
        return true
    }

    private func skipSpace(from i: Int) -> Int {
        var j = i
        while j < src.count, PythonUnicode.isSpace(src[j]) { j += 1 }
        return j
    }

    private mutating func emit(_ kind: Token.Kind, at offset: Int) {
        tokens.append(Token(kind: kind, location: location(offset)))
    }

    // MARK: - Root state

    private enum Tag { case variable, block, comment, raw }

    private mutating func run() throws(JinjaError) {
        while pos < src.count {
            guard let (start, tag, sign, end) = nextTag() else {
                emit(.data(text(pos..<src.count)), at: pos)
                pos = src.count
                break
            }
            let kept = strippedText(pos..<start, sign: sign, tag: tag)
            if !kept.isEmpty { emit(.data(text(kept)), at: pos) }
            lineStarting = src[end - 1] == "\n"
            switch tag {
            case .variable:
                emit(.variableBegin, at: start)
                pos = end
                try lexTag(closing: .variableEnd)
            case .block:
                emit(.blockBegin, at: start)
                pos = end
                try lexTag(closing: .blockEnd)
            case .comment:
                pos = end
                try skipComment(openedAt: start)
            case .raw:
                pos = end
                try lexRaw(openedAt: start)
            }
        }
        emit(.eof, at: src.count)
    }

    /// The first tag opening at or after `pos`: where, which, its `-`/`+` sign, where it ends.
    private func nextTag() -> (Int, Tag, Unicode.Scalar?, Int)? {
        var i = pos
        while i + 1 < src.count {
            if src[i] == "{" {
                let tag: Tag? = switch src[i + 1] {
                case "{": .variable
                case "%": .block
                case "#": .comment
                default: nil
                }
                if let tag {
                    let sign = at(i + 2).flatMap { $0 == "-" || $0 == "+" ? $0 : nil }
                    if tag == .block, let rawEnd = rawBegin(at: i) { return (i, .raw, sign, rawEnd) }
                    return (i, tag, sign, i + 2 + (sign == nil ? 0 : 1))
                }
            }
            i += 1
        }
        return nil
    }

    /// End of `{%(-|+|)\s*raw\s*(-%}\s*|%})` at `i`, if it is there.
    private func rawBegin(at i: Int) -> Int? {
        var j = i + 2
        if let s = at(j), s == "-" || s == "+" { j += 1 }
        j = skipSpace(from: j)
        guard matches("raw", at: j) else { return nil }
        j = skipSpace(from: j + 3)
        if matches("-%}", at: j) { return skipSpace(from: j + 3) }
        if matches("%}", at: j) { return j + 2 }
        return nil
    }

    /// Text before a tag after whitespace control: `-` strips all trailing whitespace; otherwise
    /// (unless `+`) a block, comment or raw tag preceded on its line only by whitespace takes it.
    private func strippedText(_ range: Range<Int>, sign: Unicode.Scalar?, tag: Tag) -> Range<Int> {
        if sign == "-" {
            var end = range.upperBound
            while end > range.lowerBound, PythonUnicode.isSpace(src[end - 1]) { end -= 1 }
            return range.lowerBound..<end
        }
        guard sign != "+", tag != .variable else { return range }
        var lineStart = range.upperBound
        while lineStart > range.lowerBound, src[lineStart - 1] != "\n" { lineStart -= 1 }
        guard lineStart > range.lowerBound || lineStarting else { return range }
        let tail = src[lineStart..<range.upperBound]
        guard !tail.isEmpty, tail.allSatisfy(PythonUnicode.isSpace) else { return range }
        return range.lowerBound..<lineStart
    }

    // MARK: - Comments and raw blocks

    private mutating func skipComment(openedAt start: Int) throws(JinjaError) {
        // jinja2 reports a missing end only when some text follows the opening.
        if pos >= src.count { return }
        var i = pos
        while i < src.count {
            if matches("+#}", at: i) { pos = i + 3; break }
            if matches("-#}", at: i) { pos = skipSpace(from: i + 3); break }
            if matches("#}", at: i) { pos = i + 2 + (at(i + 2) == "\n" ? 1 : 0); break }
            i += 1
        }
        guard i < src.count else { throw fail("Missing end of comment tag", at: start) }
        lineStarting = src[pos - 1] == "\n"
    }

    private mutating func lexRaw(openedAt start: Int) throws(JinjaError) {
        if pos >= src.count { return }
        var i = pos
        while i + 1 < src.count {
            if src[i] == "{", src[i + 1] == "%" {
                var j = i + 2
                var sign: Unicode.Scalar?
                if let s = at(j), s == "-" || s == "+" { sign = s; j += 1 }
                j = skipSpace(from: j)
                if matches("endraw", at: j) {
                    j = skipSpace(from: j + 6)
                    var end: Int?
                    if matches("+%}", at: j) { end = j + 3 }
                    else if matches("-%}", at: j) { end = skipSpace(from: j + 3) }
                    else if matches("%}", at: j) { end = j + 2 + (at(j + 2) == "\n" ? 1 : 0) }
                    if let end {
                        let kept = strippedText(pos..<i, sign: sign, tag: .raw)
                        if !kept.isEmpty { emit(.data(text(kept)), at: pos) }
                        pos = end
                        lineStarting = src[end - 1] == "\n"
                        return
                    }
                }
            }
            i += 1
        }
        throw fail("Missing end of raw directive", at: start)
    }

    // MARK: - Inside {{ }} and {% %}

    /// Tokens up to the closing delimiter; at the end of the source the parser reports the
    /// unexpected end, as jinja2's does.
    private mutating func lexTag(closing: Token.Kind) throws(JinjaError) {
        var balance: [Unicode.Scalar] = []
        while pos < src.count {
            if balance.isEmpty, let end = tagEnd(closing) {
                emit(closing, at: pos)
                pos = end
                lineStarting = src[end - 1] == "\n"
                return
            }
            let c = src[pos]
            if PythonUnicode.isSpace(c) {
                let end = skipSpace(from: pos)
                lineStarting = src[end - 1] == "\n"
                pos = end
                continue
            }
            lineStarting = false
            if let end = floatEnd(at: pos) {
                emit(.float(Double(text(pos..<end).filter { $0 != "_" }) ?? .infinity), at: pos)
                pos = end
            } else if let (end, value) = try integer(at: pos) {
                emit(.integer(value), at: pos)
                pos = end
            } else if Self.isNameCharacter(c) || c.properties.generalCategory == .nonspacingMark {
                var end = pos
                var ascii = true
                while end < src.count, Self.isNameCharacter(src[end]) {
                    ascii = ascii && src[end].isASCII
                    end += 1
                }
                let name = src[pos..<end]
                // An ASCII name here cannot start with a digit (numbers are matched first).
                guard end > pos, ascii || (name.first.map { $0 == "_" || $0.properties.isXIDStart } ?? false
                    && name.dropFirst().allSatisfy({ $0.properties.isXIDContinue })) else {
                    throw fail("Invalid character in identifier", at: pos)
                }
                emit(.name(text(name.startIndex..<name.endIndex)), at: pos)
                pos = end
            } else if c == "'" || c == "\"" {
                guard let end = stringEnd(at: pos) else { throw fail("unexpected char \(PythonRepr.string(String(c))) at \(pos)", at: pos) }
                let body = text((pos + 1)..<(end - 1))
                let value = try StringLiteral.unescape(body, at: location(pos))
                emit(.string(value), at: pos)
                pos = end
            } else if let (op, end) = operatorAt(pos) {
                switch op {
                case .lbrace: balance.append("}")
                case .lparen: balance.append(")")
                case .lbracket: balance.append("]")
                case .rbrace, .rparen, .rbracket:
                    guard let expected = balance.popLast() else { throw fail("unexpected '\(op.rawValue)'", at: pos) }
                    guard expected == Unicode.Scalar(op.rawValue) else {
                        throw fail("unexpected '\(op.rawValue)', expected '\(expected)'", at: pos)
                    }
                default: break
                }
                emit(.op(op), at: pos)
                pos = end
            } else {
                throw fail("unexpected char \(PythonRepr.string(String(c))) at \(pos)", at: pos)
            }
        }
    }

    /// End of the closing delimiter at `pos`, if there: `+%}`, `-%}` + whitespace, `%}` + one
    /// newline (trim_blocks) for blocks; `-}}` + whitespace, `}}` for variables.
    private func tagEnd(_ closing: Token.Kind) -> Int? {
        if closing == .blockEnd {
            if matches("+%}", at: pos) { return pos + 3 }
            if matches("-%}", at: pos) { return skipSpace(from: pos + 3) }
            if matches("%}", at: pos) { return pos + 2 + (at(pos + 2) == "\n" ? 1 : 0) }
        } else {
            if matches("-}}", at: pos) { return skipSpace(from: pos + 3) }
            if matches("}}", at: pos) { return pos + 2 }
        }
        return nil
    }

    private static func isDigit(_ s: Unicode.Scalar?) -> Bool {
        guard let s else { return false }
        return s.value >= 0x30 && s.value <= 0x39
    }

    /// End of `(\d+_)*\d+` at `i`.
    private func digitsEnd(at i: Int) -> Int? {
        guard Self.isDigit(at(i)) else { return nil }
        var j = i
        while true {
            while Self.isDigit(at(j)) { j += 1 }
            if at(j) == "_", Self.isDigit(at(j + 1)) { j += 1 } else { return j }
        }
    }

    /// End of jinja2's float literal at `i`: digits with a fraction, an exponent, or both.
    private func floatEnd(at i: Int) -> Int? {
        if i > 0, src[i - 1] == "." { return nil }
        guard let d = digitsEnd(at: i) else { return nil }
        func exponent(_ k: Int) -> Int? {
            guard let e = at(k), e == "e" || e == "E" else { return nil }
            var m = k + 1
            if let s = at(m), s == "+" || s == "-" { m += 1 }
            return digitsEnd(at: m)
        }
        if at(d) == ".", let f = digitsEnd(at: d + 1) { return exponent(f) ?? f }
        return exponent(d)
    }

    /// jinja2's integer literal at `i` (binary, octal, hex, decimal, `_` separators) and its value.
    private func integer(at i: Int) throws(JinjaError) -> (Int, Int)? {
        guard Self.isDigit(at(i)) else { return nil }
        func run(from k: Int, _ ok: (Unicode.Scalar) -> Bool) -> Int? {
            var j = k
            var any = false
            while true {
                if let s = at(j), ok(s) { j += 1; any = true; continue }
                if at(j) == "_", let s = at(j + 1), ok(s) { j += 2; any = true; continue }
                break
            }
            return any ? j : nil
        }
        var end: Int?
        var radix = 10
        var digitsStart = i
        if src[i] == "0", let p = at(i + 1) {
            let prefix: (Int, (Unicode.Scalar) -> Bool)? = switch p {
            case "b", "B": (2, { $0 == "0" || $0 == "1" })
            case "o", "O": (8, { $0.value >= 0x30 && $0.value <= 0x37 })
            case "x", "X": (16, { $0.properties.isASCIIHexDigit })
            default: nil
            }
            if let (r, ok) = prefix, let e = run(from: i + 2, ok) { end = e; radix = r; digitsStart = i + 2 }
        }
        if end == nil {
            if src[i] == "0" {
                var j = i + 1
                while true {
                    if at(j) == "0" { j += 1 } else if at(j) == "_", at(j + 1) == "0" { j += 2 } else { break }
                }
                end = j
            } else {
                end = run(from: i, { Self.isDigit($0) })
            }
        }
        guard let end else { return nil }
        let digits = text(digitsStart..<end).filter { $0 != "_" }
        guard let value = Int(digits, radix: radix) else {
            throw .unsupported(construct: "integer literal beyond 64 bits", at: location(i))
        }
        return (end, value)
    }

    /// End (after the closing quote) of a string literal at `i`; backslash escapes any character.
    private func stringEnd(at i: Int) -> Int? {
        let quote = src[i]
        var j = i + 1
        while j < src.count {
            if src[j] == "\\" { j += 2; continue }
            if src[j] == quote { return j + 1 }
            j += 1
        }
        return nil
    }

    private func operatorAt(_ i: Int) -> (Token.Op, Int)? {
        let next = at(i + 1)
        switch src[i] {
        case "/": return next == "/" ? (.floordiv, i + 2) : (.div, i + 1)
        case "*": return next == "*" ? (.pow, i + 2) : (.mul, i + 1)
        case "=": return next == "=" ? (.eq, i + 2) : (.assign, i + 1)
        case "!": return next == "=" ? (.ne, i + 2) : nil
        case ">": return next == "=" ? (.gteq, i + 2) : (.gt, i + 1)
        case "<": return next == "=" ? (.lteq, i + 2) : (.lt, i + 1)
        case "+": return (.add, i + 1)
        case "-": return (.sub, i + 1)
        case "%": return (.mod, i + 1)
        case "~": return (.tilde, i + 1)
        case "[": return (.lbracket, i + 1)
        case "]": return (.rbracket, i + 1)
        case "(": return (.lparen, i + 1)
        case ")": return (.rparen, i + 1)
        case "{": return (.lbrace, i + 1)
        case "}": return (.rbrace, i + 1)
        case ".": return (.dot, i + 1)
        case ":": return (.colon, i + 1)
        case "|": return (.pipe, i + 1)
        case ",": return (.comma, i + 1)
        case ";": return (.semicolon, i + 1)
        default: return nil
        }
    }

    /// Characters of a name: Python's `\w` (ASCII checked without Unicode tables).
    private static func isNameCharacter(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value
            return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39) || v == 0x5F
        }
        return PythonUnicode.isWord(s) || s.properties.isXIDContinue
    }
}
