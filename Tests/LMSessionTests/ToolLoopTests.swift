import Foundation
import LMSession
import Testing

/// Returns the contacts it is asked for; counts its calls.
struct FindContacts: Tool {
    let description = "Finds the user's contacts."
    var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, description: "How many contacts", anyOf: ["1", "2", "3"]) }

    func call(arguments: GeneratedContent) async throws -> String {
        "Ada, Bob, Cy for \(arguments.jsonString)"
    }
}

struct BrokenTool: Tool {
    struct Offline: Error {}
    let name = "getWeather"
    let description = "Weather for a city."
    let includesSchemaInInstructions = false
    var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, anyOf: ["Moscow"]) }

    func call(arguments: GeneratedContent) async throws -> String { throw Offline() }
}

@Suite struct ToolLoopTests {
    static func call(_ id: String, _ name: String, _ json: String) throws -> Transcript.ToolCall {
        Transcript.ToolCall(id: id, toolName: name, arguments: try GeneratedContent(json: json))
    }

    @Test func toolCallsRunAndTheirOutputsGoBackToTheModelWithTheCallIDs() async throws {
        let calls = [try Self.call("c1", "FindContacts", #"{"count":3}"#), try Self.call("c2", "FindContacts", #"{"count":1}"#)]
        let (model, provider) = SystemLanguageModel.scripted([.toolCalls(calls), .text(["Dear Ada, Bob and Cy"])])
        let session = LanguageModelSession(model: model, tools: [FindContacts()], instructions: "Use tools.")
        let response = try await session.respond(to: "Invite three contacts.")

        #expect(response.content == "Dear Ada, Bob and Cy")
        #expect(response.transcriptEntries.count == 5)
        let kinds = session.transcript.map { entry -> String in
            switch entry {
            case .instructions: "instructions"
            case .prompt: "prompt"
            case .toolCalls: "toolCalls"
            case .toolOutput(let output): "toolOutput \(output.id): \(output.segments.map(\.description).joined())"
            case .response: "response"
            }
        }
        #expect(kinds == ["instructions", "prompt", "toolCalls",
                          #"toolOutput c1: Ada, Bob, Cy for {"count":3}"#, #"toolOutput c2: Ada, Bob, Cy for {"count":1}"#, "response"])
        #expect(provider.requests.count == 2)
        #expect(provider.requests[1].transcript.count == 5, "the second step sees the calls and outputs")
        #expect(provider.requests[0].toolDefinitions.map(\.name) == ["FindContacts"])
    }

    @Test func aThrowingToolEndsTheRequestWithToolCallErrorAndRollsBack() async throws {
        let (model, _) = SystemLanguageModel.scripted([.toolCalls([try Self.call("w", "getWeather", #"{"city":"Moscow"}"#)])])
        let session = LanguageModelSession(model: model, tools: [BrokenTool()])
        #expect(session.transcript.isEmpty, "a tool that keeps its schema out of the instructions adds no instructions entry")
        do {
            try await session.respond(to: "What should I wear in Moscow today?")
            Issue.record("no error")
        } catch let error as LanguageModelSession.ToolCallError {
            #expect(error.tool.name == "getWeather")
            #expect(error.underlyingError is BrokenTool.Offline)
        }
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)
    }

    @Test func anUnknownToolNameIsReportedToTheModel() async throws {
        let (model, provider) = SystemLanguageModel.scripted([.toolCalls([try Self.call("x", "teleport", "{}")]), .text(["Sorry."])])
        let session = LanguageModelSession(model: model, tools: [FindContacts()])
        try await session.respond(to: "Beam me up.")
        guard case .toolOutput(let output) = provider.requests[1].transcript.last else { Issue.record("no output"); return }
        #expect(output.segments.map(\.description) == [#"There is no tool named "teleport". Available tools: FindContacts."#])
    }

    @Test func instructionsListOnlyToolsThatIncludeTheirSchema() {
        let (model, _) = SystemLanguageModel.scripted([])
        let session = LanguageModelSession(model: model, tools: [FindContacts(), BrokenTool()], instructions: "Hi")
        guard case .instructions(let instructions) = session.transcript.first else { Issue.record("no instructions"); return }
        #expect(instructions.toolDefinitions.map(\.name) == ["FindContacts"])
        #expect(instructions.toolDefinitions.first?.description == "Finds the user's contacts.")
    }
}
