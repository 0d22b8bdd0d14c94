// Expanding `anyOf`, `oneOf`, `if`/`then`/`else` and `not` into plain alternatives.
//
// `oneOf` must match exactly one branch, so each branch is generated minus the others; `not S`
// is the value minus S; `else` is taken minus the `if` schema. Subtraction may give up part of
// a schema (a kind, a range) it cannot subtract exactly, never producing a value the subtracted
// schema accepts: the result is always a subset of what is valid.

extension SchemaReader {
    /// The alternatives of `f`, none with `anyOf`/`oneOf`/`if`/`not` left.
    /// - Throws: ``GrammarError/unsupportedKeyword(path:keyword:reason:)`` for more than ``maxAlternatives``
    ///   alternatives, or alternatives nested deeper than ``maxExpansionDepth`` (a branch that leads back to its own
    ///   schema without an object or array between).
    func expand(_ f: Flat) throws(GrammarError) -> [Flat] {
        expansionDepth += 1
        defer { expansionDepth -= 1 }
        guard expansionDepth <= Self.maxExpansionDepth else {
            throw .unsupportedKeyword(path: f.path, keyword: "anyOf", reason:
                "alternatives nested more than \(Self.maxExpansionDepth) deep: a branch leads back to its own schema with no object or array between, so it has no finite expansion")
        }
        let pieces = try expandFirst(f)
        if pieces.count > Self.maxAlternatives {
            throw .unsupportedKeyword(path: f.path, keyword: "anyOf", reason: "more than \(Self.maxAlternatives) combinations of alternatives")
        }
        return pieces
    }

    private func conjunction(_ branch: [Located]) throws(GrammarError) -> Flat {
        try flatten(branch.map { .schema($0) })
    }

    private func expandFirst(_ flat: Flat) throws(GrammarError) -> [Flat] {
        var f = flat
        if !f.conditionals.isEmpty {
            let c = f.conditionals.removeFirst()
            let condition = try flatten([.schema(c.condition)])
            var whenTrue = f.merging(condition)
            if let then = c.then { whenTrue = whenTrue.merging(try flatten([.schema(then)])) }
            var whenFalse = f
            if let otherwise = c.otherwise { whenFalse = whenFalse.merging(try flatten([.schema(otherwise)])) }
            return try expand(whenTrue) + subtract(try expand(whenFalse), try expand(condition))
        }
        if !f.oneOf.isEmpty {
            let group = f.oneOf.removeFirst()
            var alone: [[Flat]] = []
            for branch in group { alone.append(try expand(try conjunction(branch))) }
            var out: [Flat] = []
            for (i, branch) in group.enumerated() {
                var pieces = try expand(f.merging(try conjunction(branch)))
                for (j, other) in alone.enumerated() where j != i { pieces = try subtract(pieces, other) }
                out += pieces
            }
            if out.isEmpty {
                throw .unsupportedKeyword(path: f.path, keyword: "oneOf", reason:
                    "no branch can be generated so that it excludes the others (overlapping branches cannot be told apart by a token mask)")
            }
            return out
        }
        if !f.anyOf.isEmpty {
            let group = f.anyOf.removeFirst()
            var out: [Flat] = []
            for branch in group {
                out += try expand(f.merging(try conjunction(branch)))
                if out.count > Self.maxAlternatives { break }
            }
            return out
        }
        if !f.nots.isEmpty {
            let negated = f.nots.removeFirst()
            return try subtract(try expand(f), try expand(try flatten(negated)))
        }
        return [f]
    }

    /// `pieces` minus every one of `others` (all free of alternatives).
    func subtract(_ pieces: [Flat], _ others: [Flat]) throws(GrammarError) -> [Flat] {
        var result = pieces
        for other in others {
            var next: [Flat] = []
            for piece in result { next += try subtract(piece, other) }
            result = next
        }
        return result
    }

    /// The kinds `f` can have values of, counting `enum`/`const`.
    static func effectiveKinds(_ f: Flat) -> Kinds {
        guard let literals = f.literals else { return f.kinds }
        var k: Kinds = []
        for v in literals { k.formUnion(Kinds.of(v)) }
        return k.intersection(f.kinds)
    }

    /// Values of `a` that `b` rejects. `b`'s constraints it cannot use are dropped (which only
    /// makes `b` larger, so the result stays outside it).
    private func subtract(_ a: Flat, _ b: Flat) throws(GrammarError) -> [Flat] {
        let overlap = Self.effectiveKinds(a).intersection(Self.effectiveKinds(b))
        if overlap.isEmpty { return [a] }
        var base = a
        if let literals = b.literals {
            if let mine = a.literals {
                base.literals = mine.filter { v in !literals.contains { JSONEquality.equal($0, v) } }
                return base.literals?.isEmpty == false ? [base] : []
            }
            for v in literals {
                switch v {
                case let .string(s, _): base.excluded.append(s)
                default: base.kinds.remove(Kinds.of(v))
                }
            }
            return base.kinds.isEmpty ? [] : [base]
        }
        var pieces: [Flat] = []
        func only(_ kinds: Kinds) -> Flat {
            var f = a
            f.kinds = a.kinds.intersection(kinds)
            return f
        }
        base.kinds.subtract(overlap.intersection([.null, .boolean]))
        let numbers = overlap.intersection(.number)
        if !numbers.isEmpty {
            base.kinds.subtract(numbers)
            if let low = b.minimum {
                var f = only(numbers)
                f.maximum = NumberBound.tighterMaximum(a.maximum, NumberBound(value: low.value, exclusive: !low.exclusive, path: low.path))
                pieces.append(f)
            }
            if let high = b.maximum {
                var f = only(numbers)
                f.minimum = NumberBound.tighterMinimum(a.minimum, NumberBound(value: high.value, exclusive: !high.exclusive, path: high.path))
                pieces.append(f)
            }
        }
        if overlap.contains(.string) {
            base.kinds.remove(.string)
            if b.minLength > 0 {
                var f = only(.string)
                f.maxLength = min(a.maxLength ?? .max, b.minLength - 1)
                pieces.append(f)
            }
            if let hi = b.maxLength {
                var f = only(.string)
                if hi + 1 > a.minLength { (f.minLength, f.minLengthPath) = (hi + 1, b.path) }
                pieces.append(f)
            }
            // Strings that fail one of `b`'s patterns (`import` as "repo:branch:name" against
            // "name@source" in Bitbucket Pipelines).
            // Only when `a`'s own patterns can be generated: otherwise `a` stays left out, as before
            // patterns were subtracted, rather than its pattern failing the whole schema.
            let enforceable = a.patterns.allSatisfy { (try? matcher($0.pattern, path: $0.path)) != nil }
            for p in b.patterns where enforceable {
                // A pattern the grammar cannot enforce, or not complement in bounds, keeps nothing out:
                // that way out is left unused (the result stays a subset of what is valid).
                guard let m = try? matcher(p.pattern, path: p.path), m.hasBoundedComplement else { continue }
                var f = only(.string)
                f.forbiddenPatterns.append(p)
                pieces.append(f)
            }
        }
        if overlap.contains(.array) {
            base.kinds.remove(.array)
            if b.minItems > 0 {
                var f = only(.array)
                if b.minItems - 1 < a.maxItems ?? .max { (f.maxItems, f.maxItemsPath) = (b.minItems - 1, b.minItemsPath) }
                pieces.append(f)
            }
            if let hi = b.maxItems {
                var f = only(.array)
                if hi + 1 > a.minItems { (f.minItems, f.minItemsPath) = (hi + 1, b.maxItemsPath) }
                pieces.append(f)
            }
        }
        if overlap.contains(.object) {
            base.kinds.remove(.object)
            if let f = try objectOutside(only(.object), b) { pieces.append(f) }
        }
        return (base.kinds.isEmpty ? [] : [base]) + pieces
    }

    /// Objects of `a` that `b` rejects, found by one property: one `b` requires and `a` can leave
    /// out (then left out), one `b` forbids and `a` allows (then required), or one whose value can
    /// be kept outside `b`'s schema for it (then required and kept outside). Nil when none works.
    private func objectOutside(_ a: Flat, _ b: Flat) throws(GrammarError) -> Flat? {
        for name in b.required where !a.required.contains(name) {
            var f = a
            f.objects.append(ObjectClause(properties: [(name, Located(json: .bool(false), path: a.path + "#without-" + name))], path: a.path))
            return f
        }
        var candidates = a.required
        for clause in a.objects + b.objects { for p in clause.properties where !candidates.contains(p.name) { candidates.append(p.name) } }
        for name in candidates {
            let theirs = try propertyTerms(b, name)
            var f = a
            if !f.required.contains(name) { f.required.append(name) }
            let forbidden = theirs.contains { if case let .schema(l) = $0 { l.json == .bool(false) } else { false } }
            if !forbidden {
                if theirs.isEmpty { continue }
                f.propertyNegations.append((name, theirs))
            }
            do {
                _ = try node(try propertyTerms(f, name))
                return f
            } catch {
                guard case .emptyLanguage = error else { throw error }
            }
        }
        return nil
    }
}
