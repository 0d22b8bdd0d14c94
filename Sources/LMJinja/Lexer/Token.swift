/// A lexical token of a template, as jinja2's lexer produces them (comments, whitespace inside
/// tags and the `raw` markers are dropped).
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        /// Template text between tags (already trimmed by `-`, `trim_blocks`, `lstrip_blocks`).
        case data(String)
        case variableBegin, variableEnd, blockBegin, blockEnd
        case name(String)
        case string(String)
        case integer(Int)
        case float(Double)
        case op(Op)
        case eof
    }

    /// Operators and punctuation inside tags.
    enum Op: String, Sendable, Equatable {
        case add = "+", sub = "-", div = "/", floordiv = "//", mul = "*", mod = "%", pow = "**"
        case tilde = "~", lbracket = "[", rbracket = "]", lparen = "(", rparen = ")", lbrace = "{", rbrace = "}"
        case eq = "==", ne = "!=", gt = ">", gteq = ">=", lt = "<", lteq = "<="
        case assign = "=", dot = ".", colon = ":", pipe = "|", comma = ",", semicolon = ";"
    }

    var kind: Kind
    var location: JinjaSourceLocation

    /// The token as jinja2 names it in messages (`'end of statement block'`, a name's text...).
    var description: String {
        switch kind {
        case .data: "template data / text"
        case .variableBegin: "begin of print statement"
        case .variableEnd: "end of print statement"
        case .blockBegin: "begin of statement block"
        case .blockEnd: "end of statement block"
        case let .name(n): n
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case let .op(o): o.rawValue
        case .eof: "end of template"
        }
    }

    func isName(_ n: String) -> Bool {
        if case let .name(x) = kind { return x == n }
        return false
    }

    func isOp(_ o: Op) -> Bool { kind == .op(o) }
}
