import Foundation
import LMSession
import Synchronization
import Testing

/// The load and fault test of many sessions on one local model (issue 17): 64 sessions make a fixed
/// mix of requests at once (plain, streamed, guided, tool calls, streams cancelled mid-way, prompts
/// over the context window, tools that throw), all batched on one engine. Nothing crashes or hangs,
/// every request completes or throws its typed error, each transcript holds exactly its completed
/// turns, the batch is empty afterwards, and the process's memory returns near its baseline once the
/// sessions are released. Greedy and a few tokens per request, so it runs in CI time on 2 cores.
@Suite(.serialized) struct SessionLoadTests {
    /// A tool that always fails.
    struct BrokenTool: Tool {
        let name = "get_weather"
        let description = "Gets today's weather in a city."
        struct Failure: Error {}
        func call(arguments: GetWeather.Arguments) async throws -> GetWeather.Weather { throw Failure() }
    }

    enum Kind: Int, CaseIterable { case plain, streamed, guided, tool, cancelled, overContext, throwingTool, longer }

    enum Outcome: Hashable { case completed, cancelled, contextExceeded, toolFailed, toolRoundLimit, other(String) }

    /// The model of this test: a small context so some prompts overflow it.
    static let model = SystemLanguageModel(path: RealModel.path, contextSize: 1024)
    static let longPrompt = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 120)

    static func run(_ kind: Kind, _ session: LanguageModelSession, _ n: Int) async -> Outcome {
        do {
            switch kind {
            case .plain:
                _ = try await session.respond(to: "Say hello to user \(n).", options: RealModel.greedy(6))
            case .streamed:
                _ = try await session.streamResponse(to: "Count to \(n % 5 + 3).", options: RealModel.greedy(8)).collect()
            case .guided:
                _ = try await session.respond(to: "Weather report \(n): cold.", generating: GetWeather.Weather.self,
                                              options: RealModel.greedy(32))
            case .tool, .throwingTool:
                _ = try await session.respond(to: "What should I wear in city \(n) today?",
                                              options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 12,
                                                                         toolCallingMode: .required))
            case .cancelled:
                let stream = session.streamResponse(to: "Tell a long story about robot \(n).", options: RealModel.greedy(200))
                var seen = 0
                for try await _ in stream {
                    seen += 1
                    if seen == 2 { break }
                }
                return .cancelled
            case .overContext:
                _ = try await session.respond(to: Self.longPrompt, options: RealModel.greedy(4))
            case .longer:
                _ = try await session.respond(to: "Write a sentence about number \(n).", options: RealModel.greedy(16))
            }
            return .completed
        } catch is LanguageModelSession.ToolCallError {
            return .toolFailed
        } catch is LanguageModelSession.ToolCallRoundLimitError {
            return .toolRoundLimit
        } catch let error as LanguageModelError {
            if case .contextSizeExceeded = error { return .contextExceeded }
            return .other("\(error)")
        } catch {
            // The 26 convention, when another suite switched it, names the same failure differently.
            return "\(error)".lowercased().contains("context") ? .contextExceeded : .other("\(type(of: error)): \(error)")
        }
    }

    static func expected(_ kind: Kind) -> Outcome {
        switch kind {
        case .cancelled: .cancelled
        case .overContext: .contextExceeded
        case .throwingTool: .toolFailed
        default: .completed
        }
    }

    /// Resident memory from `/proc/self/status` (`VmRSS`), in bytes; nil where unavailable.
    static func residentBytes() -> Int? {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
    }

    @Test("64 sessions with mixed and failing requests lose nothing and give their memory back", .timeLimit(.minutes(10)))
    func sixtyFourSessionsUnderMixedLoad() async throws {
        // Warm up: the model, the engine and the token index the guides share are allocated once.
        do {
            let warm = LanguageModelSession(model: Self.model, tools: [GetWeather()])
            _ = await Self.run(.guided, warm, 0)
            _ = await Self.run(.tool, warm, 0)
        }
        let baseline = Self.residentBytes()

        let sessions = 64, requestsPerSession = 2
        let outcomes = try await withThrowingTaskGroup(of: (Int, [Outcome], [String]).self) { group in
            for i in 0..<sessions {
                group.addTask {
                    let kinds = [Kind(rawValue: i % Kind.allCases.count)!, Kind(rawValue: (i / 8 + 3) % Kind.allCases.count)!]
                    let tools: [any Tool] = kinds.contains(.throwingTool) ? [BrokenTool()] : kinds.contains(.tool) ? [GetWeather()] : []
                    let session = LanguageModelSession(model: Self.model, tools: tools)
                    var results: [Outcome] = []
                    for (r, kind) in kinds.prefix(requestsPerSession).enumerated() {
                        // A session with the broken tool has no working one: its tool request fails too.
                        let effective = kind == .tool && tools.first is BrokenTool ? Kind.throwingTool : kind
                        let outcome = await Self.run(kind, session, i * 10 + r)
                        // With tools, any request may call them (tool calling is allowed): a broken tool fails it,
                        // and a model that keeps calling reaches the session's round limit (a typed error too).
                        var acceptable: Set = [Self.expected(effective)]
                        if !tools.isEmpty, ![.cancelled, .overContext].contains(kind) {
                            acceptable.insert(.toolRoundLimit)
                            if tools.first is BrokenTool { acceptable.insert(.toolFailed) }
                        }
                        #expect(acceptable.contains(outcome), "session \(i) request \(r) (\(kind)): \(outcome)")
                        results.append(outcome)
                    }
                    return (i, results, session.transcript.map(\.kindLabel))
                }
            }
            var all: [(Int, [Outcome], [String])] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(outcomes.count == sessions)
        for (i, results, transcript) in outcomes {
            // Exactly the completed turns: one prompt per completed request, nothing from the others.
            let completed = results.filter { $0 == .completed }.count
            let prompts = transcript.filter { $0 == "prompt" }.count
            let responses = transcript.filter { $0 == "response" }.count
            #expect(responses == completed, "session \(i): \(transcript)")
            #expect(prompts == completed, "session \(i): \(transcript)")
        }
        let statistics = try #require(Self.model.local.batchStatistics)
        #expect(statistics.active == 0, "no session is left in the batch")
        #expect(statistics.largestBatch > 8)
        print("load: \(statistics.steps) steps, largest batch \(statistics.largestBatch)")

        // Between requests the model keeps at most 16 idle conversations' KV caches, whatever the number of sessions;
        // dropped, they give their caches back (a conversation goes when its last queued work ends).
        #expect(Self.model.local.heldCaches <= 16, "idle caches kept: \(Self.model.local.heldCaches)")
        Self.model.local.dropIdleConversations()
        #expect(try await SessionLimitTests.eventually { Self.model.local.heldCaches == 0 }, "every idle cache was freed")
        // Exactly: no context (KV cache) of the 64 sessions is left on the engine.
        #expect(try await SessionLimitTests.eventually { Self.model.local.liveContexts == 0 }, "contexts left: \(String(describing: Self.model.local.liveContexts))")
        // Roughly, the process as a whole: the other suites run beside this one and move its resident size by
        // 100 MB and more, so this bound is coarse; the count above is the exact check.
        if let baseline, let after = Self.residentBytes() {
            print("resident: baseline \(baseline >> 20) MiB, after \(after >> 20) MiB")
            #expect(after < baseline + (256 << 20), "memory returns near its baseline once sessions are released")
        }
    }
}
