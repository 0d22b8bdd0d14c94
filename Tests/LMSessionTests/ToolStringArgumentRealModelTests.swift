import Foundation
import LMSession
import Testing

/// A required call whose string argument is fixed to text that looks like the call's end (`}}`, `}]`,
/// `</tool_call>`): the real model writes it, in a response and in a stream, and the tool gets it as it is.
@Suite(.serialized) struct ToolStringArgumentRealModelTests {
    /// A tool `run` whose one argument `code` is guided to `constant`; records what it was called with.
    struct Run: Tool {
        typealias Arguments = GeneratedContent
        let name = "run"
        let description = "Runs a snippet of code."
        let constant: String
        let received = Log<String>()

        var parameters: GenerationSchema {
            GenerationSchema(type: GeneratedContent.self, properties: [
                .init(name: "code", description: "The code to run", type: String.self, guides: [.constant(constant)]),
            ])
        }

        func call(arguments: GeneratedContent) async throws -> String {
            received.append(try arguments.value(String.self, forProperty: "code"))
            return "done"
        }
    }

    static let constants = ["}}", "}]", "]]", "]}", "</tool", #"x"}]</tool_call>"#, #"{"a":[1]}"#, "if (x) { return y; }}"]

    @Test(arguments: constants, [false, true])
    func aRequiredCallWritesAnArgumentThatLooksLikeTheCallsEnd(constant: String, streamed: Bool) async throws {
        let tool = Run(constant: constant)
        let session = LanguageModelSession(model: RealModel.model, tools: [tool], instructions: "Use run to run code.")
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4, toolCallingMode: .required)
        if streamed {
            for try await _ in session.streamResponse(to: "Run my snippet.", options: options) {}
        } else {
            _ = try await session.respond(to: "Run my snippet.", options: options)
        }
        #expect(tool.received.values == [constant])
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
    }
}
