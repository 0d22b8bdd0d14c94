import LMGrammar
import Testing

@Suite("Order-keeping JSON reader")
struct JSONValueTests {
    @Test("object members keep their written order")
    func order() throws {
        let v = try JSONValue.parse(#"{"zeta": 1, "alpha": [true, null], "mid": "x"}"#)
        guard case let .object(members, complete) = v else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["zeta", "alpha", "mid"])
        #expect(complete)
        #expect(v["alpha"] == .array([.bool(true), .null], complete: true))
    }

    @Test("truncated text yields the deepest valid prefix", arguments: [
        (#"{"title": "Blue"#, #"{"title":"Blue"……}"#),
        (#"{"title": "Blue", "ingr"#, #"{"title":"Blue"…}"#),
        (#"{"a": [1, 2, "#, #"{"a":[1,2…]…}"#),
        (#"{"n": 2"#, #"{"n":2……}"#),
        (#"{"n": 4."#, #"{"n":4……}"#),
        (#"{"n": -"#, #"{…}"#),
        (#"{"b": tr"#, #"{…}"#),
        (#"{"s": "a\"#, #"{"s":"a"……}"#),
        (#"{"s": "a\u00"#, #"{"s":"a"……}"#),
        (#"["#, #"[…]"#),
        (#"{"a": {"b": "c"}, "d": "e"}"#, #"{"a":{"b":"c"},"d":"e"}"#),
    ])
    func truncation(text: String, expected: String) throws {
        #expect(Self.render(try JSONValue.parse(text, allowingTruncation: true)) == expected)
    }

    @Test("a string cut inside a multi-byte character drops the partial character")
    func cutCharacter() throws {
        var text = #"{"s": "ab"#
        text += "🐢"
        let full = try JSONValue.parse(text, allowingTruncation: true)
        #expect(full["s"] == .string("ab🐢", complete: false))
    }

    @Test("malformed text throws a typed error with its offset", arguments: [
        (#"{"a" 1}"#, JSONParseError.unexpectedByte(UInt8(ascii: "1"), offset: 5)),
        (#"[1,]"#, .unexpectedByte(UInt8(ascii: "]"), offset: 3)),
        (#"01"#, .trailingCharacters(offset: 1)),
        (#""\x""#, .invalidEscape(offset: 1)),
        (#"{"a":1} x"#, .trailingCharacters(offset: 8)),
        (#"{"a":"#, .unexpectedEnd(offset: 5)),
    ])
    func malformed(text: String, error: JSONParseError) {
        #expect(throws: error) { try JSONValue.parse(text) }
    }

    /// Compact rendering with `…` marking incomplete values.
    static func render(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(t, c): return t + (c ? "" : "…")
        case let .string(s, c): return "\"\(s)\"" + (c ? "" : "…")
        case let .array(items, c): return "[" + items.map(render).joined(separator: ",") + (c ? "]" : "…]")
        case let .object(m, c): return "{" + m.map { "\"\($0.key)\":" + render($0.value) }.joined(separator: ",") + (c ? "}" : "…}")
        }
    }
}

@Suite("JSON Schema to grammar")
struct GrammarJSONSchemaTests {
    @Test("properties follow x-order when present, else written order; required decides optionality")
    func propertyOrder() throws {
        let plain = try Grammar(jsonSchema: #"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["a"]}"#)
        #expect(plain.root == .object([GrammarField(name: "b", value: .string(pattern: nil), isOptional: true),
                                       GrammarField(name: "a", value: .integer(minimum: nil, maximum: nil))]))
        let apple = try Grammar(jsonSchema: #"{"type":"object","title":"T","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["a","b"],"x-order":["a","b"],"additionalProperties":false}"#)
        #expect(apple.root == .object([GrammarField(name: "a", value: .integer(minimum: nil, maximum: nil)),
                                       GrammarField(name: "b", value: .string(pattern: nil))]))
    }

    @Test("keywords map to grammar nodes", arguments: [
        (#"{"type":"string","enum":["a","b"]}"#, GrammarNode.choices(["a", "b"])),
        (#"{"const":"fixed"}"#, .choices(["fixed"])),
        (#"{"type":"string","pattern":"^\\d+$"}"#, .string(StringGrammar(patterns: [["^\\d+$"]]))),
        (#"{"type":"integer","minimum":5,"maximum":240}"#, .integer(minimum: 5, maximum: 240)),
        (#"{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}"#, .integer(minimum: 1, maximum: 9)),
        (#"{"type":"number","minimum":0,"maximum":5}"#, .number(minimum: 0, maximum: 5)),
        (#"{"type":"array","items":{"type":"boolean"},"minItems":1,"maxItems":3}"#, .array(item: .boolean, minCount: 1, maxCount: 3)),
        (#"{"type":["string","null"]}"#, .anyOf([.null, .string(pattern: nil)])),
        (##"{"anyOf":[{"$ref":"#/$defs/A"},{"type":"null"}],"$defs":{"A":{"type":"boolean"}}}"##, .anyOf([.boolean, .null])),
        (#"{}"#, .anyValue),
    ])
    func keywords(schema: String, node: GrammarNode) throws {
        #expect(try Grammar(jsonSchema: schema).root == node)
    }

    @Test("definitions are read from $defs and references compile")
    func definitions() throws {
        let g = try Grammar(jsonSchema: ##"{"type":"array","items":{"$ref":"#/$defs/Tag"},"$defs":{"Tag":{"type":"string","enum":["x","y"]}}}"##)
        #expect(g.root == .array(item: .choices(["x", "y"]), minCount: 0, maxCount: nil))
        #expect(try GrammarProbe.accepts(g, #"["x","y"]"#))
        #expect(try !GrammarProbe.accepts(g, #"["z"]"#))
    }

    @Test("schemas it cannot read name the place", arguments: [
        (#"{"type":"object","properties":{"a":{"type":"date"}}}"#, "/properties/a/type"),
        (#"{"type":"object","properties":{"a~b/c":{"minLength":"x"}}}"#, "/properties/a~0b~1c/minLength"),
        (#"[1]"#, ""),
        // A key given twice (which one wins is up to the reader): refused where it is, deep ones too.
        (#"{"type":"string","type":"integer"}"#, ""),
        (#"{"type":"object","properties":{"a/b":{"type":"string","minLength":1,"type":"integer"}}}"#, "/properties/a~1b"),
        (#"{"anyOf":[{"type":"string"},{"enum":[{"k":1,"k":2}]}]}"#, "/anyOf/1/enum/0"),
    ])
    func invalid(schema: String, path: String) {
        #expect {
            try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case let .invalidSchema(p, _) = error as? GrammarError else { return false }
            return p == path
        }
    }

    @Test("keywords it cannot enforce are named with their path", arguments: [
        (#"{"type":"array","items":{"$ref":"http://x"}}"#, "$ref", "/items/$ref"),
        (##"{"definitions":{"a":{"type":"number","multipleOf":0.5}},"properties":{"p":{"$ref":"#/definitions/a"}}}"##, "multipleOf", "/definitions/a/multipleOf"),
        (#"{"type":"array","contains":{"type":"integer"},"maxContains":2}"#, "maxContains", "/maxContains"),
        (#"{"type":"string","pattern":"a(?=b)"}"#, "pattern", "/pattern"),
        (#"{"oneOf":[{"type":"array"},{"type":"array","items":{"type":"integer"}}]}"#, "oneOf", ""),
        // Sizes over the state budget name their keyword rather than the automaton's size.
        (#"{"type":"array","items":{"type":"string"},"maxItems":1000000}"#, "maxItems", "/maxItems"),
        (#"{"properties":{"a":{"type":"array","minItems":200000}}}"#, "minItems", "/properties/a/minItems"),
        ("{\"enum\":[" + (0..<100_000).map { "\"value-\($0)\"" }.joined(separator: ",") + "]}", "enum", "/enum"),
    ])
    func unsupported(schema: String, keyword: String, path: String) {
        #expect {
            try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case let .unsupportedKeyword(p, k, _) = error as? GrammarError else { return false }
            return p == path && k == keyword
        }
    }

    @Test("a reference to a missing definition fails at compile time")
    func undefinedReference() {
        #expect(throws: GrammarError.undefinedReference("Nope")) {
            try CompiledGrammar(Grammar(root: .reference("Nope")))
        }
    }

    @Test("recursive definitions compile with bounded depth and still close")
    func recursion() throws {
        let g = try Grammar(jsonSchema: ##"{"$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["kids"]}}}"##)
        #expect(try GrammarProbe.accepts(g, #"{"kids":[{"kids":[]},{"kids":[{"kids":[]}]}]}"#))
    }

    @Test("any JSON value is accepted up to the nesting bound")
    func anyValue() throws {
        let g = Grammar(root: .anyValue)
        #expect(try GrammarProbe.accepts(g, #"{"a":[1,{"b":null}],"c":"d"}"#))
        #expect(try GrammarProbe.accepts(g, "-1.5e3"))
        #expect(try !GrammarProbe.accepts(g, "[[[[[[1]]]]]]"))
    }
}
