#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// jinja2's collection and number filters. Those that are generators in jinja2 (`select`,
/// `reject`, `selectattr`, `rejectattr`, `map`, `items`, `unique`, `batch`, `slice`, `reverse`)
/// return a lazy one-shot ``ItemIterator``, so `|length` on them fails as in jinja2 (`|list`
/// first), and an item is only computed when pulled.
extension Filters {
    static func collection(_ name: String, _ v: Value, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        func bind(_ names: [String]) throws(JinjaError) -> Binding { try Binding(name, names, positional, keyword) }
        switch name {
        case "length", "count":
            _ = try bind([])
            return .int(try Iteration.length(v))
        case "list":
            _ = try bind([])
            return .list(try Iteration.items(v, r))
        case "first":
            _ = try bind([])
            if case let .iterator(it) = v {
                return try it.next() ?? .undefined(Undefined(message: "No first item, sequence was empty."))
            }
            return try Iteration.items(v, r).first ?? .undefined(Undefined(message: "No first item, sequence was empty."))
        case "last":
            _ = try bind([])
            switch v {
            case .list, .tuple, .string, .dict, .view, .undefined:
                return try Iteration.items(v, r).last ?? .undefined(Undefined(message: "No last item, sequence was empty."))
            default:
                throw .type("'\(v.typeName)' object is not reversible")
            }
        case "default", "d":
            let b = try bind(["default_value", "boolean"])
            if v.isUndefined || (b.bool("boolean", default: false) && !v.isTruthy) {
                return b.value("default_value", default: .emptyString)
            }
            return v
        case "join":
            let b = try bind(["d", "attribute"])
            var items = try Iteration.items(v, r)
            if let attribute = b["attribute"], !isNone(attribute) {
                let path = AttributePath(attribute)
                var mapped: [Value] = []
                for item in items { mapped.append(try path.get(item)) }
                items = mapped
            }
            let separator = try PythonRepr.str(b.value("d", default: .emptyString), r).markup(false)
            var pieces: [Text] = []
            for item in items { pieces.append(try PythonRepr.str(item, r).markup(false)) }
            return .string(try r.built(Text.joined(pieces, separator: separator)))
        case "items":
            _ = try bind([])
            if v.isUndefined { return .iterator(ItemIterator(items: [])) }
            guard case let .dict(d) = v else {
                return .iterator(ItemIterator.failing(.type("Can only get item pairs from a mapping.")))
            }
            return .iterator(ItemIterator(items: Iteration.viewItems(.items, d)))
        case "dictsort":
            let b = try bind(["case_sensitive", "by", "reverse"])
            let caseSensitive = b.bool("case_sensitive", default: false)
            let position: Int
            switch b.value("by", default: .template("key")) {
            case let .string(t) where t.string == "key": position = 0
            case let .string(t) where t.string == "value": position = 1
            default: throw .type("You can only sort by either \"key\" or \"value\"")
            }
            guard case let .dict(d) = v else { throw .type("'\(v.typeName)' object has no attribute 'items'") }
            try r.tick(d.count)
            let pairs = d.pairs.map { [$0, $1] }
            let sorted = try sort(pairs, reverse: b.bool("reverse", default: false)) { (a, b) throws(JinjaError) in
                try Operators.less(foldCase(a[position], caseSensitive), foldCase(b[position], caseSensitive), orEqual: false, op: "<")
            }
            return .list(sorted.map { .tuple($0) })
        case "sort":
            let b = try bind(["reverse", "case_sensitive", "attribute"])
            let caseSensitive = b.bool("case_sensitive", default: false)
            let items = try Iteration.items(v, r)
            var paths: [AttributePath] = []
            if let attribute = b["attribute"], !isNone(attribute), case let .string(t) = attribute {
                for part in t.string.split(separator: ",", omittingEmptySubsequences: false) {
                    paths.append(AttributePath(.template(String(part))))
                }
            } else {
                paths.append(AttributePath(b["attribute"] ?? .none))
            }
            var keyed: [(Value, [Value])] = []
            for item in items {
                var key: [Value] = []
                for p in paths { key.append(foldCase(try p.get(item), caseSensitive)) }
                keyed.append((item, key))
            }
            let sorted = try sort(keyed, reverse: b.bool("reverse", default: false)) { (a, b) throws(JinjaError) in
                try Operators.less(.list(a.1), .list(b.1), orEqual: false, op: "<")
            }
            return .list(sorted.map(\.0))
        case "unique":
            let b = try bind(["case_sensitive", "attribute"])
            let caseSensitive = b.bool("case_sensitive", default: false)
            let path = AttributePath(b["attribute"] ?? .none)
            let source = try LazyItems(v, r)
            var seen: Set<HashKey> = []
            func produce() throws(JinjaError) -> Value? {
                while let item = try source.next() {
                    let key = try HashKey(foldCase(try path.get(item), caseSensitive))
                    if seen.insert(key).inserted { return item }
                }
                return nil
            }
            return .iterator(ItemIterator(produce))
        case "min", "max":
            let b = try bind(["case_sensitive", "attribute"])
            let caseSensitive = b.bool("case_sensitive", default: false)
            let path = AttributePath(b["attribute"] ?? .none)
            let items = try Iteration.items(v, r)
            guard var best = items.first else { return .undefined(Undefined(message: "No aggregated item, sequence was empty.")) }
            var bestKey = foldCase(try path.get(best), caseSensitive)
            for item in items.dropFirst() {
                let key = foldCase(try path.get(item), caseSensitive)
                let better = name == "min" ? try Operators.less(key, bestKey, orEqual: false, op: "<")
                    : try Operators.less(bestKey, key, orEqual: false, op: ">")
                if better { best = item; bestKey = key }
            }
            return best
        case "sum":
            let b = try bind(["attribute", "start"])
            let path = AttributePath(b["attribute"] ?? .none)
            var total = b.value("start", default: .int(0))
            if case .string = total { throw .type("sum() can't sum strings [use ''.join(seq) instead]") }
            for item in try Iteration.items(v, r) { total = try Operators.binary(.add, total, try path.get(item), r) }
            return total
        case "reverse":
            _ = try bind([])
            switch v {
            case let .string(t):
                var out = Text.empty
                for c in Iteration.characters(t).reversed() { if case let .string(x) = c { out.append(x) } }
                return .string(out.markup(t.isMarkup))
            case .list, .tuple, .dict, .view, .undefined:
                return .iterator(ItemIterator(items: try Iteration.items(v, r).reversed()))
            case .iterator:
                return .list(try Iteration.items(v, r).reversed())
            default:
                throw .type("argument must be iterable")
            }
        case "map":
            return try map(v, positional, keyword, r)
        case "select", "reject", "selectattr", "rejectattr":
            return try select(name, v, positional, keyword, r)
        case "batch":
            let b = try bind(["linecount", "fill_with"])
            let count = try b.int("linecount", default: 0, name)
            guard count > 0 else { throw .type("batch size must be positive") }
            let fill = b["fill_with"]
            let source = try LazyItems(v, r)
            func produce() throws(JinjaError) -> Value? {
                var batch: [Value] = []
                while batch.count < count, let item = try source.next() { batch.append(item) }
                if batch.isEmpty { return nil }
                if let fill, !isNone(fill) { while batch.count < count { batch.append(fill) } }
                return .list(batch)
            }
            return .iterator(ItemIterator(produce))
        case "slice":
            let b = try bind(["slices", "fill_with"])
            let slices = try b.int("slices", default: 0, name)
            try r.checkLength(slices)
            let fill = b["fill_with"]
            var seq: [Value]?
            var number = 0, offset = 0
            func produce() throws(JinjaError) -> Value? {
                if seq == nil { seq = try Iteration.items(v, r) }
                guard number < slices, let all = seq else { return nil }
                let perSlice = all.count / slices, withExtra = all.count % slices
                let start = offset + number * perSlice
                if number < withExtra { offset += 1 }
                let end = offset + (number + 1) * perSlice
                var piece = Array(all[min(start, all.count)..<min(max(end, start), all.count)])
                if let fill, !isNone(fill), number >= withExtra { piece.append(fill) }
                number += 1
                return .list(piece)
            }
            return .iterator(ItemIterator(produce))
        case "attr":
            let b = try bind(["name"])
            guard case let .string(attribute) = try b.required("name", name) else { return .undefined(.missing(attribute: "?", of: v)) }
            if case let .undefined(u) = v { throw u.error }
            return try Attributes.attribute(v, attribute.string) ?? .undefined(.missing(attribute: attribute.string, of: v))
        case "int":
            return try integer(v, try bind(["default", "base"]))
        case "float":
            let b = try bind(["default"])
            return try float(v) ?? b.value("default", default: .float(0))
        case "abs":
            _ = try bind([])
            switch v {
            case let .float(d): return .float(abs(d))
            default:
                guard let i = v.integer else { throw .type("bad operand type for abs(): '\(v.typeName)'") }
                if i == .min { throw Operators.overflow() }
                return .int(abs(i))
            }
        case "round":
            return try round(v, try bind(["precision", "method"]))
        default:
            throw .runtime("No filter named '\(name)' found.")
        }
    }

    /// Python's `sorted(..., reverse=)`: stable, and with `reverse` equal items keep their order.
    static func sort<T>(_ items: [T], reverse: Bool, by less: (T, T) throws(JinjaError) -> Bool) throws(JinjaError) -> [T] {
        guard reverse else { return try Sorting.stableSorted(items, by: less) }
        return try Sorting.stableSorted(items.reversed(), by: less).reversed()
    }

    /// jinja2's `ignore_case`: strings lowercased unless `caseSensitive`.
    static func foldCase(_ v: Value, _ caseSensitive: Bool) -> Value {
        if !caseSensitive, case let .string(t) = v { return .string(t.lower()) }
        return v
    }

    /// The items of `v` pulled one at a time (from a generator without draining it).
    final class LazyItems {
        private let generator: ItemIterator?
        private let items: [Value]
        private var position = 0

        init(_ v: Value, _ r: Renderer) throws(JinjaError) {
            if case let .iterator(it) = v {
                generator = it
                items = []
            } else {
                generator = nil
                items = try Iteration.items(v, r)
            }
        }

        func next() throws(JinjaError) -> Value? {
            if let generator { return try generator.next() }
            guard position < items.count else { return nil }
            defer { position += 1 }
            return items[position]
        }
    }

    /// jinja2's `make_attrgetter`: `"a.b.0"` walks items/attributes (digit parts are indices);
    /// an integer is one index; none is the item itself. Undefined results become `defaultValue`.
    struct AttributePath {
        var parts: [Value] = []
        var defaultValue: Value?

        init(_ attribute: Value, defaultValue: Value? = nil) {
            self.defaultValue = defaultValue
            switch attribute {
            case .none: break
            case let .string(t):
                for p in t.string.split(separator: ".", omittingEmptySubsequences: false) {
                    let s = String(p)
                    if !s.isEmpty, s.unicodeScalars.allSatisfy({ PythonUnicode.isDigit($0) }), let i = Int(s) {
                        parts.append(.int(i))
                    } else {
                        parts.append(.template(s))
                    }
                }
            default: parts = [attribute]
            }
        }

        func get(_ item: Value) throws(JinjaError) -> Value {
            var x = item
            for p in parts {
                x = try Attributes.getitem(x, p)
                if let defaultValue, !isNone(defaultValue), x.isUndefined { x = defaultValue }
            }
            return x
        }
    }

    static func map(_ v: Value, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        enum Function { case attribute(AttributePath), filter(String, [Value]) }
        let function: Function
        if positional.isEmpty, let attribute = keyword.first(where: { $0.0 == "attribute" })?.1 {
            let defaultValue = keyword.first(where: { $0.0 == "default" })?.1
            if let extra = keyword.first(where: { $0.0 != "attribute" && $0.0 != "default" }) {
                throw .type("Unexpected keyword argument '\(extra.0)'")
            }
            function = .attribute(AttributePath(attribute, defaultValue: defaultValue))
        } else {
            guard let first = positional.first else { throw .type("map requires a filter argument") }
            guard case let .string(filterName) = first else { throw .runtime("No filter named \(PythonRepr.repr(first)).") }
            function = .filter(filterName.string, Array(positional.dropFirst()))
        }
        guard v.isTruthy else { return .iterator(ItemIterator(items: [])) }
        let source = try LazyItems(v, r)
        func produce() throws(JinjaError) -> Value? {
            guard let item = try source.next() else { return nil }
            try r.tick(1)
            switch function {
            case let .attribute(path): return try path.get(item)
            case let .filter(name, args): return try Filters.apply(name, item, args, keyword, r)
            }
        }
        return .iterator(ItemIterator(produce))
    }

    /// `select`/`reject` (test on the item) and `selectattr`/`rejectattr` (test on an attribute);
    /// without a test name the truth value decides.
    static func select(_ name: String, _ v: Value, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        let keep = name.hasPrefix("select")
        var path = AttributePath(.none)
        var offset = 0
        if name.hasSuffix("attr") {
            guard let attribute = positional.first else { throw .type("Missing parameter for attribute name") }
            path = AttributePath(attribute)
            offset = 1
        }
        var testName: String?
        if positional.count > offset {
            guard case let .string(t) = positional[offset] else { throw .runtime("No test named \(PythonRepr.repr(positional[offset])).") }
            testName = t.string
        }
        let args = Array(positional.dropFirst(offset + 1))
        guard v.isTruthy else { return .iterator(ItemIterator(items: [])) }
        let source = try LazyItems(v, r)
        func produce() throws(JinjaError) -> Value? {
            while let item = try source.next() {
                try r.tick(1)
                let x = try path.get(item)
                let passed = if let testName { try Tests.apply(testName, x, args, keyword, r) } else { x.isTruthy }
                if passed == keep { return item }
            }
            return nil
        }
        return .iterator(ItemIterator(produce))
    }

    /// `int(default=0, base=10)`: Python's `int()`, else `int(float())`, else the default.
    static func integer(_ v: Value, _ b: Binding) throws(JinjaError) -> Value {
        let defaultValue = b.value("default", default: .int(0))
        switch v {
        case let .undefined(u): throw u.error
        case let .string(t):
            let base = b["base"]?.integer ?? 10
            switch PythonNumbers.parseInteger(t.string, base: base) {
            case let .value(i): return .int(i)
            case .overflow: throw Operators.overflow()
            case .invalid: break
            }
            guard let d = PythonNumbers.parseFloat(t.string), d.isFinite else { return defaultValue }
            guard let i = Int(exactly: d.rounded(.towardZero)) else { throw Operators.overflow() }
            return .int(i)
        case let .float(d):
            guard d.isFinite else { return defaultValue }
            guard let i = Int(exactly: d.rounded(.towardZero)) else { throw Operators.overflow() }
            return .int(i)
        default:
            return v.integer.map { .int($0) } ?? defaultValue
        }
    }

    /// Python's `float()`, nil where it raises `TypeError`/`ValueError`.
    static func float(_ v: Value) throws(JinjaError) -> Value? {
        switch v {
        case let .undefined(u): throw u.error
        case let .float(d): return .float(d)
        case let .string(t): return PythonNumbers.parseFloat(t.string).map { .float($0) }
        default: return v.integer.map { .float(Double($0)) }
        }
    }

    /// `round(precision=0, method='common')`: Python's `round()` (half to even on the exact
    /// binary value), or `ceil`/`floor` at the precision.
    static func round(_ v: Value, _ b: Binding) throws(JinjaError) -> Value {
        let precision = try b.int("precision", default: 0, "round")
        guard case let .string(method) = b.value("method", default: .template("common")),
              ["common", "ceil", "floor"].contains(method.string) else {
            throw .type("method must be common, ceil or floor")
        }
        if case let .undefined(u) = v { throw u.error }
        if method.string == "common" {
            if let i = v.integer {
                guard precision < 0 else { return .int(i) }
                guard precision > -19 else { return .int(0) }
                var scale = 1
                for _ in 0..<(-precision) { scale *= 10 }
                let q = Operators.floorDiv(i, scale), rest = i - q * scale
                let twice = rest * 2
                let up = twice > scale || (twice == scale && q % 2 != 0)
                return .int((q + (up ? 1 : 0)) * scale)
            }
            guard case let .float(d) = v else { throw .type("type \(v.typeName) doesn't define __round__ method") }
            guard d.isFinite else { return .float(d) }
            if precision == 0 { return .float(d.rounded(.toNearestOrEven)) }
            if precision > 0, precision <= 340 {
                return .float(Double(PythonFormat.cFormat("%.\(precision)f", d)) ?? d)
            }
            let scale = pow(10.0, Double(-precision))
            return .float((d / scale).rounded(.toNearestOrEven) * scale)
        }
        guard let d = Operators.number(v) else { throw .type("must be real number, not \(v.typeName)") }
        let scale = pow(10.0, Double(precision))
        let scaled = d * scale
        guard scaled.isFinite else { throw .type("cannot convert float infinity to integer") }
        let rounded = method.string == "ceil" ? scaled.rounded(.up) : scaled.rounded(.down)
        return .float(rounded / scale)
    }
}
