import Foundation
import LMSession
import Testing

/// Apple 27's `ContextOptions` overloads: the options reach the model with the request.
@Suite struct ContextOptionsTests {
    struct City: GenerableSchema, Equatable {
        var name: String
    }

    @Test func everyOverloadHandsItsContextOptionsAndMetadataToTheModel() async throws {
        let json = #"{"name":"Oslo"}"#
        let model = ScriptedProvider([
            .text(["a"]), .text(["b"]), .text(["c"]), .text([json]), .text([json]), .text([json]),
            .text(["d"]), .text(["e"]), .text(["f"]), .text([json]), .text([json]), .text([json]),
        ])
        let session = LanguageModelSession(model: model)
        let deep = ContextOptions(reasoningLevel: .deep)
        let quiet = ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .custom("xhigh"))
        let schema = City.generationSchema

        #expect(try await session.respond(to: Prompt("p"), contextOptions: deep).content == "a")
        #expect(try await session.respond(to: "p", contextOptions: deep, metadata: ["user": "42"]).content == "b")
        #expect(try await session.respond(contextOptions: deep) { "p" }.content == "c")
        #expect(try await session.respond(to: "p", schema: schema, contextOptions: quiet).content.jsonString == json)
        #expect(try await session.respond(to: "p", generating: City.self, contextOptions: quiet).content == City(name: "Oslo"))
        #expect(try await session.respond(generating: City.self, contextOptions: deep) { "p" }.content.name == "Oslo")
        #expect(try await session.streamResponse(to: "p", contextOptions: deep).collect().content == "d")
        #expect(try await session.streamResponse(to: Prompt("p"), contextOptions: deep).collect().content == "e")
        #expect(try await session.streamResponse(contextOptions: deep) { "p" }.collect().content == "f")
        #expect(try await session.streamResponse(to: "p", schema: schema, contextOptions: quiet).collect().content.jsonString == json)
        #expect(try await session.streamResponse(to: "p", generating: City.self, contextOptions: deep).collect().content.name == "Oslo")
        #expect(try await session.streamResponse(generating: City.self, contextOptions: quiet) { "p" }.collect().content.name == "Oslo")

        let requests = model.requests
        #expect(requests.map(\.contextOptions.reasoningLevel) == [.deep, .deep, .deep, .custom("xhigh"), .custom("xhigh"), .deep,
                                                                 .deep, .deep, .deep, .custom("xhigh"), .deep, .custom("xhigh")])
        #expect(requests.map(\.includeSchemaInPrompt) == [false, false, false, false, false, true, false, false, false, false, true, false])
        #expect(requests[1].metadata["user"] as? String == "42")
        #expect(requests[0].metadata.isEmpty)
    }

    @Test func theLocalModelIgnoresTheReasoningLevel() async throws {
        let plain = try await LanguageModelSession(model: RealModel.model).respond(to: "Name a color.", options: RealModel.greedy(12))
        let deep = try await LanguageModelSession(model: RealModel.model)
            .respond(to: "Name a color.", options: RealModel.greedy(12), contextOptions: ContextOptions(reasoningLevel: .deep))
        #expect(deep.content == plain.content)
        #expect(deep.usage.input.totalTokenCount == plain.usage.input.totalTokenCount)
        #expect(deep.usage.output.reasoningTokenCount == 0)
    }
}
