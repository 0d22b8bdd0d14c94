/// JSON value equality as JSON Schema defines it (`enum`, `const`, `uniqueItems`): numbers by
/// mathematical value (1 equals 1.0), objects regardless of member order, booleans never equal
/// to numbers.
enum JSONEquality {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x, _), .number(y, _)): return x == y || (Double(x).map { d in Double(y) == d } ?? false)
        case let (.string(x, _), .string(y, _)): return x == y
        case let (.array(x, _), .array(y, _)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case let (.object(x, _), .object(y, _)):
            return x.count == y.count && x.allSatisfy { m in y.contains { $0.key == m.key && equal($0.value, m.value) } }
        default: return false
        }
    }

    /// True when the number text `t` has an integer value.
    static func isInteger(_ t: String) -> Bool {
        if !t.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return true }
        guard let d = Double(t), d.isFinite else { return false }
        return d.rounded() == d
    }
}
