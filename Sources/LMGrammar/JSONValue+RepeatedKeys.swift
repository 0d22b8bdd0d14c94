extension JSONValue {
    /// The JSON pointer (RFC 6901) of the first object, depth first, that gives a key twice, and the reason in
    /// words (naming the key); nil when every object's keys are distinct. RFC 8259 leaves a repeated name's
    /// meaning open (parsers keep the first or the last), so a schema holding one is refused, not read one way.
    package func firstRepeatedKey(at path: String = "") -> (path: String, reason: String)? {
        switch self {
        case let .object(members, _):
            var seen = Set<String>()
            if let repeated = members.first(where: { !seen.insert($0.key).inserted }) {
                return (path, "the key \"\(repeated.key)\" appears twice in one object")
            }
            for m in members {
                if let found = m.value.firstRepeatedKey(at: path + "/" + Located.escape(m.key)) { return found }
            }
        case let .array(items, _):
            for (i, item) in items.enumerated() {
                if let found = item.firstRepeatedKey(at: path + "/\(i)") { return found }
            }
        default:
            break
        }
        return nil
    }
}
