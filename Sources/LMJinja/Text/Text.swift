/// A string value inside the renderer, with the provenance of every byte (see ``JinjaOrigin``)
/// and jinja2's `Markup` flag (a string marked safe by `|safe` or `|escape`, whose `+`, `%`,
/// `join` and `format` HTML-escape their plain-string operands).
///
/// Provenance follows the characters: concatenation, slicing, `strip`, `split`, `join`,
/// `replace` and `format` keep each piece's origin; a transformation that rewrites characters
/// (`upper`, `title`, HTML escaping...) keeps the origin when the input has one origin and marks
/// the result data when it mixes both (the conservative choice).
struct Text: Sendable {
    private(set) var string: String
    /// Consecutive runs covering `string.utf8`; no empty runs, neighbours differ in origin.
    private(set) var runs: [Run]
    var isMarkup = false

    struct Run: Sendable, Equatable {
        var length: Int
        var origin: JinjaOrigin
    }

    init(_ string: String, origin: JinjaOrigin, markup: Bool = false) {
        self.string = string
        let n = string.utf8.count
        runs = n == 0 ? [] : [Run(length: n, origin: origin)]
        isMarkup = markup
    }

    static let empty = Text("", origin: .template)
    static func template(_ s: String) -> Text { Text(s, origin: .template) }

    var isEmpty: Bool { runs.isEmpty }
    var utf8Count: Int { string.utf8.count }
    var containsData: Bool { runs.contains { $0.origin == .data } }

    /// The one origin of all bytes (template for an empty string), or data when they mix.
    var dominantOrigin: JinjaOrigin { containsData ? .data : .template }

    mutating func append(_ other: Text) {
        string += other.string
        for run in other.runs { appendRun(run) }
    }

    mutating func append(_ s: String, origin: JinjaOrigin) {
        guard !s.isEmpty else { return }
        string += s
        appendRun(Run(length: s.utf8.count, origin: origin))
    }

    private mutating func appendRun(_ run: Run) {
        if let last = runs.last, last.origin == run.origin {
            runs[runs.count - 1].length += run.length
        } else {
            runs.append(run)
        }
    }

    static func + (a: Text, b: Text) -> Text {
        var r = a
        r.append(b)
        return r
    }

    /// The bytes in `range` (UTF-8 offsets on scalar boundaries) with their origins; not markup.
    func slice(utf8 range: Range<Int>) -> Text {
        var out = Text.empty
        guard !range.isEmpty else { return out }
        let u = string.utf8
        let a = u.index(u.startIndex, offsetBy: range.lowerBound)
        let b = u.index(u.startIndex, offsetBy: range.upperBound)
        out.string = String(decoding: u[a..<b], as: UTF8.self)
        var offset = 0
        for run in runs {
            let lo = max(offset, range.lowerBound), hi = min(offset + run.length, range.upperBound)
            if lo < hi { out.appendRun(Run(length: hi - lo, origin: run.origin)) }
            offset += run.length
            if offset >= range.upperBound { break }
        }
        return out
    }

    /// A rewritten string (case change, escaping...): one origin kept, mixed origins become data.
    func rewritten(_ s: String) -> Text {
        Text(s, origin: dominantOrigin, markup: isMarkup)
    }

    /// This text with the markup flag set or cleared.
    func markup(_ flag: Bool) -> Text {
        var r = self
        r.isMarkup = flag
        return r
    }

    /// The segments handed to callers: the string cut at origin changes.
    var segments: [JinjaSegment] {
        var out: [JinjaSegment] = []
        let u = string.utf8
        var start = u.startIndex
        for run in runs {
            let end = u.index(start, offsetBy: run.length)
            out.append(JinjaSegment(text: String(decoding: u[start..<end], as: UTF8.self), origin: run.origin))
            start = end
        }
        return out
    }
}

// MARK: - Scalars

extension Text {
    /// The Unicode scalars (Python's characters).
    var scalars: [Unicode.Scalar] { Array(string.unicodeScalars) }

    /// Number of scalars (Python's `len`).
    var scalarCount: Int { string.unicodeScalars.count }

    /// UTF-8 offset of each scalar index, plus the total at the end: `[0, ..., utf8Count]`.
    func utf8Offsets() -> [Int] {
        var offsets: [Int] = [0]
        offsets.reserveCapacity(string.utf8.count + 1)
        var o = 0
        for s in string.unicodeScalars {
            o += UTF8.width(s)
            offsets.append(o)
        }
        return offsets
    }

    /// The scalars `range` (scalar indices) with their origins.
    func slice(scalars range: Range<Int>, offsets: [Int]) -> Text {
        slice(utf8: offsets[range.lowerBound]..<offsets[range.upperBound])
    }
}
