import Foundation
import RegexBuilder
import LMSession
import Testing

@Suite("GenerationSchema JSON and dynamic schemas")
struct GenerableSchemaJSONTests {
    @Test("encoding then decoding keeps the schema (Apple's shape)")
    func roundTrip() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Post.generationSchema)
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: data)
        #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == String(decoding: data, as: UTF8.self))
        #expect(try decoded.grammarAccepts(#"{"slug":"p","author":{"name":"A"},"price":1,"ratio":1,"published":true,"tags":[],"code":"ABC-1234"}"#))
    }

    /// `{"type":"string","type":"integer"}` read as both and failed as "no value satisfies the grammar".
    @Test("a key given twice in one object is refused, naming the key and its place")
    func repeatedKey() {
        #expect {
            try GenerationSchema(jsonSchema: #"{"type":"object","properties":{"n":{"type":"string","type":"integer"}}}"#)
        } throws: { error in
            guard let read = error as? SchemaReadError else { return false }
            return read.path == "/properties/n" && read.reason == #"the key "type" appears twice in one object"#
        }
    }

    @Test("plain JSON Schema reads with properties in written order")
    func plainSchema() throws {
        let schema = try GenerationSchema(jsonSchema: #"""
            {"type":"object","properties":{"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"},"maxItems":2},
             "level":{"type":"string","enum":["low","high"]}},"required":["title","level"]}
            """#)
        #expect(try schema.grammarAccepts(#"{"title":"t","level":"low"}"#))
        #expect(try schema.grammarAccepts(#"{"title":"t","tags":["a","b"],"level":"high"}"#))
        #expect(try !schema.grammarAccepts(#"{"title":"t","tags":["a","b","c"],"level":"high"}"#))
        #expect(try !schema.grammarAccepts(#"{"level":"low","title":"t"}"#))
    }

    @Test("a Decoder without x-order puts required properties first")
    func decodedWithoutOrder() throws {
        let json = #"{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"integer"}},"required":["b"]}"#
        let schema = try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
        #expect(try schema.grammarAccepts(#"{"b":1,"a":2}"#))
        #expect(try !schema.grammarAccepts(#"{"a":2,"b":1}"#))
    }

    @Test("guides keep their data at run time", arguments: [
        (GenerationSchema.Property(name: "v", type: String.self, guides: [.constant("fixed")]), #"{"v":"fixed"}"#, #"{"v":"other"}"#),
        (GenerationSchema.Property(name: "v", type: String.self, guides: [.pattern("[a-c]+")]), #"{"v":"abc"}"#, #"{"v":"abd"}"#),
        (GenerationSchema.Property(name: "v", type: Int.self, guides: [.minimum(3)]), #"{"v":3}"#, #"{"v":2}"#),
        (GenerationSchema.Property(name: "v", type: Int.self, guides: [.maximum(3)]), #"{"v":3}"#, #"{"v":4}"#),
        (GenerationSchema.Property(name: "v", type: Double.self, guides: [.range(-1...1)]), #"{"v":-0.5}"#, #"{"v":1.5}"#),
        (GenerationSchema.Property(name: "v", type: Float.self, guides: [.minimum(0.5)]), #"{"v":0.75}"#, #"{"v":0.25}"#),
        (GenerationSchema.Property(name: "v", type: Decimal.self, guides: [.range(1...2)]), #"{"v":1.5}"#, #"{"v":2.5}"#),
        (GenerationSchema.Property(name: "v", type: [Int].self, guides: [.minimumCount(1)]), #"{"v":[1]}"#, #"{"v":[]}"#),
        (GenerationSchema.Property(name: "v", type: [Int].self, guides: [.maximumCount(1)]), #"{"v":[1]}"#, #"{"v":[1,2]}"#),
        (GenerationSchema.Property(name: "v", type: [Int].self, guides: [.count(1...2)]), #"{"v":[1,2]}"#, #"{"v":[1,2,3]}"#),
        (GenerationSchema.Property(name: "v", type: [Int].self, guides: [.element(.range(0...9))]), #"{"v":[9]}"#, #"{"v":[10]}"#),
        (GenerationSchema.Property(name: "v", type: [String].self, guides: [.element(.anyOf(["x", "y"]))]), #"{"v":["x","y"]}"#, #"{"v":["z"]}"#),
        (GenerationSchema.Property(name: "v", type: String?.self, guides: [.anyOf(["x"])]), #"{}"#, #"{"v":"y"}"#),
        (GenerationSchema.Property(name: "v", type: String.self, guides: [#/\d{2}/#]), #"{"v":"42"}"#, #"{"v":"4"}"#),
    ])
    func guidesEnforced(property: GenerationSchema.Property, valid: String, invalid: String) throws {
        let schema = GenerationSchema(type: Recipe.self, properties: [property])
        #expect(try schema.grammarAccepts(valid))
        #expect(try !schema.grammarAccepts(invalid))
    }

    @Test("dynamic schemas build with references and hoisted named types")
    func dynamicSchema() throws {
        let tag = DynamicGenerationSchema(name: "Tag", anyOf: ["a", "b"])
        let item = DynamicGenerationSchema(name: "Item", properties: [
            .init(name: "tag", schema: DynamicGenerationSchema(referenceTo: "Tag")),
            .init(name: "n", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...3)]), isOptional: true),
        ])
        let root = DynamicGenerationSchema(name: "List", properties: [
            .init(name: "items", schema: DynamicGenerationSchema(arrayOf: item, minimumElements: 1, maximumElements: 2)),
            .init(name: "note", schema: .null),
        ])
        let schema = try GenerationSchema(root: root, dependencies: [tag])
        #expect(try schema.grammarAccepts(#"{"items":[{"tag":"a","n":2},{"tag":"b"}],"note":null}"#))
        #expect(try !schema.grammarAccepts(#"{"items":[{"tag":"c"}],"note":null}"#))
        #expect(try !schema.grammarAccepts(#"{"items":[],"note":null}"#))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(schema)) as? [String: Any]
        #expect(Set((json?["$defs"] as? [String: Any])?.keys.map { $0 } ?? []) == ["Tag", "Item"])
    }

    static func build(_ failure: String) throws -> GenerationSchema {
        switch failure {
        case "duplicateType":
            return try GenerationSchema(root: DynamicGenerationSchema(name: "A", properties: []),
                                        dependencies: [DynamicGenerationSchema(name: "B", anyOf: ["x"]), DynamicGenerationSchema(name: "B", anyOf: ["y"])])
        case "duplicateProperty":
            return try GenerationSchema(root: DynamicGenerationSchema(name: "A", properties: [.init(name: "p", schema: .null), .init(name: "p", schema: .null)]),
                                        dependencies: [])
        case "emptyTypeChoices":
            return try GenerationSchema(root: DynamicGenerationSchema(name: "A", anyOf: [] as [DynamicGenerationSchema]), dependencies: [])
        default:
            return try GenerationSchema(root: DynamicGenerationSchema(name: "A", properties: [.init(name: "p", schema: DynamicGenerationSchema(referenceTo: "Missing"))]),
                                        dependencies: [])
        }
    }

    @Test("dynamic schema errors name what is wrong", arguments: ["duplicateType", "duplicateProperty", "emptyTypeChoices", "undefinedReferences"])
    func dynamicErrors(expected: String) {
        #expect {
            _ = try Self.build(expected)
        } throws: { error in
            guard let e = error as? GenerationSchema.SchemaError else { return false }
            switch (expected, e) {
            case let ("duplicateType", .duplicateType(_, type, _)): return type == "B"
            case let ("duplicateProperty", .duplicateProperty(schema, property, _)): return schema == "A" && property == "p"
            case let ("emptyTypeChoices", .emptyTypeChoices(schema, _)): return schema == "A"
            case let ("undefinedReferences", .undefinedReferences(_, refs, _)): return refs == ["Missing"]
            default: return false
            }
        }
    }
}

@Suite("Regex guides")
struct GenerableRegexGuideTests {
    @Test("a RegexBuilder regex carries its source (strings quoted as \\Q...\\E) and is enforced")
    func regexBuilderGuide() throws {
        let regex = Regex { OneOrMore(.digit); "-"; Capture { "ab" } }
        let schema = GenerationSchema(type: Recipe.self, properties: [.init(name: "code", type: String.self, guides: [.pattern(regex)])])
        #expect(try schema.grammarAccepts(#"{"code":"12-ab"}"#))
        #expect(try !schema.grammarAccepts(#"{"code":"12ab"}"#))
    }

    @Test("a pattern the matcher cannot enforce is an unsupported guide, also after a JSON round trip")
    func unsupportedPattern() throws {
        let schema = GenerationSchema(type: Recipe.self, properties: [.init(name: "code", type: String.self, guides: [.pattern("a(?=b)")])])
        #expect {
            try schema.compiledGrammar()
        } throws: { error in
            guard case .unsupportedGuide = error as? GenerationSchema.GrammarFailure else { return false }
            return true
        }
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: JSONEncoder().encode(schema))
        #expect(throws: GenerationSchema.GrammarFailure.self) { try decoded.compiledGrammar() }
    }

    @Test("a Regex with no source text (a transform) is an unsupported guide, also after a JSON round trip")
    func opaquePattern() throws {
        let regex = Regex { TryCapture { OneOrMore(.digit) } transform: { Int($0) } }
        let schema = GenerationSchema(type: Recipe.self, properties: [.init(name: "n", type: String.self, guides: [.pattern(regex)])])
        for candidate in [schema, try JSONDecoder().decode(GenerationSchema.self, from: JSONEncoder().encode(schema))] {
            #expect {
                try candidate.compiledGrammar()
            } throws: { error in
                guard case .unsupportedGuide = error as? GenerationSchema.GrammarFailure else { return false }
                return true
            }
        }
    }
}
