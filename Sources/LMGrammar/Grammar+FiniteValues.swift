/// Which definitions have a finite value: the productive symbols of a context-free grammar (the least
/// fixpoint: a definition is productive once its body is with the ones found so far). A schema whose every
/// value would contain itself without end (`{"properties": {"a": {"$ref": "#"}}, "required": ["a"]}`) has none.
extension Grammar {
    /// The definitions that have no finite value.
    func definitionsWithoutFiniteValue() -> Set<String> {
        var finite = Set<String>()
        var changed = true
        while changed {
            changed = false
            for (name, body) in definitions where !finite.contains(name) && body.hasFiniteValue(given: finite) {
                finite.insert(name)
                changed = true
            }
        }
        return Set(definitions.keys).subtracting(finite)
    }
}

extension GrammarNode {
    /// Whether some finite value matches, when the definitions in `finite` have one and the others do not.
    /// Kinds whose bounds or patterns no value meets are the reader's and compiler's to find; here they count
    /// as having values.
    func hasFiniteValue(given finite: Set<String>) -> Bool {
        switch self {
        case .object(let o):
            return o.fields.allSatisfy { $0.isOptional || $0.value.hasFiniteValue(given: finite) }
        case .array(let a):
            let positional = min(a.minCount, a.prefix.count)
            guard a.prefix.prefix(positional).allSatisfy({ $0.hasFiniteValue(given: finite) }) else { return false }
            guard a.minCount > a.prefix.count else { return true }
            return a.item?.hasFiniteValue(given: finite) ?? false
        case .literals(let texts): return !texts.isEmpty
        case .anyOf(let alternatives): return alternatives.contains { $0.hasFiniteValue(given: finite) }
        case .reference(let name): return finite.contains(name)
        case .sequence(let parts): return parts.allSatisfy { $0.hasFiniteValue(given: finite) }
        case .string, .integer, .number, .boolean, .null, .anyValue: return true
        }
    }
}
