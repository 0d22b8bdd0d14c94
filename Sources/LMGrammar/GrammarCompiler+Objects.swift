// Objects: declared fields in order, then additional members, with member counts.

extension GrammarCompiler {
    mutating func object(_ object: ObjectGrammar, from s: Int32) throws(GrammarError) -> Int32 {
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "{"), open)
        let required = object.fields.filter { !$0.isOptional }.count
        if let hi = object.maxCount, required > hi {
            throw .emptyLanguage("\(required) required members but at most \(hi) allowed")
        }
        let mostPossible: Int? = object.additional == nil ? object.fields.count : nil
        let countsMatter = object.minCount > required
            || object.maxCount.map { hi in mostPossible.map { $0 > hi } ?? true } ?? false
        let close = countsMatter ? try counted(object, open: open) : try uncounted(object, open: open)
        let end = nfa.newState()
        nfa.edge(close, UInt8(ascii: "}"), end)
        return end
    }

    /// `"key":` then optional spaces, from `s`.
    mutating func memberKey(_ name: String, from s: Int32) -> Int32 {
        spaces(from: nfa.literal(JSONText.quoted(name) + [UInt8(ascii: ":")], from: s))
    }

    /// A member's start from a state where `written` members came before: a comma first unless none.
    mutating func memberStart(after state: Int32, written: Bool) -> Int32 {
        written ? comma(from: state) : state
    }

    /// An additional member (key, colon, value) from `s`; returns its end.
    mutating func additionalMember(_ additional: AdditionalMembers, excluding names: [String], from s: Int32) throws(GrammarError) -> Int32 {
        var key = additional.key
        key.excluded += names
        let keyEnd = try string(key, from: s, canonical: true)
        let colon = nfa.literal([UInt8(ascii: ":")], from: keyEnd)
        return try value(additional.value, from: spaces(from: colon))
    }

    /// Fields with no count to keep: two paths, "nothing written yet" (no comma needed) and
    /// "something written"; returns the state before `}`.
    private mutating func uncounted(_ object: ObjectGrammar, open: Int32) throws(GrammarError) -> Int32 {
        var emptyPath: Int32? = open
        var written: Int32? = nil
        for field in object.fields {
            let key = nfa.newState()
            if let e = emptyPath { nfa.epsilon(e, key) }
            if let w = written { nfa.epsilon(comma(from: w), key) }
            let valueEnd = try value(field.value, from: memberKey(field.name, from: key))
            if field.isOptional {
                let merged = nfa.newState()
                nfa.epsilon(valueEnd, merged)
                if let w = written { nfa.epsilon(w, merged) }
                written = merged
            } else {
                emptyPath = nil
                written = valueEnd
            }
        }
        let close = nfa.newState()
        if let e = emptyPath { nfa.epsilon(e, close) }
        if let w = written { nfa.epsilon(w, close) }
        if let additional = object.additional {
            let start = nfa.newState()
            if let e = emptyPath { nfa.epsilon(e, start) }
            if let w = written { nfa.epsilon(comma(from: w), start) }
            let memberEnd = try additionalMember(additional, excluding: object.fields.map(\.name), from: start)
            nfa.epsilon(comma(from: memberEnd), start)
            nfa.epsilon(memberEnd, close)
        }
        return close
    }

    /// Fields and additional members with the number written so far kept in the state: one state
    /// per count (counts past `minCount` merge when there is no maximum), so each value's
    /// automaton is built once per count it can start from.
    private mutating func counted(_ object: ObjectGrammar, open: Int32) throws(GrammarError) -> Int32 {
        let lo = object.minCount, hi = object.maxCount
        if let hi, hi < lo { throw .emptyLanguage("member count \(lo)...\(hi)") }
        let cap = hi ?? lo
        guard (cap + 1) * max(object.fields.count, 1) <= 4096 else {
            throw .tooLarge(states: options.maxStates)
        }
        func next(_ c: Int) -> Int? {
            if let hi { return c + 1 <= hi ? c + 1 : nil }
            return min(c + 1, cap)
        }
        var at = [Int32?](repeating: nil, count: cap + 1)
        at[0] = open
        for field in object.fields {
            var after = [Int32?](repeating: nil, count: cap + 1)
            func join(_ c: Int, _ s: Int32) {
                if let existing = after[c] { nfa.epsilon(s, existing) } else {
                    let t = nfa.newState()
                    nfa.epsilon(s, t)
                    after[c] = t
                }
            }
            for c in 0...cap {
                guard let state = at[c] else { continue }
                if field.isOptional { join(c, state) }
                guard let n = next(c) else { continue }
                let valueEnd = try value(field.value, from: memberKey(field.name, from: memberStart(after: state, written: c > 0)))
                join(n, valueEnd)
            }
            at = after
            try checkSize()
        }
        if let additional = object.additional {
            // Additional members: a chain of counts, looping on the last when there is no maximum.
            var chain = at
            for c in 0...cap {
                guard let state = chain[c], let n = next(c) else { continue }
                let memberEnd = try additionalMember(additional, excluding: object.fields.map(\.name),
                                                     from: memberStart(after: state, written: c > 0))
                if let existing = chain[n] { nfa.epsilon(memberEnd, existing) } else {
                    let t = nfa.newState()
                    nfa.epsilon(memberEnd, t)
                    chain[n] = t
                }
                try checkSize()
            }
            at = chain
        }
        let close = nfa.newState()
        for c in lo...cap { if let state = at[c] { nfa.epsilon(state, close) } }
        return close
    }
}
