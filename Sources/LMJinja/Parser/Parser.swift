/// Builds statements from tokens with jinja2 3.1's grammar (jinja2/parser.py): the statement tags
/// `if`/`elif`/`else`, `for` (with a loop filter and `else`), `set` (also block and namespace-attribute
/// forms), `macro`, `call`, `filter`, `with`, `print`, `break`/`continue` (the loopcontrols extension
/// Hugging Face enables) and `generation` (Hugging Face's tag that renders its body).
///
/// Tags that load other templates or need features chat templates never use (`include`, `import`,
/// `from`, `extends`, `block`, `autoescape`, recursive loops) are ``JinjaError/unsupported(construct:at:)``.
struct Parser {
    var tokens: [Token]
    var index = 0
    let maxNesting: Int
    var depth = 0
    /// Links of operator chains along the current parse path (``extendChain()``).
    var chain = 0
    /// Whether `break`/`continue` are inside a loop body of the current macro (a macro or call
    /// body is a function in jinja2, so a loop outside it does not count).
    var insideLoop = false
    /// End tags being looked for, innermost last (for error messages).
    var endTagStack: [[String]] = []

    static func parse(_ tokens: [Token], maxNesting: Int) throws(JinjaError) -> [Stmt] {
        var parser = Parser(tokens: tokens, maxNesting: maxNesting)
        return try parser.subparse(endTags: nil)
    }

    init(tokens: [Token], maxNesting: Int) {
        self.tokens = tokens
        self.maxNesting = maxNesting
    }

    // MARK: - Token stream

    var current: Token { tokens[index] }
    var next: Token { tokens[min(index + 1, tokens.count - 1)] }

    @discardableResult
    mutating func advance() -> Token {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    func fail(_ message: String, at token: Token? = nil) -> JinjaError {
        .syntax(message: message, at: (token ?? current).location)
    }

    func unexpected(expected: String) -> JinjaError {
        if current.kind == .eof { return fail("unexpected end of template, expected '\(expected)'.") }
        return fail("expected token '\(expected)', got '\(current.description)'")
    }

    @discardableResult
    mutating func expect(_ op: Token.Op) throws(JinjaError) -> Token {
        guard current.isOp(op) else { throw unexpected(expected: op.rawValue) }
        return advance()
    }

    mutating func expect(_ kind: Token.Kind, _ name: String) throws(JinjaError) {
        guard current.kind == kind else { throw unexpected(expected: name) }
        advance()
    }

    mutating func expectName(_ name: String) throws(JinjaError) {
        guard current.isName(name) else { throw unexpected(expected: name) }
        advance()
    }

    mutating func expectName() throws(JinjaError) -> String {
        guard case let .name(n) = current.kind else { throw unexpected(expected: "name") }
        advance()
        return n
    }

    mutating func skipName(_ name: String) -> Bool {
        guard current.isName(name) else { return false }
        advance()
        return true
    }

    mutating func skipOp(_ op: Token.Op) -> Bool {
        guard current.isOp(op) else { return false }
        advance()
        return true
    }

    /// Counts one level of statement or expression nesting; the recursion is bounded by it.
    mutating func enter() throws(JinjaError) {
        depth += 1
        if depth > maxNesting { throw .limitExceeded(.nesting, at: current.location) }
    }

    /// Counts one operator, filter, test, call or subscript applied to the expression built so far, which makes a
    /// left-deep tree one level taller without recursing here. The renderer evaluates (and Swift releases) trees
    /// recursively, so a long chain (`1+1+…+1`, `x|upper|upper…`) must be bounded like nesting: at most 16 links
    /// per level of nesting along any path, far past any real chat template.
    mutating func extendChain() throws(JinjaError) {
        chain += 1
        if chain > maxNesting * 16 { throw .limitExceeded(.nesting, at: current.location) }
    }

    // MARK: - Statement lists

    mutating func subparse(endTags: [String]?) throws(JinjaError) -> [Stmt] {
        var body: [Stmt] = []
        if let endTags { endTagStack.append(endTags) }
        defer { if endTags != nil { endTagStack.removeLast() } }
        while current.kind != .eof {
            let token = current
            switch token.kind {
            case let .data(text):
                body.append(Stmt(kind: .text(text), location: token.location))
                advance()
            case .variableBegin:
                advance()
                let expr = try parseTuple(withCondexpr: true)
                try expect(.variableEnd, "end of print statement")
                body.append(Stmt(kind: .output(expr), location: token.location))
            case .blockBegin:
                advance()
                if let endTags, case let .name(n) = current.kind, endTags.contains(n) { return body }
                body += try parseStatement()
                try expect(.blockEnd, "end of statement block")
            default:
                throw fail("unexpected '\(token.description)'")
            }
        }
        return body
    }

    /// Body of a block statement up to one of `endTags`; the current token is left on the end tag
    /// unless `dropEndTag`.
    mutating func parseStatements(until endTags: [String], dropEndTag: Bool = false) throws(JinjaError) -> [Stmt] {
        _ = skipOp(.colon)
        try expect(.blockEnd, "end of statement block")
        let body = try subparse(endTags: endTags)
        if current.kind == .eof { throw endOfTemplate(lookingFor: endTags) }
        if dropEndTag { advance() }
        return body
    }

    func endOfTemplate(lookingFor endTags: [String]) -> JinjaError {
        let tags = endTags.map { "'\($0)'" }.joined(separator: " or ")
        return fail("Unexpected end of template. Jinja was looking for the following tags: \(tags).")
    }

    // MARK: - Statements

    mutating func parseStatement() throws(JinjaError) -> [Stmt] {
        try enter()
        defer { depth -= 1 }
        let token = current
        guard case let .name(tag) = token.kind else { throw fail("tag name expected") }
        let at = token.location
        switch tag {
        case "if": return [try parseIf()]
        case "for": return [try parseFor()]
        case "set": return [try parseSet()]
        case "macro": return [try parseMacro()]
        case "call": return [try parseCallBlock()]
        case "filter": return [try parseFilterBlock()]
        case "with": return [try parseWith()]
        case "print":
            advance()
            var out: [Stmt] = []
            while current.kind != .blockEnd {
                if !out.isEmpty { try expect(.comma) }
                let expr = try parseExpression()
                out.append(Stmt(kind: .output(expr), location: expr.location))
            }
            return out
        case "break", "continue":
            advance()
            guard insideLoop else { throw fail("'\(tag)' outside loop", at: token) }
            return [Stmt(kind: tag == "break" ? .breakLoop : .continueLoop, location: at)]
        case "generation":
            advance()
            let saved = insideLoop
            insideLoop = false
            defer { insideLoop = saved }
            return [Stmt(kind: .generation(try parseStatements(until: ["endgeneration"], dropEndTag: true)), location: at)]
        case "include", "import", "from", "extends", "block", "autoescape":
            throw .unsupported(construct: "'\(tag)' tag", at: at)
        default:
            if endTagStack.contains(where: { $0.contains(tag) }) {
                let looking = (endTagStack.last ?? []).map { "'\($0)'" }.joined(separator: " or ")
                throw fail("Encountered unknown tag '\(tag)'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for \(looking).")
            }
            throw fail("Encountered unknown tag '\(tag)'.")
        }
    }

    mutating func parseIf() throws(JinjaError) -> Stmt {
        let at = advance().location
        var branches: [(test: Expr, body: [Stmt])] = []
        var otherwise: [Stmt] = []
        while true {
            let test = try parseTuple(withCondexpr: false)
            let body = try parseStatements(until: ["elif", "else", "endif"])
            branches.append((test, body))
            let token = advance()
            if token.isName("elif") { continue }
            if token.isName("else") { otherwise = try parseStatements(until: ["endif"], dropEndTag: true) }
            break
        }
        return Stmt(kind: .ifChain(branches: branches, otherwise: otherwise), location: at)
    }

    mutating func parseFor() throws(JinjaError) -> Stmt {
        let at = advance().location
        let target = try parseAssignTarget(extraEndRules: ["in"])
        if target.names.contains("loop") { throw fail("Can't assign to special loop variable in for-loop target") }
        try expectName("in")
        let iterable = try parseTuple(withCondexpr: false, extraEndRules: ["recursive"])
        var filter: Expr?
        if skipName("if") { filter = try parseExpression() }
        if current.isName("recursive") { throw .unsupported(construct: "recursive for loop", at: current.location) }
        let saved = insideLoop
        insideLoop = true
        let body = try parseStatements(until: ["endfor", "else"])
        insideLoop = saved
        var otherwise: [Stmt] = []
        if !advance().isName("endfor") {
            otherwise = try parseStatements(until: ["endfor"], dropEndTag: true)
        }
        let loop = ForLoop(target: target, iterable: iterable, filter: filter, body: body, otherwise: otherwise)
        return Stmt(kind: .forLoop(loop), location: at)
    }

    mutating func parseSet() throws(JinjaError) -> Stmt {
        let at = advance().location
        let target = try parseAssignTarget(withNamespace: true)
        if skipOp(.assign) {
            return Stmt(kind: .set(target, try parseTuple()), location: at)
        }
        let filter = try parseFilter(nil)
        let body = try parseStatements(until: ["endset"], dropEndTag: true)
        return Stmt(kind: .setBlock(target, filter: filter, body: body), location: at)
    }

    mutating func parseMacro() throws(JinjaError) -> Stmt {
        let at = advance().location
        let name = try expectName()
        let parameters = try parseSignature()
        let body = try parseFunctionBody(until: "endmacro")
        return Stmt(kind: .macro(MacroDefinition(name: name, parameters: parameters, body: body)), location: at)
    }

    mutating func parseCallBlock() throws(JinjaError) -> Stmt {
        let at = advance().location
        let parameters = current.isOp(.lparen) ? try parseSignature() : []
        let call = try parseExpression()
        guard case .call = call.kind else { throw fail("expected call") }
        let body = try parseFunctionBody(until: "endcall")
        let caller = MacroDefinition(name: "caller", parameters: parameters, body: body)
        return Stmt(kind: .callBlock(caller: caller, call: call), location: at)
    }

    /// A macro or caller body: its own function in jinja2, so enclosing loops do not count.
    mutating func parseFunctionBody(until endTag: String) throws(JinjaError) -> [Stmt] {
        let saved = insideLoop
        insideLoop = false
        defer { insideLoop = saved }
        return try parseStatements(until: [endTag], dropEndTag: true)
    }

    mutating func parseFilterBlock() throws(JinjaError) -> Stmt {
        let at = advance().location
        guard let filter = try parseFilter(nil, startInline: true) else { throw fail("expected a filter") }
        let body = try parseStatements(until: ["endfilter"], dropEndTag: true)
        return Stmt(kind: .filterBlock(filter: filter, body: body), location: at)
    }

    mutating func parseWith() throws(JinjaError) -> Stmt {
        let at = advance().location
        var assignments: [(target: Target, value: Expr)] = []
        while current.kind != .blockEnd {
            if !assignments.isEmpty { try expect(.comma) }
            let target = try parseAssignTarget()
            try expect(.assign)
            assignments.append((target, try parseExpression()))
        }
        let body = try parseStatements(until: ["endwith"], dropEndTag: true)
        return Stmt(kind: .with(assignments: assignments, body: body), location: at)
    }

    mutating func parseSignature() throws(JinjaError) -> [(name: String, defaultValue: Expr?)] {
        var parameters: [(name: String, defaultValue: Expr?)] = []
        try expect(.lparen)
        while !current.isOp(.rparen) {
            if !parameters.isEmpty { try expect(.comma) }
            let name = try expectName()
            if skipOp(.assign) {
                parameters.append((name, try parseExpression()))
            } else {
                if parameters.contains(where: { $0.defaultValue != nil }) {
                    throw fail("non-default argument follows default argument")
                }
                parameters.append((name, nil))
            }
        }
        try expect(.rparen)
        return parameters
    }

    /// A `set`/`for`/`with` target: a name, `ns.attr` (when `withNamespace`), or a tuple of them.
    mutating func parseAssignTarget(extraEndRules: [String] = [], withNamespace: Bool = false) throws(JinjaError) -> Target {
        let start = current
        let expr = try parseTuple(simplified: true, extraEndRules: extraEndRules, withNamespace: withNamespace)
        func target(_ e: Expr) throws(JinjaError) -> Target {
            switch e.kind {
            case let .name(n): return .name(n)
            case let .getattr(base, attribute):
                if case let .name(ns) = base.kind, withNamespace { return .attribute(namespace: ns, attribute: attribute) }
            case let .tuple(items):
                var out: [Target] = []
                for item in items { out.append(try target(item)) }
                return .tuple(out)
            default: break
            }
            throw fail("can't assign to '\(e.kind.nodeName)'", at: start)
        }
        return try target(expr)
    }
}

extension Target {
    /// Every name this target binds.
    var names: [String] {
        switch self {
        case let .name(n): [n]
        case .attribute: []
        case let .tuple(items): items.flatMap(\.names)
        }
    }
}

extension MacroDefinition {
    init(name: String, parameters: [(name: String, defaultValue: Expr?)], body: [Stmt]) {
        let read = NameReads(body)
        self.init(name: name, parameters: parameters, body: body,
                  readsCaller: read.contains("caller"), readsKwargs: read.contains("kwargs"), readsVarargs: read.contains("varargs"))
    }
}
