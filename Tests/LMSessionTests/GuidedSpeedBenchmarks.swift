import Foundation
import LMSession
import Testing

/// Guided decoding speed against unguided on SmolLM2, greedy (a `Digest` against a plain-text summary), for the same number of generated tokens.
/// Printed; run with `LMSESSION_BENCH=1 swift test -c release --filter GuidedSpeedBenchmarks`.
///
/// Decode rate is `(n - 1) / (t(n) - t(1))`: a one-token run of the same request measures prefill and
/// per-request setup (schema compilation included), which the subtraction removes. The end-to-end
/// rate `n / t(n)` is printed beside it.
@Suite("Guided decoding speed", .serialized, .enabled(if: ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"))
struct GuidedSpeedBenchmarks {
    static let guidedPrompt = "Summarize: Swift 6 adds strict concurrency, typed throws and better C++ interop."
    static let textPrompt = "Write a detailed summary of Swift 6: strict concurrency, typed throws and better C++ interop."

    /// Seconds for one request in a fresh session; a guided request cut short by the budget still counts.
    static func time(guided: Bool, tokens: Int) async throws -> (seconds: Double, generated: Int) {
        let session = LanguageModelSession(model: RealModel.model)
        let start = ContinuousClock.now
        var generated = tokens
        do {
            if guided {
                generated = try await session.respond(to: guidedPrompt, generating: Digest.self, options: RealModel.greedy(tokens))
                    .usage.output.totalTokenCount
            } else {
                generated = try await session.respond(to: textPrompt, options: RealModel.greedy(tokens)).usage.output.totalTokenCount
            }
        } catch LanguageModelSession.GenerationError.decodingFailure where tokens == 1 {}
        return ((ContinuousClock.now - start) / .seconds(1), generated)
    }

    @Test("guided decoding keeps at least 0.95 of unguided tokens/s", arguments: 1...3)
    func guidedAgainstUnguided(repetition: Int) async throws {
        // Warm-up: loads the model and builds the vocabulary's token index once.
        let (_, n) = try await Self.time(guided: true, tokens: 200)
        #expect(n >= 40)
        let guided1 = try await Self.time(guided: true, tokens: 1).seconds
        let guidedN = try await Self.time(guided: true, tokens: 200)
        let text1 = try await Self.time(guided: false, tokens: 1).seconds
        let textN = try await Self.time(guided: false, tokens: n)
        #expect(guidedN.generated == n)
        #expect(textN.generated == n, "the text response stopped early; use a longer prompt")
        let guidedRate = Double(n - 1) / (guidedN.seconds - guided1)
        let textRate = Double(n - 1) / (textN.seconds - text1)
        print(String(format: "guided speed run %d: %d tokens; decode guided %.1f tok/s, unguided %.1f tok/s, ratio %.3f; "
                     + "end-to-end guided %.1f tok/s, unguided %.1f tok/s, ratio %.3f",
                     repetition, n, guidedRate, textRate, guidedRate / textRate,
                     Double(n) / guidedN.seconds, Double(n) / textN.seconds, (Double(n) / guidedN.seconds) / (Double(n) / textN.seconds)))
        #expect(guidedRate >= 0.95 * textRate)
    }
}
