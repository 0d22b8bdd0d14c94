/// Expressions, from lowest to highest precedence as in jinja2: conditional `a if b else c`,
/// `or`, `and`, `not`, comparisons (`==`, `in`, `not in`...), `+`/`-`, `~`, `*`/`/`/`//`/`%`,
/// `**`, unary `-`/`+`, then primaries with `.attr`, `[index]`, calls, `|filter` and `is test`.
extension Parser {
    mutating func parseExpression(withCondexpr: Bool = true) throws(JinjaError) -> Expr {
        withCondexpr ? try parseCondexpr() : try parseOr()
    }

    mutating func parseCondexpr() throws(JinjaError) -> Expr {
        try enter()
        defer { depth -= 1 }
        var expr = try parseOr()
        let chainStart = chain
        defer { chain = chainStart }
        while skipName("if") {
            try extendChain()
            let test = try parseOr()
            let otherwise = skipName("else") ? try parseCondexpr() : nil
            expr = Expr(kind: .conditional(test: test, then: expr, otherwise: otherwise), location: expr.location)
        }
        return expr
    }

    mutating func parseOr() throws(JinjaError) -> Expr {
        var left = try parseAnd()
        let chainStart = chain
        defer { chain = chainStart }
        while skipName("or") {
            try extendChain()
            left = Expr(kind: .or(left, try parseAnd()), location: left.location)
        }
        return left
    }

    mutating func parseAnd() throws(JinjaError) -> Expr {
        var left = try parseNot()
        let chainStart = chain
        defer { chain = chainStart }
        while skipName("and") {
            try extendChain()
            left = Expr(kind: .and(left, try parseNot()), location: left.location)
        }
        return left
    }

    mutating func parseNot() throws(JinjaError) -> Expr {
        guard current.isName("not") else { return try parseCompare() }
        let at = advance().location
        try enter()
        defer { depth -= 1 }
        return Expr(kind: .not(try parseNot()), location: at)
    }

    mutating func parseCompare() throws(JinjaError) -> Expr {
        let expr = try parseMath1()
        var ops: [(op: CompareOp, operand: Expr)] = []
        while true {
            let op: CompareOp? = switch current.kind {
            case .op(.eq): .eq
            case .op(.ne): .ne
            case .op(.lt): .lt
            case .op(.lteq): .lteq
            case .op(.gt): .gt
            case .op(.gteq): .gteq
            default: nil
            }
            if let op {
                advance()
                ops.append((op, try parseMath1()))
            } else if skipName("in") {
                ops.append((.isIn, try parseMath1()))
            } else if current.isName("not"), next.isName("in") {
                advance(); advance()
                ops.append((.notIn, try parseMath1()))
            } else {
                break
            }
        }
        return ops.isEmpty ? expr : Expr(kind: .compare(expr, ops), location: expr.location)
    }

    mutating func parseMath1() throws(JinjaError) -> Expr {
        var left = try parseConcat()
        let chainStart = chain
        defer { chain = chainStart }
        while true {
            let op: BinaryOp
            if current.isOp(.add) { op = .add } else if current.isOp(.sub) { op = .sub } else { break }
            advance()
            try extendChain()
            left = Expr(kind: .binary(op, left, try parseConcat()), location: left.location)
        }
        return left
    }

    mutating func parseConcat() throws(JinjaError) -> Expr {
        var args = [try parseMath2()]
        while skipOp(.tilde) { args.append(try parseMath2()) }
        return args.count == 1 ? args[0] : Expr(kind: .concat(args), location: args[0].location)
    }

    mutating func parseMath2() throws(JinjaError) -> Expr {
        var left = try parsePow()
        let chainStart = chain
        defer { chain = chainStart }
        while true {
            let op: BinaryOp
            switch current.kind {
            case .op(.mul): op = .mul
            case .op(.div): op = .div
            case .op(.floordiv): op = .floordiv
            case .op(.mod): op = .mod
            default: return left
            }
            advance()
            try extendChain()
            left = Expr(kind: .binary(op, left, try parsePow()), location: left.location)
        }
    }

    mutating func parsePow() throws(JinjaError) -> Expr {
        var left = try parseUnary()
        let chainStart = chain
        defer { chain = chainStart }
        while skipOp(.pow) {
            try extendChain()
            left = Expr(kind: .binary(.pow, left, try parseUnary()), location: left.location)
        }
        return left
    }

    mutating func parseUnary(withFilter: Bool = true) throws(JinjaError) -> Expr {
        try enter()
        defer { depth -= 1 }
        let at = current.location
        var node: Expr
        if skipOp(.sub) {
            node = Expr(kind: .negate(try parseUnary(withFilter: false)), location: at)
        } else if skipOp(.add) {
            node = Expr(kind: .plus(try parseUnary(withFilter: false)), location: at)
        } else {
            node = try parsePrimary()
        }
        node = try parsePostfix(node)
        if withFilter { node = try parseFilterExpr(node) }
        return node
    }

    mutating func parsePrimary(withNamespace: Bool = false) throws(JinjaError) -> Expr {
        let token = current
        let at = token.location
        switch token.kind {
        case let .name(n):
            advance()
            switch n {
            case "true", "True": return Expr(kind: .bool(true), location: at)
            case "false", "False": return Expr(kind: .bool(false), location: at)
            case "none", "None": return Expr(kind: .none, location: at)
            default:
                if withNamespace, current.isOp(.dot) {
                    advance()
                    let attribute = try expectName()
                    return Expr(kind: .getattr(Expr(kind: .name(n), location: at), attribute), location: at)
                }
                return Expr(kind: .name(n), location: at)
            }
        case let .string(s):
            advance()
            var text = s
            while case let .string(more) = current.kind { text += more; advance() }
            return Expr(kind: .string(text), location: at)
        case let .integer(i):
            advance()
            return Expr(kind: .integer(i), location: at)
        case let .float(d):
            advance()
            return Expr(kind: .float(d), location: at)
        case .op(.lparen):
            advance()
            let expr = try parseTuple(explicitParentheses: true)
            try expect(.rparen)
            return expr
        case .op(.lbracket):
            advance()
            var items: [Expr] = []
            while !current.isOp(.rbracket) {
                if !items.isEmpty { try expect(.comma) }
                if current.isOp(.rbracket) { break }
                items.append(try parseExpression())
            }
            try expect(.rbracket)
            return Expr(kind: .list(items), location: at)
        case .op(.lbrace):
            advance()
            var pairs: [(key: Expr, value: Expr)] = []
            while !current.isOp(.rbrace) {
                if !pairs.isEmpty { try expect(.comma) }
                if current.isOp(.rbrace) { break }
                let key = try parseExpression()
                try expect(.colon)
                pairs.append((key, try parseExpression()))
            }
            try expect(.rbrace)
            return Expr(kind: .dict(pairs), location: at)
        default:
            throw fail("unexpected '\(token.description)'")
        }
    }

    func isTupleEnd(_ extraEndRules: [String]) -> Bool {
        switch current.kind {
        case .variableEnd, .blockEnd, .op(.rparen): return true
        case let .name(n): return extraEndRules.contains(n)
        default: return false
        }
    }

    /// Expressions separated by commas: a tuple when there is a comma, else the one expression.
    /// `simplified` parses only primaries (assignment targets).
    mutating func parseTuple(simplified: Bool = false, withCondexpr: Bool = true, extraEndRules: [String] = [],
                             explicitParentheses: Bool = false, withNamespace: Bool = false) throws(JinjaError) -> Expr {
        let at = current.location
        var args: [Expr] = []
        var isTuple = false
        while true {
            if !args.isEmpty { try expect(.comma) }
            if isTupleEnd(extraEndRules) { break }
            args.append(simplified ? try parsePrimary(withNamespace: withNamespace) : try parseExpression(withCondexpr: withCondexpr))
            if current.isOp(.comma) { isTuple = true } else { break }
        }
        if !isTuple {
            if let only = args.first { return only }
            if !explicitParentheses { throw fail("Expected an expression, got '\(current.description)'") }
        }
        return Expr(kind: .tuple(args), location: at)
    }

    mutating func parsePostfix(_ start: Expr) throws(JinjaError) -> Expr {
        var node = start
        let chainStart = chain
        defer { chain = chainStart }
        while true {
            try extendChain()
            if current.isOp(.dot) || current.isOp(.lbracket) {
                node = try parseSubscript(node)
            } else if current.isOp(.lparen) {
                node = try parseCall(node)
            } else {
                return node
            }
        }
    }

    mutating func parseFilterExpr(_ start: Expr) throws(JinjaError) -> Expr {
        var node = start
        let chainStart = chain
        defer { chain = chainStart }
        while true {
            try extendChain()
            if current.isOp(.pipe) {
                node = try parseFilter(node) ?? node
            } else if current.isName("is") {
                node = try parseTest(node)
            } else if current.isOp(.lparen) {
                node = try parseCall(node)
            } else {
                return node
            }
        }
    }

    mutating func parseSubscript(_ node: Expr) throws(JinjaError) -> Expr {
        let token = advance()
        if token.isOp(.dot) {
            let attribute = current
            advance()
            switch attribute.kind {
            case let .name(n): return Expr(kind: .getattr(node, n), location: token.location)
            case let .integer(i):
                return Expr(kind: .getitem(node, Expr(kind: .integer(i), location: attribute.location)), location: token.location)
            default: throw fail("expected name or number", at: attribute)
            }
        }
        var args: [Expr] = []
        while !current.isOp(.rbracket) {
            if !args.isEmpty { try expect(.comma) }
            args.append(try parseSubscribed())
        }
        try expect(.rbracket)
        let arg = args.count == 1 ? args[0] : Expr(kind: .tuple(args), location: token.location)
        return Expr(kind: .getitem(node, arg), location: token.location)
    }

    mutating func parseSubscribed() throws(JinjaError) -> Expr {
        let at = current.location
        var start: Expr?
        if current.isOp(.colon) {
            advance()
        } else {
            let expr = try parseExpression()
            guard current.isOp(.colon) else { return expr }
            advance()
            start = expr
        }
        var stop: Expr?
        if !current.isOp(.colon), !current.isOp(.rbracket), !current.isOp(.comma) { stop = try parseExpression() }
        var step: Expr?
        if skipOp(.colon), !current.isOp(.rbracket), !current.isOp(.comma) { step = try parseExpression() }
        return Expr(kind: .slice(start: start, stop: stop, step: step), location: at)
    }

    mutating func parseCallArguments() throws(JinjaError) -> Arguments {
        let open = try expect(.lparen)
        var args = Arguments()
        var requireComma = false
        func ensure(_ ok: Bool) throws(JinjaError) {
            if !ok { throw fail("invalid syntax for function call expression", at: open) }
        }
        while !current.isOp(.rparen) {
            if requireComma {
                try expect(.comma)
                if current.isOp(.rparen) { break }
            }
            if skipOp(.mul) {
                try ensure(args.star == nil && args.doubleStar == nil)
                args.star = try parseExpression()
            } else if skipOp(.pow) {
                try ensure(args.doubleStar == nil)
                args.doubleStar = try parseExpression()
            } else if case let .name(n) = current.kind, next.isOp(.assign) {
                try ensure(args.doubleStar == nil)
                advance(); advance()
                args.keyword.append((n, try parseExpression()))
            } else {
                try ensure(args.star == nil && args.doubleStar == nil && args.keyword.isEmpty)
                args.positional.append(try parseExpression())
            }
            requireComma = true
        }
        try expect(.rparen)
        return args
    }

    mutating func parseCall(_ callee: Expr) throws(JinjaError) -> Expr {
        let at = current.location
        return Expr(kind: .call(callee, try parseCallArguments()), location: at)
    }

    /// `| name(args) | ...` applied to `node`; with `startInline` the first `|` is implied
    /// (filter blocks). Nil when there is no filter and no node.
    mutating func parseFilter(_ start: Expr?, startInline: Bool = false) throws(JinjaError) -> Expr? {
        var node = start
        var inline = startInline
        let chainStart = chain
        defer { chain = chainStart }
        while current.isOp(.pipe) || inline {
            try extendChain()
            if !inline { advance() }
            let at = current.location
            var name = try expectName()
            while skipOp(.dot) { name += "." + (try expectName()) }
            let args = current.isOp(.lparen) ? try parseCallArguments() : .none
            node = Expr(kind: .filter(node, name: name, args), location: at)
            inline = false
        }
        return node
    }

    mutating func parseTest(_ node: Expr) throws(JinjaError) -> Expr {
        let token = advance()
        let negated = skipName("not")
        var name = try expectName()
        while skipOp(.dot) { name += "." + (try expectName()) }
        var args = Arguments.none
        switch current.kind {
        case .op(.lparen):
            args = try parseCallArguments()
        case .name, .string, .integer, .float, .op(.lbracket), .op(.lbrace):
            if current.isName("else") || current.isName("or") || current.isName("and") { break }
            if current.isName("is") { throw fail("You cannot chain multiple tests with is") }
            let arg = try parsePostfix(try parsePrimary())
            args.positional = [arg]
        default:
            break
        }
        let test = Expr(kind: .test(node, name: name, args), location: token.location)
        return negated ? Expr(kind: .not(test), location: token.location) : test
    }
}

extension Expr.Kind {
    /// jinja2's node class name, lowercased, for "can't assign to ..." messages.
    var nodeName: String {
        switch self {
        case .string, .integer, .float, .bool, .none: "const"
        case .name: "name"
        case .list: "list"
        case .tuple: "tuple"
        case .dict: "dict"
        case .getattr: "getattr"
        case .getitem: "getitem"
        case .slice: "slice"
        case .call: "call"
        case .filter: "filter"
        case .test: "test"
        case .not: "not"
        case .negate: "neg"
        case .plus: "pos"
        case .binary: "binexpr"
        case .and: "and"
        case .or: "or"
        case .concat: "concat"
        case .compare: "compare"
        case .conditional: "condexpr"
        }
    }
}
