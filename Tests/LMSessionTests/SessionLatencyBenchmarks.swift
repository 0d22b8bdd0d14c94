import Foundation
import Testing
import LMSession
import TestSupport

// Latency as a server sees it, run only with LMSESSION_BENCH=1 in a release build:
//   LMSESSION_BENCH=1 swift test -c release --filter SessionLatencyBenchmarks
// Prints figures; asserts only that the measured requests really ran (token counts).

private let benchEnabled = ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"

@Suite("Session latency benchmarks (LMSESSION_BENCH=1)", .serialized, .enabled(if: benchEnabled))
struct SessionLatencyBenchmarks {
    static let url = URL(fileURLWithPath: RealModel.path)

    /// A user turn that the chat template renders, with SmolLM2's default system turn, to about 100 tokens.
    static let chatPrompt = """
        I run a small bakery and want to post a short note for customers. Our opening hours change \
        next week: Monday to Friday we open at seven and close at six, Saturday we open at eight and \
        close at two, and we are closed on Sunday. Please write two friendly sentences announcing this, \
        and mention that the sourdough will be available every day.
        """

    /// Seconds from `start` to the first snapshot of `stream`; drains the stream.
    static func firstElementSeconds(_ stream: LanguageModelSession.ResponseStream<String>, since start: Date) async throws -> Double {
        var first = Double.nan
        for try await _ in stream where first.isNaN { first = Date().timeIntervalSince(start) }
        return first
    }

    @Test("loading a warm model file to its first token, and time to first token of a 100-token chat prompt")
    func latency() async throws {
        _ = try SystemLanguageModel(fileURL: Self.url)  // page cache warm, as for a server restart
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 1)
        var load: [Double] = [], ttft: [Double] = []
        var promptTokens = 0
        for _ in 0..<3 {
            let t0 = Date()
            let model = try SystemLanguageModel(fileURL: Self.url)
            let first = try await LanguageModelSession(model: model).respond(to: "Hi", options: options)
            load.append(Date().timeIntervalSince(t0))
            #expect(first.usage.output.totalTokenCount == 1)

            let session = LanguageModelSession(model: model)
            let t1 = Date()
            let stream = session.streamResponse(to: Self.chatPrompt, options: options)
            ttft.append(try await Self.firstElementSeconds(stream, since: t1))
            promptTokens = session.usage.input.totalTokenCount
        }
        #expect(promptTokens >= 90 && promptTokens <= 130, "chat prompt rendered to \(promptTokens) tokens")
        print(String(format: "bench session: load + first token %.1f ms (best %.1f); TTFT of a %d-token chat prompt %.1f ms (best %.1f)",
                     1000 * load.reduce(0, +) / 3, 1000 * (load.min() ?? 0), promptTokens,
                     1000 * ttft.reduce(0, +) / 3, 1000 * (ttft.min() ?? 0)))
    }
}
