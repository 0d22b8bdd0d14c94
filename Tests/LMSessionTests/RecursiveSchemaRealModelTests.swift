import Foundation
import LMSession
import Testing
import TestSupport

/// Schemas that refer to themselves (trees, replies to replies): the real model generates them greedily, the
/// session's check accepts what it generated, and Python's jsonschema (Scripts/schema-corpus) agrees that the
/// value follows the schema's JSON Schema.
@Suite(.serialized) struct RecursiveSchemaRealModelTests {
    /// The issue's family tree: a `Node` whose children are up to two `Node`s.
    static func familyTree() throws -> GenerationSchema {
        try GenerationSchema(root: DynamicGenerationSchema(name: "Node", properties: [
            .init(name: "label", schema: DynamicGenerationSchema(type: String.self)),
            .init(name: "children", schema: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "Node"), maximumElements: 2)),
        ]), dependencies: [])
    }

    /// The same tree in JSON Schema: the root referred to as `#`.
    static let rootReference = ##"{"type":"object","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"},"maxItems":2}},"required":["label","children"],"additionalProperties":false}"##

    /// A comment thread through `$defs`: a comment's replies are comments.
    static let definitionReference = ##"{"$ref":"#/$defs/comment","$defs":{"comment":{"type":"object","properties":{"author":{"type":"string","maxLength":12},"text":{"type":"string","maxLength":40},"replies":{"type":"array","items":{"$ref":"#/$defs/comment"},"maxItems":2}},"required":["author","text","replies"],"additionalProperties":false}}}"##

    static func schemas() throws -> [(String, GenerationSchema, String)] {
        [("Node", try familyTree(), "A family tree, two levels."),
         ("root #", try GenerationSchema(jsonSchema: rootReference), "A family tree, two levels."),
         ("$defs", try GenerationSchema(jsonSchema: definitionReference), "A short comment thread with replies.")]
    }

    /// The schema as JSON Schema text (what a client would send, and the validator reads).
    static func jsonSchema(_ schema: GenerationSchema) throws -> String {
        String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)
    }

    /// The depth of nested `children`/`replies` arrays holding at least one element.
    static func depth(_ value: Any) -> Int {
        guard let object = value as? [String: Any] else { return 0 }
        let children = (object["children"] ?? object["replies"]) as? [Any] ?? []
        return children.isEmpty ? 0 : 1 + (children.map(depth).max() ?? 0)
    }

    @Test(arguments: [false, true])
    func aSelfReferringSchemaGeneratesValuesTheSchemaAccepts(streamed: Bool) async throws {
        var lines: [String] = []
        for (name, schema, prompt) in try Self.schemas() {
            let session = LanguageModelSession(model: RealModel.model)
            let options = RealModel.greedy(160)
            let content: GeneratedContent
            if streamed {
                var last: GeneratedContent?
                var snapshots = 0
                for try await snapshot in session.streamResponse(to: prompt, schema: schema, options: options) {
                    last = snapshot.rawContent
                    snapshots += 1
                }
                #expect(snapshots > 1, "\(name): the value arrives in parts")
                content = try #require(last, "\(name): no snapshot")
            } else {
                content = try await session.respond(to: prompt, schema: schema, options: options).content
            }
            let text = content.jsonString
            let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
            print("\(name): depth \(Self.depth(value)): \(text)")
            lines.append(SchemaCorpus.line(id: name, schema: try Self.jsonSchema(schema), text: text))
        }
        let summary = try SchemaCorpus.validate(lines)
        #expect(summary.checked == lines.count)
        #expect(summary.invalid.isEmpty, "\(summary.invalid)")
    }

    @Test func theJSONSchemaOfASelfReferringRootRefersToItselfAsTheRoot() throws {
        let json = try Self.jsonSchema(try Self.familyTree())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let children = (object["properties"] as? [String: Any])?["children"] as? [String: Any]
        #expect((children?["items"] as? [String: Any])?["$ref"] as? String == "#")
        #expect(object["$defs"] == nil)
    }
}
