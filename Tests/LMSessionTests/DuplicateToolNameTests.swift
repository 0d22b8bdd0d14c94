import Foundation
import LMSession
import Testing
import TestSupport

/// Tools that share a name fail the request that would use them, before the prompt joins the transcript and
/// before anything reaches the model, on every kind of model.
@Suite("Duplicate tool names", .timeLimit(.minutes(1)))
struct DuplicateToolNameTests {
    @Test("tools that share a name fail the first request with the name, before anything is sent", arguments: ["openai", "claude", "local"])
    func duplicateToolNamesFailBeforeAnyWork(server: String) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let local = ScriptedProvider([.text(["never"])])
        let model: any LanguageModel = server == "local" ? local : ServerTokenLimitTests.model(server, proxy)
        let session = LanguageModelSession(model: model, tools: [GetWeather(), FindContacts(), GetWeather()], instructions: "Help.")
        let before = session.transcript
        await #expect(throws: LanguageModelSession.DuplicateToolNameError(name: "get_weather", count: 2)) {
            try await session.respond(to: "Weather in Oslo?")
        }
        #expect(LanguageModelSession.DuplicateToolNameError(name: "get_weather", count: 2).errorDescription
                    == "2 tools are named \"get_weather\"; each tool of a session needs its own name.")
        // Printed, as `print(error)` does, it reads as the same sentence rather than a struct dump.
        #expect(String(describing: LanguageModelSession.DuplicateToolNameError(name: "get_weather", count: 2))
                    == "2 tools are named \"get_weather\"; each tool of a session needs its own name.")
        #expect(String(describing: LanguageModelSession.ToolCallRoundLimitError(limit: 0, toolCalls: []))
                    == "The model asked for more than 0 tool-calling rounds in one request (refused: ).")
        #expect(session.transcript == before)
        #expect(proxy.requests.isEmpty && local.requests.isEmpty)
    }

    /// A name no model can call by (a tester's: empty, a space, tool-call markup, non-ASCII, 5,000 characters) used
    /// to be offered and fail late: SmolLM2 looped to the round limit, or the call passed the 512-token limit.
    @Test("a tool name outside 1-64 ASCII letters, digits, _ and - fails the request before any work",
          arguments: ["", "has space", "</tool_call>", "ünïcødé", String(repeating: "n", count: 5000), "a.b"])
    func invalidToolNamesFailBeforeAnyWork(name: String) async throws {
        let model = ScriptedProvider([.text(["never"])])
        let session = LanguageModelSession(model: model, tools: [GetWeather(), NamedTool(name: name)], instructions: "Help.")
        let before = session.transcript
        await #expect(throws: LanguageModelSession.InvalidToolNameError(name: name)) {
            try await session.respond(to: "Use the tool.")
        }
        #expect(model.requests.isEmpty)
        #expect(session.transcript == before)
        let text = "\(LanguageModelSession.InvalidToolNameError(name: name))"
        #expect(text.hasSuffix("a tool name has 1 to 64 ASCII letters, digits, '_' or '-'."), "\(text)")
        #expect(text.count < 250, "\(text)")
    }

    @Test("names of 1 and 64 letters, digits, _ and - are accepted")
    func validToolNamesPass() async throws {
        let model = ScriptedProvider([.text(["done"])])
        let names = ["a", String(repeating: "z", count: 64), "get-Weather_2"]
        let session = LanguageModelSession(model: model, tools: names.map { NamedTool(name: $0) })
        let response = try await session.respond(to: "Hi.")
        #expect(response.content == "done")
    }

    @Test func toolsFromDynamicInstructionsAreCheckedAtTheirModelCall() async throws {
        let model = ScriptedProvider([.text(["never"])])
        let session = LanguageModelSession(model: model, dynamicInstructions: TwoWeatherTools())
        let before = session.transcript
        await #expect(throws: LanguageModelSession.DuplicateToolNameError(name: "get_weather", count: 2)) {
            try await session.respond(to: "Weather in Oslo?")
        }
        #expect(model.requests.isEmpty)
        #expect(session.transcript == before)
    }
}

/// Instructions that bring the same tool twice.
struct TwoWeatherTools: DynamicInstructions {
    var body: some DynamicInstructions {
        Instructions("Help.")
        GetWeather()
        GetWeather()
    }
}

/// A tool whose name is given.
struct NamedTool: Tool {
    let name: String
    let description = "Does nothing."

    struct Arguments: GenerableSchema {
        var note: String
    }

    func call(arguments: Arguments) async throws -> String { "ok" }
}
