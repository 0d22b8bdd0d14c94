/// A Python dict: insertion-ordered pairs, looked up by Python equality (`1 == 1.0 == True`,
/// strings by exact scalars).
struct Dict {
    private(set) var keys: [Value] = []
    private(set) var values: [Value] = []
    private var index: [HashKey: Int] = [:]

    var count: Int { keys.count }
    var pairs: Zip2Sequence<[Value], [Value]> { zip(keys, values) }

    /// Sets `key` (first position kept when it exists).
    /// - Throws: ``JinjaError/typeError(message:at:)`` when the key is unhashable (a list or dict).
    mutating func set(_ key: Value, _ value: Value) throws(JinjaError) {
        let h = try HashKey(key)
        if let i = index[h] {
            values[i] = value
        } else {
            index[h] = keys.count
            keys.append(key)
            values.append(value)
        }
    }

    mutating func set(_ key: String, _ value: Value, origin: JinjaOrigin = .template) {
        let h = HashKey.string(ExactString(key))
        if let i = index[h] {
            values[i] = value
        } else {
            index[h] = keys.count
            keys.append(.string(Text(key, origin: origin)))
            values.append(value)
        }
    }

    /// The value for `key`, nil when absent.
    /// - Throws: ``JinjaError/typeError(message:at:)`` when the key is unhashable.
    func get(_ key: Value) throws(JinjaError) -> Value? {
        guard let i = index[try HashKey(key)] else { return nil }
        return values[i]
    }

    func get(_ key: String) -> Value? {
        guard let i = index[.string(ExactString(key))] else { return nil }
        return values[i]
    }

    /// Whether `key` is present; unhashable keys throw as Python's `in` does.
    func contains(_ key: Value) throws(JinjaError) -> Bool { try get(key) != nil }
}

/// How Python hashes dict keys: numbers by value across `bool`/`int`/`float`, strings by scalars,
/// tuples by their items; `None` and undefined are hashable; lists and dicts are not.
enum HashKey: Hashable {
    case string(ExactString)
    case int(Int)
    case float(UInt64)
    case none
    case undefined
    case tuple([HashKey])
    case identity(ObjectIdentifier)

    init(_ value: Value) throws(JinjaError) {
        switch value {
        case let .string(t): self = .string(ExactString(t.string))
        case let .int(i): self = .int(i)
        case let .bool(b): self = .int(b ? 1 : 0)
        case let .float(d):
            if d.rounded() == d, let i = Int(exactly: d) { self = .int(i) } else { self = .float(d.bitPattern) }
        case .none: self = .none
        case .undefined: self = .undefined
        case let .tuple(items):
            var keys: [HashKey] = []
            for item in items { keys.append(try HashKey(item)) }
            self = .tuple(keys)
        case let .namespace(n): self = .identity(ObjectIdentifier(n))
        case let .macro(m): self = .identity(ObjectIdentifier(m))
        case let .loop(l): self = .identity(ObjectIdentifier(l))
        case let .iterator(i): self = .identity(ObjectIdentifier(i))
        case let .function(f): self = .string(ExactString("<function \(f.rawValue)>"))
        case .list, .dict, .view, .method:
            throw .type("unhashable type: '\(value.typeName)'")
        }
    }
}
