import Foundation
import LMSession
import Testing

/// The hand-written conformance `@Generable` expands to (FoundationModels-API.md §6.1),
/// unchanged: it must compile and work against this library.
struct ConversationReasoningItem {
    var reasoningContent: String
    var title: String
    var evalNeeded: Bool

    nonisolated static var generationSchema: GenerationSchema {
        GenerationSchema(type: Self.self, description: "One reasoning step", properties: [
            GenerationSchema.Property(name: "reasoningContent", description: "The reasoning", type: String.self),
            GenerationSchema.Property(name: "title", description: "A title", type: String.self),
            GenerationSchema.Property(name: "evalNeeded", description: "Whether to evaluate", type: Bool.self)])
    }

    nonisolated var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["reasoningContent": reasoningContent, "title": title, "evalNeeded": evalNeeded])
    }

    nonisolated struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent, Sendable, Equatable {
        var id: GenerationID
        var reasoningContent: String.PartiallyGenerated?
        var title: String.PartiallyGenerated?
        var evalNeeded: Bool.PartiallyGenerated?
        nonisolated init(_ content: GeneratedContent) throws {
            self.id = content.id ?? GenerationID()
            self.reasoningContent = try content.value(forProperty: "reasoningContent")
            self.title = try content.value(forProperty: "title")
            self.evalNeeded = try content.value(forProperty: "evalNeeded")
        }
    }
}

extension ConversationReasoningItem: Generable {
    nonisolated init(_ content: GeneratedContent) throws {
        self.reasoningContent = try content.value(forProperty: "reasoningContent")
        self.title = try content.value(forProperty: "title")
        self.evalNeeded = try content.value(forProperty: "evalNeeded")
    }
}

/// An Apple-style String enum conformance.
enum Color: String {
    case red, blue
}

extension Color: Generable {
    static var generationSchema: GenerationSchema { GenerationSchema(type: Self.self, anyOf: ["red", "blue"]) }
    init(_ content: GeneratedContent) throws {
        guard let v = Self(rawValue: try content.value(String.self)) else {
            throw GeneratedContent.ParsingError(rawContent: content.jsonString, debugDescription: "not a color")
        }
        self = v
    }
    var generatedContent: GeneratedContent { GeneratedContent(rawValue) }
}

@Suite("Generable core types")
struct GenerableTypesTests {
    @Test("an Apple-style hand-written conformance round-trips and streams partially")
    func appleStyleConformance() throws {
        let item = ConversationReasoningItem(reasoningContent: "r", title: "t", evalNeeded: true)
        #expect(item.generatedContent.jsonString == #"{"reasoningContent":"r","title":"t","evalNeeded":true}"#)
        let back = try ConversationReasoningItem(GeneratedContent(json: item.generatedContent.jsonString))
        #expect(back.title == "t" && back.evalNeeded)
        let partial = try ConversationReasoningItem.PartiallyGenerated(GeneratedContent(json: #"{"reasoningContent":"thinking"#))
        #expect(partial.reasoningContent == "thinking" && partial.title == nil)
        #expect(item.asPartiallyGenerated().title == "t")
        #expect(try ConversationReasoningItem.generationSchema.grammarAccepts(#"{"reasoningContent":"a","title":"b","evalNeeded":false}"#))
        #expect(try Color.generationSchema.grammarAccepts(#""blue""#))
        #expect(try !Color.generationSchema.grammarAccepts(#""green""#))
    }

    @Test("keys keep generation order from JSON and from properties")
    func orderedKeys() throws {
        let c = try GeneratedContent(json: #"{"zeta":1,"alpha":"x","mid":[true,null]}"#)
        guard case let .structure(_, keys) = c.kind else { Issue.record("not a structure"); return }
        #expect(keys == ["zeta", "alpha", "mid"])
        #expect(c.jsonString == #"{"zeta":1,"alpha":"x","mid":[true,null]}"#)
        #expect(c.isComplete)
        let built = GeneratedContent(properties: ["b": 1, "a": "x"])
        #expect(built.jsonString == #"{"b":1,"a":"x"}"#)
    }

    @Test("truncated JSON gives the deepest valid prefix and is incomplete", arguments: [
        (#"{"title": "Blue"#, #"{"title":"Blue"}"#),
        (#"{"title": "Blue", "ingredients": ["flour", "mi"#, #"{"title":"Blue","ingredients":["flour","mi"]}"#),
        (#"{"title": "Blue", "minu"#, #"{"title":"Blue"}"#),
        (#"["#, "[]"),
    ])
    func truncated(json: String, expected: String) throws {
        let c = try GeneratedContent(json: json)
        #expect(c.jsonString == expected)
        #expect(!c.isComplete)
    }

    @Test("the three value accessors: required, optional and whole", arguments: [
        (#"{"n":3}"#, "n", 3 as Int?, false),
        (#"{"n":null}"#, "n", nil, true),
        (#"{}"#, "n", nil, true),
    ])
    func valueAccessors(json: String, key: String, expected: Int?, requiredThrows: Bool) throws {
        let c = try GeneratedContent(json: json)
        #expect(try c.value(Int?.self, forProperty: key) == expected)
        if requiredThrows {
            #expect(throws: (any Error).self) { try c.value(Int.self, forProperty: key) }
        } else {
            #expect(try c.value(Int.self, forProperty: key) == expected)
        }
        #expect(throws: GeneratedContent.ParsingError.self) { try GeneratedContent(json: "[1]").value(Int.self, forProperty: "n") }
    }

    @Test("built-in conversions check kinds and integrality", arguments: [
        ("2", true), ("2.5", false), ("\"2\"", false), ("1e3", true), ("-0", true),
    ])
    func integerConversion(json: String, converts: Bool) throws {
        let c = try GeneratedContent(json: json)
        #expect(((try? Int(c)) != nil) == converts)
    }

    @Test("decimals, floats and Booleans convert; invalid JSON throws ParsingError")
    func scalars() throws {
        #expect(try Decimal(GeneratedContent(json: "0.1")) == Decimal(string: "0.1"))
        #expect(try Float(GeneratedContent(json: "0.5")) == 0.5)
        #expect(try Bool(GeneratedContent(json: "true")))
        #expect(try [String](GeneratedContent(json: #"["a","b"]"#)) == ["a", "b"])
        #expect(throws: GeneratedContent.ParsingError.self) { try GeneratedContent(json: "{1}") }
        #expect(throws: GeneratedContent.ParsingError.self) { try String(GeneratedContent(json: "1")) }
    }

    @Test("equality includes the generation id")
    func identity() {
        let id = GenerationID()
        let a = GeneratedContent("x", id: id)
        #expect(a == GeneratedContent("x", id: id))
        #expect(a != GeneratedContent("x", id: GenerationID()))
        #expect(a != GeneratedContent("x"))
    }
}
