import Foundation
import LMSession
import Synchronization
import Testing

/// Profiles switching between calls: the next model call runs on the new profile's model with the same
/// transcript; activation, prompt, tool and response callbacks run in order; settings reach the request.
@Suite struct ProfileSwitchTests {
    /// Hands the conversation to the expert profile.
    struct Escalate: Tool {
        let name = "escalate"
        let description = "Hands the question to the expert."
        let state: Flags
        struct Arguments: GenerableSchema {}
        func call(arguments: Arguments) async throws -> String {
            state["expert"] = true
            return "escalated"
        }
    }

    /// Triage on a fast model, which may escalate to an expert profile on a smart model.
    struct Routing: LanguageModelSession.DynamicProfile {
        let state: Flags
        let fast: ScriptedProvider
        let smart: ScriptedProvider
        let log: Log<String>

        var body: some LanguageModelSession.DynamicProfile {
            Roles(state: state, fast: fast, smart: smart, log: log)
                .onResponse { _ in log.append("outer response") }
        }
    }

    struct Roles: LanguageModelSession.DynamicProfile {
        let state: Flags
        let fast: ScriptedProvider
        let smart: ScriptedProvider
        let log: Log<String>

        var body: some LanguageModelSession.DynamicProfile {
            if state["expert"] {
                Profile { Instructions("You are the expert.") }
                    .model(smart)
                    .maximumResponseTokens(384)
                    .onActivate { log.append("activate expert") }
                    .onDeactivate { log.append("deactivate expert") }
                    .onPrompt { prompt in log.append("prompt expert: \(prompt.segments.map(\.description).joined())") }
                    .onResponse { response in log.append("response expert: \(response.segments.map(\.description).joined())") }
            } else {
                Profile {
                    Instructions("You triage questions.")
                    Escalate(state: state)
                }
                .model(fast)
                .onActivate { log.append("activate triage") }
                .onDeactivate { log.append("deactivate triage") }
                .onPrompt { prompt in log.append("prompt triage: \(prompt.segments.map(\.description).joined())") }
                .onToolCall { call in log.append("tool call \(call.toolName)") }
                .onToolOutput { call, output in log.append("tool output \(call.toolName): \(output.segments.map(\.description).joined())") }
                .onResponse { log.append("response triage") }
            }
        }
    }

    static func escalation() throws -> Transcript.ToolCall {
        Transcript.ToolCall(id: "e1", toolName: "escalate", arguments: try GeneratedContent(json: "{}"))
    }

    @Test func aProfileSwitchDuringARequestRunsTheNextModelCallOnTheNewModelWithTheSameTranscript() async throws {
        let state = Flags()
        let fast = ScriptedProvider([.toolCalls([try Self.escalation()]), .text(["Quick answer."])])
        let smart = ScriptedProvider([.text(["Deep ", "answer."])])
        let log = Log<String>()
        let session = LanguageModelSession(profile: Routing(state: state, fast: fast, smart: smart, log: log))

        let first = try await session.respond(to: "Why is the sky blue?")
        #expect(first.content == "Deep answer.")
        #expect(fast.requests.count == 1)
        #expect(smart.requests.count == 1)
        let handedOver = smart.requests[0]
        #expect(handedOver.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput"])
        #expect(instructionTexts(handedOver) == ["You are the expert."])
        #expect(handedOver.toolDefinitions.isEmpty, "the expert profile has no tools")
        #expect(handedOver.options.maximumResponseTokens == 384)
        #expect(fast.requests[0].toolDefinitions.map(\.name) == ["escalate"])
        #expect(log.values == [
            "activate triage", "prompt triage: Why is the sky blue?", "tool call escalate", "tool output escalate: escalated",
            "deactivate triage", "activate expert", "response expert: Deep answer.", "outer response",
        ])

        state["expert"] = false
        let second = try await session.respond(to: "And at sunset?")
        #expect(second.content == "Quick answer.")
        #expect(fast.requests.count == 2)
        #expect(fast.requests[1].transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response", "prompt"],
                "the fast model continues the transcript the smart model answered")
        #expect(Array(log.values.suffix(5)) == ["deactivate expert", "activate triage", "prompt triage: And at sunset?", "response triage", "outer response"])
        #expect(fast.executorsMade.load(ordering: .relaxed) == 1, "one executor per model configuration, kept across switches")
        #expect(smart.executorsMade.load(ordering: .relaxed) == 1)
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response", "prompt", "response"])
    }

    @Test func everySettingOfTheProfileReachesTheRequestAndTheInnermostWins() async throws {
        struct Settings: LanguageModelSession.DynamicProfile {
            let model: ScriptedProvider
            let resetsTemperature: Bool
            var body: some LanguageModelSession.DynamicProfile {
                Inner(resetsTemperature: resetsTemperature)
                    .temperature(0.5)
                    .samplingMode(.greedy)
                    .reasoningLevel(.light)
                    .toolCallingMode(.disallowed)
                    .model(model)
            }
        }
        struct Inner: LanguageModelSession.DynamicProfile {
            let resetsTemperature: Bool
            var body: some LanguageModelSession.DynamicProfile {
                if resetsTemperature {
                    Profile { Instructions("A") }.temperature(nil)
                } else {
                    Profile { Instructions("B") }
                        .samplingMode(.random(top: 5, seed: 9))
                        .maximumResponseTokens(12)
                        .reasoningLevel(.custom("xhigh"))
                }
            }
        }
        let model = ScriptedProvider([])
        try await LanguageModelSession(profile: Settings(model: model, resetsTemperature: false)).respond(to: "x")
        try await LanguageModelSession(profile: Settings(model: model, resetsTemperature: true)).respond(to: "x")
        try await LanguageModelSession(profile: Settings(model: model, resetsTemperature: false))
            .respond(to: "x", options: GenerationOptions(samplingMode: .greedy, toolCallingMode: .required),
                     contextOptions: ContextOptions(reasoningLevel: .moderate))

        let requests = model.requests
        #expect(requests.map(\.options.temperature) == [0.5, nil, 0.5], "`.temperature(nil)` inside resets the default")
        #expect(requests.map(\.options.samplingMode) == [.random(top: 5, seed: 9), .greedy, .greedy])
        #expect(requests.map(\.options.maximumResponseTokens) == [12, nil, 12])
        #expect(requests.map(\.contextOptions.reasoningLevel) == [.custom("xhigh"), .light, .moderate])
        #expect(requests.map(\.options.toolCallingMode) == [.disallowed, .disallowed, .required])
    }

    @Test func aHistoryTransformChangesWhatTheModelSeesNotTheTranscript() async throws {
        struct Recent: LanguageModelSession.DynamicProfile {
            let model: ScriptedProvider
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("Be brief.") }
                    .historyTransform { history in Array(history.suffix(1)) }
                    .model(model)
            }
        }
        let model = ScriptedProvider([.text(["one"]), .text(["two"])])
        let session = LanguageModelSession(profile: Recent(model: model))
        try await session.respond(to: "first")
        try await session.respond(to: "second")
        let sent = model.requests[1].transcript
        #expect(sent.map(\.kindLabel) == ["instructions", "prompt"])
        #expect(sent.last?.description.contains("second") == true)
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "response", "prompt", "response"])
    }

    struct Refused: Error, Equatable {}

    @Test(arguments: [
        (profile: nil, session: nil, kept: ["instructions"]),
        (profile: TranscriptErrorHandlingPolicy.preserveTranscript, session: nil, kept: ["instructions", "prompt"]),
        (profile: .revertTranscript, session: .preserveTranscript, kept: ["instructions"]),
        (profile: nil, session: .preserveTranscript, kept: ["instructions", "prompt"]),
    ] as [(profile: TranscriptErrorHandlingPolicy?, session: TranscriptErrorHandlingPolicy?, kept: [String])])
    func aThrowingCallbackFailsTheRequestAndTheProfilesPolicyWinsOverTheSessions(
        profile: TranscriptErrorHandlingPolicy?, session policy: TranscriptErrorHandlingPolicy?, kept: [String]
    ) async throws {
        struct Guarded: LanguageModelSession.DynamicProfile {
            let model: ScriptedProvider
            let policy: TranscriptErrorHandlingPolicy?
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("Answer.") }
                    .onResponse { (_: Transcript.Response) in throw Refused() }
                    .transcriptErrorHandlingPolicy(policy)
                    .model(model)
            }
        }
        let session = LanguageModelSession(profile: Guarded(model: ScriptedProvider([]), policy: profile))
        session.transcriptErrorHandlingPolicy = policy
        await #expect(throws: Refused.self) { try await session.respond(to: "hi") }
        #expect(session.transcript.map(\.kindLabel) == kept, "no response entry either way")
        #expect(!session.isResponding)
    }

    @Test func onPromptRunsBeforeTheModelIsCalledAndItsErrorFailsTheRequest() async throws {
        struct NoPrompts: LanguageModelSession.DynamicProfile {
            let model: ScriptedProvider
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("Answer.") }
                    .onPrompt { throw Refused() }
                    .model(model)
            }
        }
        let model = ScriptedProvider([])
        let blocked = LanguageModelSession(profile: NoPrompts(model: model))
        await #expect(throws: Refused.self) { try await blocked.respond(to: "hi") }
        #expect(model.requests.isEmpty, "onPrompt runs before the model is called")
        #expect(blocked.transcript.map(\.kindLabel) == ["instructions"])
    }

    /// A model that reasons once, then answers.
    struct Reasoner: LanguageModel {
        var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([.reasoning]) }
        var executorConfiguration: Executor.Configuration { .init() }

        struct Executor: LanguageModelExecutor {
            struct Configuration: Hashable, Sendable {}
            init(configuration: Configuration) {}
            func respond(to request: LanguageModelExecutorGenerationRequest, model: Reasoner,
                         streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
                await channel.send(.reasoning(entryID: nil, action: .appendText("Two and two make four.", tokenCount: 1)))
                await channel.send(.response(entryID: "answer", action: .appendText("4", tokenCount: 1)))
            }
        }
    }

    @Test func onReasoningSeesEachReasoningEntryBeforeTheResponse() async throws {
        struct Thinking: LanguageModelSession.DynamicProfile {
            let log: Log<String>
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("Think first.") }
                    .onReasoning { reasoning in log.append("reasoning: \(reasoning.segments.map(\.description).joined())") }
                    .onResponse { log.append("response") }
                    .model(Reasoner())
            }
        }
        let log = Log<String>()
        let session = LanguageModelSession(profile: Thinking(log: log))
        #expect(try await session.respond(to: "2 + 2?").content == "4")
        #expect(log.values == ["reasoning: Two and two make four.", "response"])
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "reasoning", "response"])
    }

    @Test func theActiveProfilesModelIsCheckedBeforeItsCallAndARefusedRequestLeavesTheTranscript() async throws {
        struct Unready: LanguageModelSession.DynamicProfile {
            let model: ScriptedProvider
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("Answer.") }
                    .transcriptErrorHandlingPolicy(.preserveTranscript)
                    .model(model)
            }
        }
        let model = ScriptedProvider([], availability: .unavailable(.modelNotReady))
        let session = LanguageModelSession(profile: Unready(model: model))
        await #expect(throws: SystemLanguageModel.Error.self) { try await session.respond(to: "hi") }
        #expect(model.requests.isEmpty)
        #expect(session.transcript.map(\.kindLabel) == ["instructions"], "refused before the prompt joined the transcript")

        await #expect(throws: GenerationOptions.InvalidOptionError.self) {
            try await LanguageModelSession(profile: Unready(model: ScriptedProvider([])).temperature(-1)).respond(to: "hi")
        }
    }

    @Test func historyGoesAfterTheProfilesInstructions() async throws {
        let history: [Transcript.Entry] = [
            .prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Hi"))])),
            .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: "Hello"))])),
        ]
        struct Simple: LanguageModelSession.DynamicProfile {
            let model: ScriptedProvider
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("Be kind.") }.model(model)
            }
        }
        let model = ScriptedProvider([])
        let session = LanguageModelSession(profile: Simple(model: model), history: history)
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "response"])
        try await session.respond(to: "Bye")
        #expect(model.requests[0].transcript.map(\.kindLabel) == ["instructions", "prompt", "response", "prompt"])
    }
}
