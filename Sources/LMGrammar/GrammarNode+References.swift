extension GrammarNode {
    /// This node with every reference `name` renamed `rename(name)` (to merge grammars whose
    /// definitions could share names).
    public func renamingReferences(_ rename: (String) -> String) -> GrammarNode {
        switch self {
        case let .reference(name):
            return .reference(rename(name))
        case var .object(o):
            o.fields = o.fields.map { GrammarField(name: $0.name, value: $0.value.renamingReferences(rename), isOptional: $0.isOptional) }
            if let additional = o.additional {
                o.additional = AdditionalMembers(key: additional.key, value: additional.value.renamingReferences(rename))
            }
            return .object(o)
        case var .array(a):
            a.prefix = a.prefix.map { $0.renamingReferences(rename) }
            a.item = a.item?.renamingReferences(rename)
            return .array(a)
        case let .anyOf(choices):
            return .anyOf(choices.map { $0.renamingReferences(rename) })
        case let .sequence(parts):
            return .sequence(parts.map { $0.renamingReferences(rename) })
        case .string, .literals, .integer, .number, .boolean, .null, .anyValue:
            return self
        }
    }
}
