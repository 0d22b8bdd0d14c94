/// markupsafe's `escape`: `&`, `<`, `>`, `'`, `"` become `&amp;`, `&lt;`, `&gt;`, `&#39;`, `&#34;`;
/// the result is `Markup`. Text already `Markup` is returned unchanged. Each piece is escaped on
/// its own, so origins carry over piecewise.
enum HTML {
    static func escape(_ t: Text) -> Text {
        t.isMarkup ? t : force(t)
    }

    /// Escapes even `Markup` (jinja2's `forceescape`).
    static func force(_ t: Text) -> Text {
        var result = Text.empty
        for segment in t.segments { result.append(escapeString(segment.text), origin: segment.origin) }
        return result.markup(true)
    }

    static func escapeString(_ s: String) -> String {
        guard s.utf8.contains(where: { [0x26, 0x3C, 0x3E, 0x27, 0x22].contains($0) }) else { return s }
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            case "\"": out += "&#34;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
