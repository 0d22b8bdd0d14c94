import Foundation
import LMSession

/// `lmsession bench --shared-instructions`: time to first token of a session whose instructions an
/// earlier session of the same model already ran (kept by the model's prefix cache) against the
/// first session with those instructions, as a server sees it when every client starts with the same
/// system prompt.
///
/// Each round makes instructions of at least `--instructions-tokens` tokens (default 320; numbered
/// rules, the round's number first so no round shares a prefix with another), then times two
/// sessions with them, one after the other, each answering one short prompt with one greedy token
/// (`maximumResponseTokens: 1`): the first prefills everything, the second only what follows the
/// kept instructions. A warm-up session loads the model first. Prints the medians over
/// `--repetitions` rounds (default 3) in milliseconds, their ratio, and the second session's
/// `usage.input.cachedTokenCount`.
enum PrefixCacheBench {
    static let rules = [
        "Answer in plain English, in short sentences, without jargon unless the user uses it first.",
        "When a question is ambiguous, state the reading you chose before answering it.",
        "Quote numbers with their units and round them to three significant figures.",
        "Never invent citations, file names, or figures that the conversation did not give.",
        "Prefer lists for steps that must be done in order, and prose for explanations.",
        "If the user writes in another language, answer in that language.",
        "Say when a request is outside what you can do, and suggest what could help instead.",
        "Keep code samples short, complete, and runnable, with the language named.",
    ]

    /// Most instruction tokens a round may ask for: with the prompt and the first answer token they fit the
    /// 4096-token context of the sessions measured.
    static let maxInstructionTokens = 3968

    static func run(_ a: CommandLineArguments) throws(CLIError) {
        let target = try a.int("instructions-tokens") ?? 320, reps = try a.int("repetitions") ?? 3
        guard target > 0, reps > 0 else { throw .usage("--instructions-tokens and --repetitions must be positive") }
        guard target <= maxInstructionTokens else {
            throw .usage("--instructions-tokens must be at most \(maxInstructionTokens) (the instructions and a prompt must fit a session's 4096-token context)")
        }
        let threads = try a.threads()
        let path = ModelLocator.path(a.string("model"))
        guard FileManager.default.fileExists(atPath: path) else {
            throw .failed("model not found at \(path) (pass --model PATH, set LMSESSION_MODEL, or run Models/fetch)")
        }
        let outcome = blocking { () async throws -> Figures in
            let model = try SystemLanguageModel(fileURL: URL(fileURLWithPath: path), threads: threads)
            _ = try await timeToFirstToken(model, instructions: "You are a helpful assistant.")
            var figures = Figures()
            for round in 1...reps {
                let instructions = try await instructionsText(round: round, tokens: target, model: model)
                let first = try await timeToFirstToken(model, instructions: instructions)
                let second = try await timeToFirstToken(model, instructions: instructions)
                figures.instructionTokens = try await model.tokenCount(for: Instructions(instructions))
                figures.first.append(first.seconds)
                figures.second.append(second.seconds)
                figures.cached = second.cached
            }
            return figures
        }
        let figures: Figures
        switch outcome {
        case .success(let f): figures = f
        case .failure(let error): throw .failed("\(error)")
        }
        let first = median(figures.first) * 1000, second = median(figures.second) * 1000
        print("model: \(URL(fileURLWithPath: path).lastPathComponent), instructions: \(figures.instructionTokens) tokens, rounds: \(reps)")
        print("time to first token, first session: \(BenchCommand.fmt(first)) ms")
        print("time to first token, second session (same instructions): \(BenchCommand.fmt(second)) ms,"
              + " \(figures.cached) cached tokens")
        print("second / first: \(String(format: "%.2f", second / first))")
    }

    struct Figures: Sendable {
        var first: [Double] = [], second: [Double] = []
        var cached = 0, instructionTokens = 0
    }

    /// Numbered rules, the round first, until the text takes at least `tokens` tokens.
    static func instructionsText(round: Int, tokens: Int, model: SystemLanguageModel) async throws -> String {
        var text = "Session group \(round). You are the support assistant of a software company."
        var i = 0
        while try await model.tokenCount(for: Instructions(text)) < tokens {
            text += "\nRule \(i + 1): " + rules[i % rules.count]
            i += 1
        }
        return text
    }

    static func timeToFirstToken(_ model: SystemLanguageModel, instructions: String) async throws -> (seconds: Double, cached: Int) {
        let session = LanguageModelSession(model: model, instructions: instructions)
        let start = ContinuousClock.now
        let response = try await session.respond(to: "Say hello.", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 1))
        return ((ContinuousClock.now - start) / .seconds(1), response.usage.input.cachedTokenCount)
    }

    static func median(_ x: [Double]) -> Double {
        let s = x.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
