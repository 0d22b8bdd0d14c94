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

    /// The prompt for each level, token by token (byte `b` is token `b`): the level's switch reaches the template as
    /// `enable_thinking`, as llama.cpp passes it, so the "off" spelling ends the prompt with Qwen3's empty block
    /// (`<|im_start|>assistant\n<think>\n\n</think>\n\n`) and the others leave the assistant turn open. llama-server
    /// b11312 renders the same texts for this GGUF (`POST /apply-template` with `chat_template_kwargs:
    /// {"enable_thinking": false}` and `true`; checked by hand).
    @Test(arguments: [(ContextOptions.ReasoningLevel?.none, false), (.deep, false), (.light, false), (.custom("none"), true), (.custom("off"), true)])
    func theLevelReachesTheTemplatesThinkingSwitch(_ level: ContextOptions.ReasoningLevel?, _ emptyBlock: Bool) throws {
        typealias M = TinyThinkingModel
        let model = SystemLanguageModel(path: try Self.url.get().path, contextSize: 512, threads: 1)
        let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Hi"))]))
        let tokens = try model.local.promptTokens(for: LanguageModelRequest(transcript: Transcript(entries: [prompt]),
                                                                         contextOptions: ContextOptions(reasoningLevel: level)))
        func bytes(_ text: String) -> [Int] { text.utf8.map(Int.init) }
        let expected = [M.imStart] + bytes("user\nHi") + [M.imEnd] + bytes("\n") + [M.imStart] + bytes("assistant\n")
            + (emptyBlock ? [M.think] + bytes("\n\n") + [M.thinkEnd] + bytes("\n\n") : [])
        #expect(tokens == expected)
    }

    static let opening = Result { try TinyThinkingModel.write(chatTemplate: TinyThinkingModel.openingTemplate) }

    /// A template that writes `<think>` into the prompt (DeepSeek-R1's, Qwen3-Thinking's) gets no second one: the
    /// response starts inside the block (3 reasoning tokens: "H", "m", `</think>`), also when a level would force it.
    @Test(arguments: [ContextOptions.ReasoningLevel?.none, .deep])
    func aBlockTheTemplateOpenedIsNotOpenedAgain(_ level: ContextOptions.ReasoningLevel?) async throws {
        let session = LanguageModelSession(model: try SystemLanguageModel(fileURL: Self.opening.get(), contextSize: 512, threads: 1))
        let response = try await session.respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: level))
        #expect(response.content == "OK")
        #expect(Self.reasoningTexts(response.transcriptEntries) == ["Hm"])
        #expect(response.usage.output.reasoningTokenCount == 3)
        #expect(response.usage.output.totalTokenCount == 5)
    }

    /// With the switch off the same template writes the empty block instead, and the model answers directly.
    @Test func theOpeningTemplatesEmptyBlockGetsADirectAnswer() async throws {
        let session = LanguageModelSession(model: try SystemLanguageModel(fileURL: Self.opening.get(), contextSize: 512, threads: 1))
        let response = try await session.respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: .custom("none")))
        #expect(response.content == "No")
        #expect(Self.reasoningTexts(response.transcriptEntries).isEmpty)
        #expect(response.usage.output.reasoningTokenCount == 0)
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
        func promptTokens(_ level: ContextOptions.ReasoningLevel) async throws -> Int {
            try await LanguageModelSession(model: try Self.model())
                .respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: level)).usage.input.totalTokenCount
        }
        // The "off" prompt ends with the template's empty block (6 tokens) that the "deep" one has not.
        let (offPrompt, deepPrompt) = (try await promptTokens(.custom("off")), try await promptTokens(.deep))
        #expect(offPrompt == deepPrompt + 6)
        // Room for the prompt and 3 more tokens: the answer alone ("No") fits, the 4-token block does not.
        let session = LanguageModelSession(model: try Self.model(contextSize: offPrompt + 3))
        let direct = try await session.respond(to: "Hi", options: Self.greedy, contextOptions: ContextOptions(reasoningLevel: .custom("off")))
        #expect(direct.content == "No")
        let tight = LanguageModelSession(model: try Self.model(contextSize: deepPrompt + 3))
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
        let missing = SystemLanguageModel(path: "/nonexistent/\(UUID().uuidString).gguf")
        #expect(!missing.capabilities.contains(.reasoning))
        #expect(missing.capabilities.contains(.toolCalling))
    }
}
