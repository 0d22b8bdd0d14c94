import Foundation
import LMSession
import Testing
import TestSupport

/// `usage.output.reasoningTokenCount` from an OpenAI-compatible server's `completion_tokens_details.reasoning_tokens`.
@Suite("OpenAI-compatible reasoning usage", .timeLimit(.minutes(1)))
struct OpenAIReasoningUsageTests {
    /// The usage chunk of a reasoning model: `reasoning` of the `completion` tokens were spent thinking.
    static func usage(prompt: Int, completion: Int, reasoning: Int) -> Data {
        OpenAIStreams.event(#"{"choices":[],"object":"chat.completion.chunk","usage":{"completion_tokens":\#(completion),"prompt_tokens":\#(prompt),"total_tokens":\#(prompt + completion),"completion_tokens_details":{"reasoning_tokens":\#(reasoning)}}}"#)
    }

    @Test func reasoningTokensAreReportedPerResponseAndAddUpInTheSession() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [OpenAIStreams.delta("Four."), OpenAIStreams.finish("stop"),
                                       Self.usage(prompt: 20, completion: 70, reasoning: 64), OpenAIStreams.done]))
        proxy.enqueue(.stream(chunks: [OpenAIStreams.delta("Nine."), OpenAIStreams.finish("stop"),
                                       Self.usage(prompt: 30, completion: 41, reasoning: 37), OpenAIStreams.done]))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        let first = try await session.respond(to: "2+2?", options: GenerationOptions(), contextOptions: ContextOptions(reasoningLevel: .deep))
        #expect(first.content == "Four.")
        #expect(first.usage.output == .init(totalTokenCount: 70, reasoningTokenCount: 64))
        let second = try await session.respond(to: "3*3?")
        #expect(second.usage.output == .init(totalTokenCount: 41, reasoningTokenCount: 37))
        #expect(session.usage.output == .init(totalTokenCount: 111, reasoningTokenCount: 101))
    }

    @Test func aServerThatSaysNothingReportsNoReasoning() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["Hi"], prompt: 5, cached: 0, completion: 1)))
        let response = try await LanguageModelSession(model: OpenAIStreams.model(proxy)).respond(to: "Hello")
        #expect(response.usage.output == .init(totalTokenCount: 1, reasoningTokenCount: 0))
    }
}
