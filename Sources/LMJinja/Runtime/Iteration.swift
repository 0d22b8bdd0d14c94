/// Python's iteration protocol over template values: lists and tuples give their items, strings
/// their characters, dicts their keys, views their keys/values/`(key, value)` tuples, an undefined
/// value nothing, and a generator its remaining items (consuming them).
enum Iteration {
    static func notIterable(_ v: Value) -> JinjaError { .type("'\(v.typeName)' object is not iterable") }

    /// The items of `v` as an array (a generator is drained).
    static func items(_ v: Value, _ r: Renderer) throws(JinjaError) -> [Value] {
        let out: [Value]
        switch v {
        case let .list(items), let .tuple(items): out = items
        case let .string(t): out = characters(t)
        case let .dict(d): out = d.keys
        case let .view(kind, d): out = viewItems(kind, d)
        case .undefined: out = []
        case let .iterator(it): return try it.drain(r)
        default: throw notIterable(v)
        }
        try r.tick(out.count)
        return out
    }

    /// A loop source over `v`, pulling from a generator lazily.
    static func source(_ v: Value, filtered: Bool, _ r: Renderer) throws(JinjaError) -> ItemSource {
        if case let .iterator(it) = v { return ItemSource(generator: it, filtered: filtered) }
        switch v {
        case let .list(items), let .tuple(items): return ItemSource(items: items, filtered: filtered)
        case let .string(t): return ItemSource(items: characters(t), filtered: filtered)
        case let .dict(d): return ItemSource(items: d.keys, filtered: filtered)
        case let .view(kind, d): return ItemSource(items: viewItems(kind, d), filtered: filtered)
        case .undefined: return ItemSource(items: [], filtered: filtered)
        default: throw notIterable(v)
        }
    }

    static func characters(_ t: Text) -> [Value] {
        let offsets = t.utf8Offsets()
        return (0..<(offsets.count - 1)).map { .string(t.slice(scalars: $0..<($0 + 1), offsets: offsets).markup(t.isMarkup)) }
    }

    static func viewItems(_ kind: DictView, _ d: Dict) -> [Value] {
        switch kind {
        case .keys: d.keys
        case .values: d.values
        case .items: d.pairs.map { .tuple([$0, $1]) }
        }
    }

    /// `a, b = v`: exactly `count` items.
    static func unpack(_ v: Value, count: Int, _ r: Renderer) throws(JinjaError) -> [Value] {
        switch v {
        case .list, .tuple, .string, .dict, .view, .iterator, .undefined: break
        default: throw .type("cannot unpack non-iterable \(v.typeName) object")
        }
        let all = try items(v, r)
        if all.count < count { throw .type("not enough values to unpack (expected \(count), got \(all.count))") }
        if all.count > count { throw .type("too many values to unpack (expected \(count))") }
        return all
    }

    /// Python's `len()`.
    static func length(_ v: Value) throws(JinjaError) -> Int {
        switch v {
        case let .list(a), let .tuple(a): return a.count
        case let .string(t): return t.scalarCount
        case let .dict(d), let .view(_, d): return d.count
        case .undefined: return 0
        case let .loop(state): return try state.count()
        default: throw .type("object of type '\(v.typeName)' has no len()")
        }
    }
}
