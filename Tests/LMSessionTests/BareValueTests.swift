import Foundation
import LMSession
import Testing
import TestSupport

/// Bug report: a whole response that is a bare number failed as "not a complete Int" because the final read
/// treated a number at the end of the text as one that could still grow. The provider here writes the text;
/// it ended the response, so the value is complete.
@Suite("Bare scalar responses")
struct BareValueTests {
    @Test("a bare number, split over deltas, decodes as Int and Double", arguments: [
        (["12", "34"], 1234), (["-7"], -7), (["3", ".25"], 3.25), (["1e", "3"], 1000), (["0"], 0),
    ] as [([String], Double)])
    func numbers(deltas: [String], expected: Double) async throws {
        let model = ScriptedProvider([.text(deltas)])
        let session = LanguageModelSession(model: model)
        let double = try await session.respond(to: "n", generating: Double.self).content
        #expect(double == expected)
        guard case .response(let entry) = session.transcript.last, case .structure(let segment) = entry.segments.first else {
            Issue.record("no structured response entry")
            return
        }
        #expect(try Double(segment.content) == expected)
        if expected == expected.rounded(), !deltas.joined().contains(where: { ".eE".contains($0) }) {
            let model = ScriptedProvider([.text(deltas)])
            #expect(try await LanguageModelSession(model: model).respond(to: "n", generating: Int.self).content == Int(expected))
        }
    }

    @Test("streamResponse generating Int ends with the whole number")
    func streamed() async throws {
        let model = ScriptedProvider([.text(["4", "2", "7"])])
        let response = try await LanguageModelSession(model: model).streamResponse(to: "n", generating: Int.self).collect()
        #expect(response.content == 427)
    }

    @Test("a JSON Schema of a bare integer or number decodes its value")
    func jsonSchema() async throws {
        let cases: [(schema: String, text: String, expected: Double)] = [
            (#"{"type":"integer"}"#, "-15", -15), (#"{"type":"number"}"#, "2.5", 2.5),
            // Integers past 15 digits, up to 2^53, keep their integer spelling when the value is checked.
            (#"{"type":"integer","maximum":1e30}"#, "1234567890000000", 1234567890000000),
            (#"{"type":"integer","minimum":-1e30,"maximum":1e30}"#, "-9007199254740991", -9007199254740991),
        ]
        for (schemaText, text, expected) in cases {
            let schema = try GenerationSchema(jsonSchema: schemaText)
            let model = ScriptedProvider([.text([text])])
            let content = try await LanguageModelSession(model: model).respond(to: "n", schema: schema).content
            #expect(try Double(content) == expected)
        }
    }

    @Test("bare booleans and strings decode too")
    func otherScalars() async throws {
        let model = ScriptedProvider([.text(["tr", "ue"])])
        #expect(try await LanguageModelSession(model: model).respond(to: "b", generating: Bool.self).content == true)
        let model2 = ScriptedProvider([.text(["\"hi", "\""])])
        #expect(try await LanguageModelSession(model: model2).respond(to: "s", generating: String.self).content == "hi")
    }

    @Test("a value the text leaves open is still cut off")
    func cutOff() async throws {
        for text in ["[1, 2", "\"abc", "{\"a\": 1", "-", "1."] {
            let model = ScriptedProvider([.text([text])])
            let session = LanguageModelSession(model: model)
            await #expect(throws: GeneratedContent.ParsingError.self) {
                try await session.respond(to: "n", schema: GeneratedContent.generationSchema)
            }
            #expect(session.transcript.isEmpty)
        }
    }
}
