import Foundation
import LMSession
import Testing

/// A structured answer from a model that does not constrain its output is checked against the schema: a schema
/// whose root refers to its own name resolves that name to the root, however deep the value nests.
@Suite struct RecursiveSchemaConformanceTests {
    @Test(arguments: [
        (#"{"label": "a", "children": []}"#, nil),
        (#"{"label": "a", "children": [{"label": "b", "children": [{"label": "c", "children": []}]}]}"#, nil),
        (#"{"label": "a", "children": [{"label": "b", "children": [{"label": 5, "children": []}]}]}"#, "$.children[0].children[0].label"),
        (#"{"label": "a", "children": [{"label": "b", "children": []}, {"label": "c", "children": []}, {"label": "d", "children": []}]}"#, "$.children"),
        (#"{"label": "a", "children": [{"label": "b"}]}"#, "$.children[0].children is missing"),
    ] as [(String, String?)])
    func aValueOfASelfReferringRootIsCheckedAtEveryLevel(text: String, problem: String?) async throws {
        let model = ScriptedProvider([.text([text])])
        let session = LanguageModelSession(model: model)
        let schema = try RecursiveSchemaRealModelTests.familyTree()
        do {
            let response = try await session.respond(to: "A family tree.", schema: schema)
            #expect(problem == nil, "accepted \(response.content.jsonString)")
            #expect(response.content.jsonString == (try GeneratedContent(json: text)).jsonString)
        } catch let error as GeneratedContent.ParsingError {
            let problem = try #require(problem, "\(error.debugDescription)")
            #expect(error.debugDescription.hasPrefix("The response does not follow the schema Node: \(problem)"), "\(error.debugDescription)")
            #expect(!error.debugDescription.contains("undefined type"))
        }
    }
}

extension RecursiveSchemaConformanceTests {
    /// `RecursiveSchemaRealModelTests.rootReference` (`$ref: "#"`) as a value `depth` levels deep.
    static func chain(_ depth: Int) -> String {
        (0..<depth).reduce(#"{"label": "x", "children": []}"#) { inner, _ in #"{"label": "x", "children": [\#(inner)]}"# }
    }

    @Test(arguments: [1, 2, 8, 20])
    func aJSONSchemaThatRefersToItselfAcceptsAnyDepthTheTextHas(depth: Int) async throws {
        let model = ScriptedProvider([.text([Self.chain(depth)])])
        let session = LanguageModelSession(model: model)
        let schema = try GenerationSchema(jsonSchema: RecursiveSchemaRealModelTests.rootReference)
        let response = try await session.respond(to: "A family tree.", schema: schema)
        #expect(response.content.jsonString == (try GeneratedContent(json: Self.chain(depth))).jsonString)
    }

    @Test func aJSONSchemaThatRefersToItselfRejectsADeepChildOffTheSchema() async throws {
        let text = Self.chain(6).replacingOccurrences(of: #""children": []"#, with: #""children": [7]"#)
        let model = ScriptedProvider([.text([text])])
        let session = LanguageModelSession(model: model)
        let schema = try GenerationSchema(jsonSchema: RecursiveSchemaRealModelTests.rootReference)
        await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "A family tree.", schema: schema) }
    }
}
