import Foundation
import LMSession
import Testing

/// Sessions on one model generating at the same time decode in one batched step per token
/// (`BatchScheduler`), and each one's output is exactly what it is alone under greedy sampling: plain
/// text, a streamed response, a structured value and a tool call with its answer.
@Suite(.serialized) struct ConcurrentSessionTests {
    /// One session's work, its result as text (every transcript entry after the instructions).
    struct Job: Sendable, CustomStringConvertible {
        let description: String
        let run: @Sendable (SystemLanguageModel) async throws -> String
    }

    static func transcript(_ session: LanguageModelSession) -> String {
        session.transcript.map { "\($0)" }.joined(separator: "\n")
    }

    static func plain(_ prompt: String, _ tokens: Int) -> Job {
        Job(description: prompt) { model in
            let session = LanguageModelSession(model: model)
            let response = try await session.respond(to: prompt, options: RealModel.greedy(tokens))
            return response.content + "\n" + transcript(session)
        }
    }

    static let jobs: [Job] = [
        plain("Name three colours.", 40),
        plain("Write one sentence about the moon.", 48),
        plain("What is 12 times 12?", 24),
        plain("Translate 'good morning' into French.", 32),
        plain("Give me a short tip for learning to cook.", 56),
        Job(description: "streamed") { model in
            let session = LanguageModelSession(model: model)
            var snapshots: [String] = []
            let stream = session.streamResponse(to: "Describe a cat in one sentence.", options: RealModel.greedy(40))
            for try await snapshot in stream { snapshots.append(snapshot.content) }
            return snapshots.joined(separator: "|") + "\n" + transcript(session)
        },
        Job(description: "schema") { model in
            let session = LanguageModelSession(model: model)
            let weather = try await session.respond(to: "The weather in Rome: warm and sunny.", generating: GetWeather.Weather.self,
                                                    options: RealModel.greedy(60)).content
            return "\(weather)\n" + transcript(session)
        },
        Job(description: "tool call") { model in
            let weather = GetWeather()
            let session = LanguageModelSession(model: model, tools: [weather],
                                               instructions: "Always call get_weather for questions about the weather.")
            let response = try await session.respond(to: "What should I wear in Moscow today?",
                                                     options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 32,
                                                                                toolCallingMode: .required))
            return response.content + "\n\(weather.cities.values)\n" + transcript(session)
        },
    ]

    /// A model of this suite's own, so that other suites' sessions do not count in its batches.
    static let model = SystemLanguageModel(path: RealModel.path)

    @Test("eight concurrent sessions (plain, streamed, schema, tool call) each produce their solo output")
    func concurrentSessionsMatchSoloRuns() async throws {
        let model = Self.model
        var solo: [String] = []
        for job in Self.jobs { solo.append(try await job.run(model)) }
        let before = try #require(Self.model.local.batchStatistics)

        let concurrent = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (i, job) in Self.jobs.enumerated() { group.addTask { (i, try await job.run(model)) } }
            var results = Array(repeating: "", count: Self.jobs.count)
            for try await (i, text) in group { results[i] = text }
            return results
        }
        for (i, job) in Self.jobs.enumerated() {
            #expect(concurrent[i] == solo[i], "\(job): differs from its solo run")
            #expect(!solo[i].isEmpty)
        }
        let after = try #require(Self.model.local.batchStatistics)
        #expect(after.largestBatch >= 4, "the sessions decoded in batches")
        #expect(after.steps > before.steps)
        #expect(try await SessionLimitTests.eventually { Self.model.local.batchStatistics?.active == 0 }, "every session left the batch")
        print("batched steps: \(after.steps - before.steps), largest batch \(after.largestBatch)")
    }
}
