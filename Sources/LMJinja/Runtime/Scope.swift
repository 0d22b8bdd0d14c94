/// Variables visible at a point of the template, chained to the enclosing scope.
///
/// jinja2's scoping, which templates depend on: `set` inside `if` writes the enclosing scope;
/// each `for` iteration, macro call, call block, `with` and block `set`/`filter` body has its own
/// scope (so `set` there does not leak, hence `namespace()`); reads fall through to enclosing
/// scopes at the time of the read (a macro sees later top-level assignments).
final class Scope {
    private var variables: [String: Value] = [:]
    let parent: Scope?

    init(parent: Scope?) { self.parent = parent }

    func lookup(_ name: String) -> Value? {
        var scope: Scope? = self
        while let s = scope {
            if let v = s.variables[name] { return v }
            scope = s.parent
        }
        return nil
    }

    func set(_ name: String, _ value: Value) { variables[name] = value }
}

/// The state behind `loop` in a `for` body (jinja2's `LoopContext`): counters, neighbours,
/// `cycle()` and `changed()`. Items are pulled one at a time, so a loop over a generator that
/// breaks early leaves the rest in the generator, and `loop.last`/`nextitem` peek one ahead.
final class LoopState {
    private let source: ItemSource
    /// The `for ... if test` filter, applied as items are pulled.
    private let accept: (Value) throws(JinjaError) -> Bool
    private(set) var index0 = -1
    private var length: Int?
    private var peeked: Value??
    private(set) var previous: Value?
    private(set) var current: Value?
    private var lastChanged: [Value]?

    init(source: ItemSource, accept: @escaping (Value) throws(JinjaError) -> Bool) {
        self.source = source
        self.accept = accept
    }

    private func pull() throws(JinjaError) -> Value? {
        while let item = try source.next() {
            if try accept(item) { return item }
        }
        return nil
    }

    /// The next item, advancing the counters; nil at the end.
    func advance() throws(JinjaError) -> Value? {
        let item: Value?
        if let p = peeked { item = p; peeked = nil } else { item = try pull() }
        guard let item else { return nil }
        index0 += 1
        previous = current
        current = item
        return item
    }

    func peek() throws(JinjaError) -> Value? {
        if let p = peeked { return p }
        let p = try pull()
        peeked = .some(p)
        return p
    }

    var isFirst: Bool { index0 == 0 }

    func isLast() throws(JinjaError) -> Bool { try peek() == nil }

    /// Number of items the loop runs over (pulling all remaining items if the source is a generator).
    func count() throws(JinjaError) -> Int {
        if let length { return length }
        if let known = source.knownCount, !source.filtered {
            length = known
            return known
        }
        var rest: [Value] = []
        if case let .some(.some(p)) = peeked { rest.append(p) }
        while let item = try pull() { rest.append(item) }
        source.replaceRemaining(rest)
        peeked = nil
        let n = index0 + 1 + rest.count
        length = n
        return n
    }

    /// `loop.changed(*values)`: true when the values differ from the previous call's.
    func changed(_ values: [Value]) -> Bool {
        if let last = lastChanged, last.count == values.count, zip(last, values).allSatisfy({ Operators.equal($0, $1) }) {
            return false
        }
        lastChanged = values
        return true
    }
}

/// What a `for` loop iterates: an array, or a generator shared with the rest of the template.
final class ItemSource {
    private var items: [Value]
    private var position = 0
    private let generator: ItemIterator?
    let filtered: Bool

    init(items: [Value], filtered: Bool) {
        self.items = items
        generator = nil
        self.filtered = filtered
    }

    init(generator: ItemIterator, filtered: Bool) {
        items = []
        self.generator = generator
        self.filtered = filtered
    }

    func next() throws(JinjaError) -> Value? {
        if position < items.count {
            defer { position += 1 }
            return items[position]
        }
        return try generator?.next()
    }

    /// The number of items when known without pulling (an array source).
    var knownCount: Int? { generator == nil ? items.count : nil }

    /// After `count()` pulled everything: the loop continues over these.
    func replaceRemaining(_ rest: [Value]) {
        items = rest
        position = 0
    }
}
