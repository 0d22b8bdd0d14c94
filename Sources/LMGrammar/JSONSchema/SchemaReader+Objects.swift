// Objects: which names to write and with which value schema, and whether (and which) other
// members may follow.

extension SchemaReader {
    func object(_ f: Flat) throws(GrammarError) -> GrammarNode {
        var names: [String] = []
        var named: Set<String> = []
        for clause in f.objects {
            for n in (clause.order ?? []) + clause.properties.map(\.name) where named.insert(n).inserted { names.append(n) }
        }
        for n in f.required where named.insert(n).inserted { names.append(n) }
        var fields: [GrammarField] = []
        for name in names {
            let required = f.required.contains(name)
            guard try nameAllowed(f, name) else {
                if required { throw unsatisfiable(f.path, "required property \"\(name)\" is not allowed by propertyNames") }
                continue
            }
            do {
                fields.append(GrammarField(name: name, value: try node(try propertyTerms(f, name)), isOptional: !required))
            } catch {
                guard case .emptyLanguage = error else { throw error }
                if required { throw unsatisfiable(f.path, "required property \"\(name)\" can have no value (\(error))") }
            }
        }
        let requiredCount = fields.filter { !$0.isOptional }.count
        if let hi = f.maxProperties, requiredCount > hi {
            throw unsatisfiable(f.path, "\(requiredCount) required properties but maxProperties \(hi)")
        }
        let invited = f.objects.contains { !$0.patterns.isEmpty || Self.isObjectSchema($0.additional) }
            || (names.isEmpty && f.objects.allSatisfy { $0.additional.map { $0.json != .bool(false) } ?? true })
        let needed = f.minProperties - fields.count
        var additional: AdditionalMembers? = nil
        if invited || needed > 0 { additional = try additionalMembers(f, excluding: names) }
        if needed > 0 {
            guard additional != nil else {
                throw unsatisfiable(f.path, "minProperties \(f.minProperties) but only \(fields.count) properties may appear")
            }
            guard needed == 1 else {
                throw .unsupportedKeyword(path: f.path, keyword: "minProperties", reason:
                    "\(needed) members beyond the declared properties would be needed, and generated keys may repeat")
            }
        }
        return .object(ObjectGrammar(fields: fields, additional: additional, minCount: f.minProperties, maxCount: f.maxProperties))
    }

    static func isObjectSchema(_ l: Located?) -> Bool {
        if case .object? = l?.json { return true }
        return false
    }

    /// The schemas the value of property `name` must satisfy: per object clause, its property
    /// schema, else the `patternProperties` schemas whose pattern matches, else its
    /// `additionalProperties`; `unevaluatedProperties` when no clause covers the name.
    func propertyTerms(_ f: Flat, _ name: String) throws(GrammarError) -> [Term] {
        var terms: [Term] = []
        var covered = false
        // By index: objects of hundreds of clauses are searched for every name, without copies.
        for i in f.objects.indices {
            if let s = f.objects[i].property(name) {
                terms.append(.schema(s))
                covered = true
                continue
            }
            var matched = false
            for p in f.objects[i].patterns where try matcher(p.pattern, path: p.path, keyword: "patternProperties").matches(name) {
                terms.append(.schema(p.schema))
                matched = true
            }
            if matched { covered = true; continue }
            if let a = f.objects[i].additional { terms.append(.schema(a)); covered = true }
        }
        if !covered { for clause in f.objects { if let u = clause.unevaluated { terms.append(.schema(u)) } } }
        for negation in f.propertyNegations where negation.name == name { terms.append(.not(negation.terms)) }
        return terms
    }

    /// True when every `propertyNames` schema accepts `name`.
    func nameAllowed(_ f: Flat, _ name: String) throws(GrammarError) -> Bool {
        for clause in f.objects {
            if let names = clause.propertyNames, try !admits([.schema(names)], .string(name, complete: true)) { return false }
        }
        return true
    }

    /// Members beyond the declared names: keys matching each clause's patterns (its
    /// `additionalProperties` when it has none) and every `propertyNames`; values satisfying all
    /// the schemas such a key could be subject to. Nil when no such member can exist.
    private func additionalMembers(_ f: Flat, excluding names: [String]) throws(GrammarError) -> AdditionalMembers? {
        var key = StringGrammar(excluded: names)
        var values: [Term] = []
        for clause in f.objects {
            if !clause.patterns.isEmpty {
                for p in clause.patterns { _ = try matcher(p.pattern, path: p.path, keyword: "patternProperties") }
                key.patterns.append(clause.patterns.map(\.pattern))
                values += clause.patterns.map { .schema($0.schema) }
            } else if let a = clause.additional ?? clause.unevaluated {
                if a.json == .bool(false) { return nil }
                values.append(.schema(a))
            }
            if let names = clause.propertyNames {
                let n = try flatten([.schema(names)])
                guard !n.hasAlternatives, n.literals == nil, n.kinds.contains(.string) else { return nil }
                for p in n.patterns { _ = try matcher(p.pattern, path: p.path) }
                key.patterns += n.patterns.map { [$0.pattern] }
                try checkSpelt(minLength: n.minLength, path: n.minLengthPath)
                key.minLength = max(key.minLength, n.minLength)
                key.maxLength = [key.maxLength, n.maxLength].compactMap { $0 }.min()
                key.excluded += n.excluded
            }
        }
        if let hi = key.maxLength, hi < key.minLength { return nil }
        do {
            return AdditionalMembers(key: key, value: try node(values))
        } catch {
            guard case .emptyLanguage = error else { throw error }
            return nil
        }
    }
}
