import Foundation
import LMSession
import Testing

/// Scenarios 9 and 10 on SmolLM2-135M: the local model calls tools through the grammar-constrained
/// `<tool_call>` envelope. Greedy and short, except the seed sweep, which stops after the tool-call round.
@Suite(.serialized) struct ToolRealModelTests {
    static func options(_ tokens: Int, _ mode: GenerationOptions.ToolCallingMode) -> GenerationOptions {
        GenerationOptions(samplingMode: .greedy, maximumResponseTokens: tokens, toolCallingMode: mode)
    }

    @Test func theWeatherToolIsCalledAndTheAnswerFollowsItsOutput() async throws {
        let weather = GetWeather()
        let session = LanguageModelSession(model: RealModel.model, tools: [weather],
                                           instructions: "Always call get_weather for questions about the weather.")
        let response = try await session.respond(to: "What should I wear in Moscow today?", options: Self.options(32, .required))

        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
        guard case .toolCalls(let calls) = session.transcript[2], case .toolOutput(let output) = session.transcript[3] else { return }
        #expect(calls.count == 1)
        #expect(calls.first?.toolName == "get_weather")
        let arguments = try GetWeather.Arguments(try #require(calls.first).arguments)
        #expect(weather.cities.values == [arguments.city])
        #expect(output.id == calls.first?.id)
        #expect(output.toolName == "get_weather")
        #expect(output.segments.map(\.description) == [#"{"temperatureC":-3,"condition":"snow"}"#])
        #expect(!response.content.isEmpty)
        #expect(!response.content.contains("<tool_call>"))
        // The second model call re-uses the first one's prompt from the KV cache.
        #expect(response.usage.input.cachedTokenCount > 0)
        print("weather: \(calls.map(\.description)) -> \(response.content)")
    }

    /// Tool calls do not count against `maximumResponseTokens`: a budget of 0 still makes a required call (the
    /// answer after it is then empty), as a budget of 1 does; it is never skipped silently.
    @Test func aRequiredCallIsMadeWithABudgetOfZero() async throws {
        let session = LanguageModelSession(model: RealModel.model, tools: [GetWeather()],
                                           instructions: "Always call get_weather for questions about the weather.")
        let response = try await session.respond(to: "What should I wear in Moscow today?", options: Self.options(0, .required))
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
        #expect(response.content == "")
    }

    @Test func theContactsToolGetsACountInItsRangeAndTheInviteFollows() async throws {
        let contacts = FindContacts()
        let session = LanguageModelSession(model: RealModel.model, tools: [contacts],
                                           instructions: "Use FindContacts to look up the user's contacts.")
        let response = try await session.respond(to: "Draft a dinner invite to three of my contacts.", options: Self.options(40, .required))

        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
        let counts = contacts.counts.values
        #expect(counts.count == 1)
        #expect(counts.allSatisfy { (1...10).contains($0) })
        #expect(!response.content.isEmpty)
        print("contacts: \(counts) -> \(response.content)")
    }

    @Test func overTwentySeedsEveryRequiredCallNamesAToolAndItsArgumentsDecode() async throws {
        let session = LanguageModelSession(model: RealModel.model, tools: [GetWeather(), FindContacts()],
                                           instructions: "Use the tools to answer.")
        // No round may run: each request ends with its first round's calls in the error, before any tool runs,
        // and rolls back, so the next seed re-uses the cached prompt.
        session.maximumToolCallRounds = 0
        let start = ContinuousClock.now
        defer { print("seed sweep: \(ContinuousClock.now - start)") }
        var decoded = 0
        var names: [String: Int] = [:]
        var made: [String] = []
        for seed in 0..<20 {
            let options = GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9, seed: UInt64(seed)), temperature: 0.7,
                                            maximumResponseTokens: 8, toolCallingMode: .required)
            let prompt = seed.isMultiple(of: 2) ? "Is it cold in Oslo?" : "Invite four of my contacts to lunch."
            do {
                try await session.respond(to: prompt, options: options)
                Issue.record("seed \(seed): no tool call")
            } catch let error as LanguageModelSession.ToolCallRoundLimitError {
                #expect(!error.toolCalls.isEmpty)
                for call in error.toolCalls {
                    names[call.toolName, default: 0] += 1
                    made.append(call.description)
                    switch call.toolName {
                    case "get_weather": _ = try GetWeather.Arguments(call.arguments)
                    case "FindContacts": #expect((1...10).contains(try FindContacts.Arguments(call.arguments).count))
                    default: Issue.record("seed \(seed): unknown tool \(call.toolName)")
                    }
                    decoded += 1
                }
            }
            #expect(session.transcript.count == 1, "the refused round rolls back")
        }
        #expect(decoded >= 20)
        print("seed sweep calls: \(made)")
        print("seed sweep: \(decoded) calls decoded, by tool: \(names); usage \(session.usage.input.totalTokenCount) in (\(session.usage.input.cachedTokenCount) cached), \(session.usage.output.totalTokenCount) out")
    }

    @Test func disallowedToolCallingAnswersWithoutCalls() async throws {
        let weather = GetWeather()
        let session = LanguageModelSession(model: RealModel.model, tools: [weather],
                                           instructions: "Always call get_weather for questions about the weather.")
        let response = try await session.respond(to: "What should I wear in Moscow today?", options: Self.options(24, .disallowed))

        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "response"])
        #expect(weather.cities.values.isEmpty)
        #expect(!response.content.contains("<tool_call>"))
    }

    @Test func toolDefinitionsAreCountedInTheInstructionsAndAgainstTheContextWindow() async throws {
        let tools: [any Tool] = [GetWeather(), FindContacts()]
        let session = LanguageModelSession(model: RealModel.model, tools: tools, instructions: "Be brief.")
        let withTools = try await RealModel.model.tokenCount(for: session.transcript)
        let instructions = try await RealModel.model.tokenCount(for: Instructions("Be brief."))
        let definitions = try await RealModel.model.tokenCount(for: tools)
        #expect(definitions > 100)
        #expect(withTools == instructions + definitions)

        // A window that holds the request without the tools but not with them.
        let small = SystemLanguageModel(path: RealModel.path, contextSize: instructions + 40)
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 1)
        _ = try await LanguageModelSession(model: small, instructions: "Be brief.").respond(to: "Hi.", options: options)
        do {
            try await LanguageModelSession(model: small, tools: tools, instructions: "Be brief.").respond(to: "Hi.", options: options)
            Issue.record("the tools fit")
        } catch LanguageModelError.contextSizeExceeded {}
    }
}
