import Foundation
import LMSession
import Observation
import Testing

/// Calls every initialiser, overload and label of Apple's 26.x text API (and the 26.4/27 additions we
/// ship) exactly as Apple spells them, so a signature that drifts is a compile error.
@Suite struct APISurfaceTests {
    struct Weather: Tool {
        let description = "Weather"
        var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, anyOf: ["Moscow"]) }
        func call(arguments: GeneratedContent) async throws -> String { "sunny" }
    }

    @Test func everyTextOverloadAndLabelCompilesAndRuns() async throws {
        let model = ScriptedProvider(Array(repeating: .text(["ok"]), count: 12))
        let options = GenerationOptions(samplingMode: .greedy, temperature: 0.2, maximumResponseTokens: 8)

        // Initialisers.
        let sessions: [LanguageModelSession] = [
            LanguageModelSession(model: model),
            LanguageModelSession(model: model, tools: [Weather()]),
            LanguageModelSession(model: model, tools: [], instructions: "text"),
            LanguageModelSession(model: model, instructions: Instructions("typed")),
            LanguageModelSession(model: model, tools: []) { "built" },
            LanguageModelSession(model: model, transcript: Transcript()),
        ]
        #expect(sessions.map(\.transcript.count) == [0, 1, 1, 1, 1, 0])
        let session = sessions[0]

        // respond: Prompt, String, builder; with and without options.
        var responses: [LanguageModelSession.Response<String>] = []
        responses.append(try await session.respond(to: Prompt("a")))
        responses.append(try await session.respond(to: Prompt("a"), options: options))
        responses.append(try await session.respond(to: "b"))
        responses.append(try await session.respond(to: "b", options: options))
        responses.append(try await session.respond { "c" })
        responses.append(try await session.respond(options: options) { "c" })
        #expect(responses.map(\.content) == Array(repeating: "ok", count: 6))
        let response = responses[0]
        let _: GeneratedContent = response.rawContent
        let _: ArraySlice<Transcript.Entry> = response.transcriptEntries
        let _: LanguageModelSession.Usage = response.usage

        // streamResponse: same matrix; collect().
        let streams: [LanguageModelSession.ResponseStream<String>] = [
            session.streamResponse(to: Prompt("d")),
            session.streamResponse(to: Prompt("d"), options: options),
            session.streamResponse(to: "e"),
            session.streamResponse(to: "e", options: options),
            session.streamResponse { "f" },
            session.streamResponse(options: options) { "f" },
        ]
        for stream in streams {
            let collected: LanguageModelSession.Response<String> = try await stream.collect()
            #expect(collected.content == "ok")
        }
        #expect(model.requests.count == 12)
        #expect(session.transcript.count == 24)

        // State.
        let _: Bool = session.isResponding
        let _: Transcript = session.transcript
        let _: LanguageModelSession.Usage = session.usage
        session.prewarm()
        session.prewarm(promptPrefix: Prompt("g"))

        // Feedback.
        let feedback: [Data] = [
            session.logFeedbackAttachment(sentiment: .positive),
            session.logFeedbackAttachment(sentiment: .negative, issues: [.init(category: .incorrect, explanation: "wrong")], desiredOutput: nil),
            session.logFeedbackAttachment(sentiment: nil, desiredResponseText: "better"),
            session.logFeedbackAttachment(sentiment: .neutral, issues: [], desiredResponseContent: GeneratedContent(kind: .string("x"))),
        ]
        #expect(feedback.allSatisfy { !$0.isEmpty })
    }

    @Test @available(*, deprecated, message: "exercises the deprecated 26.x `sampling:` spelling")
    func bothSamplingLabelsSpellTheSameOptions() {
        var old = GenerationOptions(sampling: .random(top: 10, seed: 1), temperature: 0.5, maximumResponseTokens: 20)
        let new = GenerationOptions(samplingMode: .random(top: 10, seed: 1), temperature: 0.5, maximumResponseTokens: 20)
        #expect(old == new)
        old.sampling = .greedy
        #expect(old.samplingMode == .greedy)
        #expect(GenerationOptions(sampling: nil) == GenerationOptions())
        // With a tool-calling mode too (Apple declares that one only with `samplingMode:`; ours warns and renames).
        let mixed = GenerationOptions(sampling: .greedy, temperature: 0.3, maximumResponseTokens: 9, toolCallingMode: .required)
        #expect(mixed == GenerationOptions(samplingMode: .greedy, temperature: 0.3, maximumResponseTokens: 9, toolCallingMode: .required))
        #expect(mixed.toolCallingMode == .required && mixed.samplingMode == .greedy && mixed.maximumResponseTokens == 9)
        #expect(GenerationOptions(sampling: nil, toolCallingMode: .disallowed).toolCallingMode == .disallowed)
    }

    @Test func systemLanguageModelSurface() async throws {
        let model = RealModel.model
        let _: SystemLanguageModel = SystemLanguageModel(useCase: .contentTagging, guardrails: .permissiveContentTransformations)
        let _: SystemLanguageModel = SystemLanguageModel(useCase: .general)
        let _: SystemLanguageModel = SystemLanguageModel(guardrails: .default)
        #expect(model.isAvailable)
        #expect(model.availability == .available)
        #expect(model.contextSize == 4096)
        #expect(model.supportedLanguages == [Locale.Language(identifier: "en")])
        #expect(model.supportsLocale(Locale(identifier: "en_GB")))
        #expect(!model.supportsLocale(Locale(identifier: "fr_FR")))
        let _: Bool = model.supportsLocale()

        let counts = [
            try await model.tokenCount(for: "three words here"),
            try await model.tokenCount(for: Prompt("three words here")),
            try await model.tokenCount(for: Instructions("two words")),
            try await model.tokenCount(for: [Weather()] as [any Tool]),
            try await model.tokenCount(for: GenerationSchema(type: GeneratedContent.self, anyOf: ["a"])),
            try await model.tokenCount(for: [Transcript.Entry]()),
        ]
        // A string is a prompt; each part costs its text and turn markers; nothing costs nothing.
        #expect(counts[0] == counts[1] && counts[1] > 3, "\(counts)")
        #expect(counts[2] > 2 && counts[3] > 0 && counts[4] > 0 && counts[5] == 0, "\(counts)")
        let entry = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "three words here"))]))
        #expect(try await model.tokenCount(for: [entry]) == counts[1])
    }

    @Test func samplingModesAndTheirKinds() {
        let cases: [(GenerationOptions.SamplingMode, GenerationOptions.SamplingMode.Kind)] = [
            (.greedy, .greedy),
            (.random(top: 5), .randomTopK(k: 5, seed: nil)),
            (.random(top: 5, seed: 9), .randomTopK(k: 5, seed: 9)),
            (.random(probabilityThreshold: 0.9), .randomProbabilityThreshold(threshold: 0.9, seed: nil)),
            (.random(probabilityThreshold: 0.9, seed: 3), .randomProbabilityThreshold(threshold: 0.9, seed: 3)),
        ]
        for (mode, kind) in cases { #expect(mode.kind == kind) }
    }

    @Test func isRespondingAndTranscriptAreObservable() async throws {
        let model = ScriptedProvider([.text(["ok"])])
        let session = LanguageModelSession(model: model)
        let changes = Changes()
        withObservationTracking { _ = session.isResponding } onChange: { changes.record("isResponding") }
        withObservationTracking { _ = session.transcript } onChange: { changes.record("transcript") }
        try await session.respond(to: "hi")
        #expect(changes.names == ["isResponding", "transcript"])
    }
}

final class Changes: @unchecked Sendable {
    // @unchecked: `names` is only touched under `lock`.
    private let lock = NSLock()
    private var recorded: [String] = []
    func record(_ name: String) { lock.withLock { recorded.append(name) } }
    var names: [String] { lock.withLock { recorded } }
}
