import Foundation
import LMSession
import Testing

/// Guided decoding speed against unguided on SmolLM2, greedy (a `Digest` against plain text), for the same prompt
/// and the same number of generated tokens. Printed; run with
/// `LMSESSION_BENCH=1 swift test -c release --filter GuidedSpeedBenchmarks`.
///
/// Both requests render the same input tokens (the guided one leaves the schema out of the prompt), so every decode
/// step attends over the same context and the difference is the guided path alone: the token mask, the budget
/// check and the grammar's bookkeeping. (With the schema in the prompt the guided context is longer by the schema's
/// tokens, and attention over them costs more per step whatever the decoder does.)
///
/// Each of the four timings is summed over `rounds` interleaved rounds, guided first in even rounds and unguided
/// first in odd ones. Decode rate is `(n - 1) / (t(n) - t(1))`: a one-token run of the same request measures prefill
/// and per-request setup (schema compilation included), which the subtraction removes. The end-to-end rate
/// `n / t(n)` is printed beside it.
@Suite("Guided decoding speed", .serialized, .enabled(if: ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"))
struct GuidedSpeedBenchmarks {
    /// Interleaved rounds summed per measurement, so load that comes and goes falls on both kinds alike.
    static let rounds = 5
    static let prompt = "Write a detailed summary of Swift 6: strict concurrency, typed throws and better C++ interop."

    /// Seconds for one request in a fresh session, with its input and output token counts.
    static func time(guided: Bool, tokens: Int) async throws -> (seconds: Double, input: Int, generated: Int) {
        let session = LanguageModelSession(model: RealModel.model)
        let start = ContinuousClock.now
        var usage: LanguageModelSession.Usage?
        do {
            if guided {
                usage = try await session.respond(to: prompt, generating: Digest.self, includeSchemaInPrompt: false,
                                                  options: RealModel.greedy(tokens)).usage
            } else {
                usage = try await session.respond(to: prompt, options: RealModel.greedy(tokens)).usage
            }
        } catch is GeneratedContent.ParsingError where tokens == 1 {}
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        return (seconds, usage?.input.totalTokenCount ?? 0, usage?.output.totalTokenCount ?? tokens)
    }

    @Test("guided decoding keeps at least 0.95 of unguided tokens/s", arguments: 1...3)
    func guidedAgainstUnguided(repetition: Int) async throws {
        // Warm-up: loads the model and builds the vocabulary's token index once.
        let warmUp = try await Self.time(guided: true, tokens: 120)
        let n = warmUp.generated
        #expect(n >= 40)
        var guided1 = 0.0, guidedN = 0.0, text1 = 0.0, textN = 0.0
        for round in 0..<Self.rounds {
            for guidedTurn in round % 2 == 0 ? [true, false] : [false, true] {
                let one = try await Self.time(guided: guidedTurn, tokens: 1).seconds
                let all = try await Self.time(guided: guidedTurn, tokens: guidedTurn ? 120 : n)
                #expect(all.generated == n, guidedTurn ? "guided" : "the text response stopped early; use a longer prompt")
                #expect(all.input == warmUp.input, "the two requests should render the same prompt")
                if guidedTurn {
                    guided1 += one
                    guidedN += all.seconds
                } else {
                    text1 += one
                    textN += all.seconds
                }
            }
        }
        let guidedRate = Double(Self.rounds * (n - 1)) / (guidedN - guided1)
        let textRate = Double(Self.rounds * (n - 1)) / (textN - text1)
        print(String(format: "guided speed run %d: %d input, %d generated tokens; decode guided %.1f tok/s, unguided %.1f tok/s, "
                     + "ratio %.3f; end-to-end guided %.1f tok/s, unguided %.1f tok/s, ratio %.3f",
                     repetition, warmUp.input, n, guidedRate, textRate, guidedRate / textRate,
                     Double(Self.rounds * n) / guidedN, Double(Self.rounds * n) / textN, textN / guidedN))
        #expect(guidedRate >= 0.95 * textRate)
    }
}
