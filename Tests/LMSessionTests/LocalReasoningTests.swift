import Foundation
import LMSession
import Testing

/// Reasoning on a local GGUF with a thinking switch (Qwen3's `<think>…</think>`), through a real forward pass
/// of ``TinyThinkingModel``, whose weights make it write `<think>Hm</think>OK` (or `No` when `<think>` is refused).
@Suite struct LocalReasoningTests {
    static let url = Result { try TinyThinkingModel.write() }

    static func model(contextSize: Int = 512) throws -> SystemLanguageModel {
        try SystemLanguageModel(fileURL: url.get(), contextSize: contextSize, threads: 1)
    }

    static let greedy = GenerationOptions(sampling: .greedy)

    static func reasoningTexts(_ entries: some Sequence<Transcript.Entry>) -> [String] {
        entries.compactMap { entry -> String? in
            guard case .reasoning(let reasoning) = entry else { return nil }
            return reasoning.segments.map { if case .text(let t) = $0 { t.content } else { "" } }.joined()
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        let level: ContextOptions.ReasoningLevel?
        let content: String
        let reasoning: [String]
        /// `<think>`, `H`, `m`, `</think>`, or none.
        let reasoningTokens: Int
        let outputTokens: Int
        var description: String { level.map { "\($0)" } ?? "nil" }
    }

    static let cases: [Case] = [
        // The model opens the block itself (its template's default is to think).
        Case(level: nil, content: "OK", reasoning: ["Hm"], reasoningTokens: 4, outputTokens: 6),
        // A level forces the block open (the same tokens here, as this model would open it anyway).
        Case(level: .deep, content: "OK", reasoning: ["Hm"], reasoningTokens: 4, outputTokens: 6),
        Case(level: .light, content: "OK", reasoning: ["Hm"], reasoningTokens: 4, outputTokens: 6),
        // The "off" spelling refuses <think>: the runner-up "N" starts a direct answer.
        Case(level: .custom("none"), content: "No", reasoning: [], reasoningTokens: 0, outputTokens: 2),
    ]

    @Test(arguments: cases)
    func reasoningBecomesAnEntryAndNeverContent(_ c: Case) async throws {
        let session = LanguageModelSession(model: try Self.model())
        let response = try await session.respond(to: "Hi", options: Self.greedy,
                                                 contextOptions: ContextOptions(reasoningLevel: c.level))
        #expect(response.content == c.content)
        #expect(Self.reasoningTexts(response.transcriptEntries) == c.reasoning)
        #expect(response.usage.output.reasoningTokenCount == c.reasoningTokens)
        #expect(response.usage.output.totalTokenCount == c.outputTokens)
        // Entries: prompt, [reasoning,] response, in that order.
        let kinds = response.transcriptEntries.map { entry -> String in
            switch entry {
            case .prompt: "prompt"
            case .reasoning: "reasoning"
            case .response: "response"
            default: "other"
            }
        }
        #expect(kinds == (c.reasoning.isEmpty ? ["prompt", "response"] : ["prompt", "reasoning", "response"]))
    }

    @Test func streamedSnapshotsNeverShowTheReasoning() async throws {
        let session = LanguageModelSession(model: try Self.model())
        var seen: [String] = []
        for try await snapshot in session.streamResponse(to: "Hi", options: Self.greedy,
                                                         contextOptions: ContextOptions(reasoningLevel: .moderate)) {
            seen.append(snapshot.content)
        }
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { "OK".hasPrefix($0) })
        #expect(seen.last == "OK")
        #expect(Self.reasoningTexts(session.transcript) == ["Hm"])
    }

    @Test func sessionUsageAddsReasoningTokensAndTheNextPromptLeavesThemOut() async throws {
        let session = LanguageModelSession(model: try Self.model())
        let first = try await session.respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: .deep))
        let second = try await session.respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: .deep))
        #expect(session.usage.output.reasoningTokenCount == 8)
        #expect(session.usage.output.totalTokenCount == 12)
        // The second prompt adds the first answer without its reasoning ("OK<|im_end|>\n", 4 tokens, after the
        // first prompt's "<|im_start|>assistant\n"), the user turn "<|im_start|>user\nHi<|im_end|>\n" (10) and the
        // assistant opening again (11): 25. With the reasoning it would be 6 more.
        #expect(second.usage.input.totalTokenCount - first.usage.input.totalTokenCount == 25)
        #expect(Self.reasoningTexts(session.transcript) == ["Hm", "Hm"])
    }

    @Test func reasoningCountsAgainstTheContextWindow() async throws {
        let probe = try await LanguageModelSession(model: try Self.model())
            .respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: .custom("off")))
        let promptTokens = probe.usage.input.totalTokenCount
        // Room for the prompt and 3 more tokens: the answer alone ("No") would fit, the 4-token block does not.
        let session = LanguageModelSession(model: try Self.model(contextSize: promptTokens + 3))
        let direct = try await session.respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: .custom("off")))
        #expect(direct.content == "No")
        let tight = LanguageModelSession(model: try Self.model(contextSize: promptTokens + 3))
        await #expect(throws: LanguageModelError.self) {
            try await tight.respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: .deep))
        }
    }

    @Test func maximumResponseTokensBoundsTheAnswerNotTheReasoning() async throws {
        let session = LanguageModelSession(model: try Self.model())
        let response = try await session.respond(to: "Hi", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 1),
                                                 contextOptions: ContextOptions(reasoningLevel: .deep))
        #expect(response.content == "O")
        #expect(Self.reasoningTexts(response.transcriptEntries) == ["Hm"])
        #expect(response.usage.output.reasoningTokenCount == 4)
    }
}

@Suite struct LocalReasoningCapabilityTests {
    @Test func aModelWithThinkTokensAdvertisesReasoning() throws {
        let capabilities = try LocalReasoningTests.model().capabilities
        #expect(capabilities.contains(.reasoning) && capabilities.contains(.guidedGeneration) && capabilities.contains(.toolCalling))
    }

    @Test func aModelThatDoesNotLoadDoesNot() {
        let missing = SystemLanguageModel(provider: LocalTransformerProvider(path: "/nonexistent/\(UUID().uuidString).gguf"))
        #expect(!missing.capabilities.contains(.reasoning))
        #expect(missing.capabilities.contains(.toolCalling))
    }
}
