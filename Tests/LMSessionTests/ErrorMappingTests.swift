import Foundation
import LMSession
import Testing
import TestSupport

/// Every failure the local model (SmolLM2-135M), the server models (through the fault proxy) and the session
/// itself produce, thrown from `respond` as Apple's 27 type (the default ``LanguageModelSession/ErrorConvention/sdk27``)
/// and as the 26 `GenerationError` under ``LanguageModelSession/ErrorConvention/sdk26`` where 26 has a case.
/// Each scenario runs once per convention; the 26 error says what the 27 one says (its `failureReason` is the
/// 27 error's `debugDescription`).
@Suite("Errors thrown by respond, in Apple's 27 and 26 types", .serialized, .timeLimit(.minutes(5)))
struct ErrorMappingTests {
    /// One way a request fails.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        /// ``ErrorMappingTests/label(_:)`` of the error thrown under `.sdk27` and under `.sdk26`.
        let sdk27: String
        let sdk26: String
        /// The values the 27 error must carry.
        let check: @Sendable (any Error) -> Bool
        /// Sets up a session with the convention, makes it fail, and returns the error.
        let fail: @Sendable (LanguageModelSession.ErrorConvention) async throws -> any Error

        var testDescription: String { name }
    }

    /// "Type.case" of an error, from reflection (so this file never names the deprecated `GenerationError`).
    static func label(_ error: any Error) -> String {
        var name = String(reflecting: type(of: error))
        if name.hasPrefix("LMSession.") { name.removeFirst("LMSession.".count) }
        if let error = error as? LanguageModelSession.Error {
            return name + (error == .concurrentRequests ? ".concurrentRequests" : ".transcriptMutationWhileResponding")
        }
        let mirror = Mirror(reflecting: error)
        guard mirror.displayStyle == .enum, let label = mirror.children.first?.label else { return name }
        return name + "." + label
    }

    /// The `debugDescription` of one of Apple's 27 error types.
    static func debugText(_ error: any Error) -> String? {
        switch error {
        case let error as LanguageModelError: error.debugDescription
        case let error as GeneratedContent.ParsingError: error.debugDescription
        case let error as SystemLanguageModel.Error: error.debugDescription
        case let error as LanguageModelSession.Error: error.debugDescription
        default: nil
        }
    }

    /// The error `body` throws (a request that succeeds is recorded as an issue).
    static func caught(_ body: () async throws -> Void) async throws -> any Error {
        do {
            try await body()
        } catch {
            return error
        }
        Issue.record("no error")
        throw CancellationError()
    }

    @Test(arguments: localScenarios + sessionScenarios + serverScenarios)
    func theFailureIsThrownAsApples27TypeAndAs26sGenerationError(_ scenario: Scenario) async throws {
        let new = try await scenario.fail(.sdk27)
        #expect(Self.label(new) == scenario.sdk27, "\(new)")
        #expect(scenario.check(new), "\(new)")
        let old = try await scenario.fail(.sdk26)
        #expect(Self.label(old) == scenario.sdk26, "\(old)")
        if scenario.sdk26 != scenario.sdk27 {
            #expect(scenario.sdk26.hasPrefix("LanguageModelSession.GenerationError."))
            #expect((old as? any LocalizedError)?.failureReason == Self.debugText(new))
        }
    }

    @Test func theDefaultConventionIs27AndEachSessionKeepsItsOwn() {
        #expect(LanguageModelSession.defaultErrorConvention == .sdk27)
        let session = LanguageModelSession(model: RealModel.model)
        #expect(session.errorConvention == .sdk27)
        session.errorConvention = .sdk26
        #expect(session.errorConvention == .sdk26)
        #expect(LanguageModelSession(model: RealModel.model).errorConvention == .sdk27)
    }

    @Test func aMalformedGGUFThrowsLocalModelErrorWhenLoadedDirectly() throws {
        let file = try Self.malformedGGUF()
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try SystemLanguageModel(fileURL: file)
        } throws: { error in
            guard case LocalModelError.loadFailed(let path, _) = error else { return false }
            return path == file.path
        }
    }

    @Test func tokenCountOfAMissingModelThrowsAssetsUnavailable() async throws {
        let missing = SystemLanguageModel(path: "/nonexistent/model.gguf")
        let error = try await Self.caught { _ = try await missing.tokenCount(for: "Hello") }
        #expect(Self.label(error) == "SystemLanguageModel.Error.assetsUnavailable")
        #expect((error as? SystemLanguageModel.Error)?.debugDescription.contains("/nonexistent/model.gguf") == true)
    }

    // MARK: - The local model

    /// A file that starts like a GGUF and then is not one (named per process, so both runs of a scenario name
    /// the same path in their messages).
    static func malformedGGUF() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-malformed-\(ProcessInfo.processInfo.processIdentifier).gguf")
        try (Data("GGUF".utf8) + Data([3, 0, 0, 0]) + Data(repeating: 0xFF, count: 40)).write(to: url)
        return url
    }

    /// A schema with a lookahead pattern, which the token-mask engine cannot enforce.
    static let lookahead = GenerationSchema(type: GeneratedContent.self, description: "A code", properties: [
        .init(name: "code", type: String.self, guides: [.pattern("a(?=b)")]),
    ])

    /// A tool whose parameters carry that pattern.
    struct CodeLookup: Tool {
        let name = "code_lookup"
        let description = "Looks up a code."
        var parameters: GenerationSchema { ErrorMappingTests.lookahead }
        func call(arguments: GeneratedContent) async throws -> String { "found" }
    }

    static let localScenarios: [Scenario] = [
        Scenario(name: "the model file is missing", sdk27: "SystemLanguageModel.Error.assetsUnavailable",
                 sdk26: "LanguageModelSession.GenerationError.assetsUnavailable",
                 check: { ($0 as? SystemLanguageModel.Error)?.debugDescription.contains("/nonexistent/model.gguf") == true }) { convention in
            let session = LanguageModelSession(model: SystemLanguageModel(path: "/nonexistent/model.gguf"))
            session.errorConvention = convention
            return try await caught { try await session.respond(to: "Hello") }
        },
        Scenario(name: "the model file is not a GGUF we can load", sdk27: "SystemLanguageModel.Error.assetsUnavailable",
                 sdk26: "LanguageModelSession.GenerationError.assetsUnavailable",
                 check: { ($0 as? SystemLanguageModel.Error)?.debugDescription.contains("modelNotReady): cannot load /") == true }) { convention in
            let file = try malformedGGUF()
            defer { try? FileManager.default.removeItem(at: file) }
            let session = LanguageModelSession(model: SystemLanguageModel(path: file.path))
            session.errorConvention = convention
            return try await caught { try await session.respond(to: "Hello") }
        },
        Scenario(name: "the prompt is over the context", sdk27: "LanguageModelError.contextSizeExceeded",
                 sdk26: "LanguageModelSession.GenerationError.exceededContextWindowSize",
                 check: { error in
                     guard case LanguageModelError.contextSizeExceeded(let overflow) = error else { return false }
                     return overflow.contextSize == 64 && overflow.tokenCount > 100
                         && overflow.debugDescription == "Content contains \(overflow.tokenCount) tokens, which exceeds the maximum allowed context size of 64."
                 }) { convention in
            let model = SystemLanguageModel(path: RealModel.path, contextSize: 64)
            let session = LanguageModelSession(model: model, instructions: "Summarize.")
            session.errorConvention = convention
            let long = Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 10).joined(separator: " ")
            return try await caught { try await session.respond(to: long, options: RealModel.greedy(8)) }
        },
        Scenario(name: "the response runs out of the context", sdk27: "LanguageModelError.contextSizeExceeded",
                 sdk26: "LanguageModelSession.GenerationError.exceededContextWindowSize",
                 check: { error in
                     guard case LanguageModelError.contextSizeExceeded(let overflow) = error else { return false }
                     return overflow.contextSize == 40 && overflow.tokenCount == 41
                 }) { convention in
            let model = SystemLanguageModel(path: RealModel.path, contextSize: 40)
            let session = LanguageModelSession(model: model)
            session.errorConvention = convention
            return try await caught {
                try await session.respond(to: "Write a long story about a dragon.", options: GenerationOptions(samplingMode: .greedy))
            }
        },
        Scenario(name: "the response schema has a guide the grammar cannot enforce", sdk27: "LanguageModelError.unsupportedGenerationGuide",
                 sdk26: "LanguageModelSession.GenerationError.unsupportedGuide",
                 check: { error in
                     guard case LanguageModelError.unsupportedGenerationGuide(let guide) = error else { return false }
                     return guide.schemaName == "GeneratedContent" && guide.debugDescription.hasPrefix("The schema cannot be enforced: ")
                 }) { convention in
            let session = LanguageModelSession(model: RealModel.model)
            session.errorConvention = convention
            return try await caught { _ = try await session.respond(to: "A code.", schema: lookahead, options: RealModel.greedy(20)) }
        },
        Scenario(name: "the response schema has a pattern whose automaton blows up while generating", sdk27: "LanguageModelError.unsupportedGenerationGuide",
                 sdk26: "LanguageModelSession.GenerationError.unsupportedGuide",
                 check: { error in
                     guard case LanguageModelError.unsupportedGenerationGuide(let guide) = error else { return false }
                     return guide.schemaName == "GeneratedContent"
                         && guide.debugDescription.hasPrefix("The schema cannot be enforced: the grammar's pattern needs more than")
                 }) { convention in
            // Compiles (the NFA is small); its DFA has 2^31 states, met while masking the first token of the string.
            let blowUp = GenerationSchema(type: GeneratedContent.self, description: "A code", properties: [
                .init(name: "code", type: String.self, guides: [.pattern("[a-z]*a[a-z]{30}")]),
            ])
            let session = LanguageModelSession(model: RealModel.model)
            session.errorConvention = convention
            return try await caught { _ = try await session.respond(to: "A code.", schema: blowUp, options: RealModel.greedy(40)) }
        },
        Scenario(name: "a tool's parameters have a guide the grammar cannot enforce", sdk27: "LanguageModelError.unsupportedGenerationGuide",
                 sdk26: "LanguageModelSession.GenerationError.unsupportedGuide",
                 check: { error in
                     guard case LanguageModelError.unsupportedGenerationGuide(let guide) = error else { return false }
                     return guide.schemaName == "code_lookup" && guide.debugDescription.hasPrefix("The tools' parameters cannot be enforced: ")
                 }) { convention in
            let session = LanguageModelSession(model: RealModel.model, tools: [GetWeather(), CodeLookup()])
            session.errorConvention = convention
            return try await caught { try await session.respond(to: "Look up code a.", options: RealModel.greedy(20)) }
        },
        Scenario(name: "a structured response cannot close within maximumResponseTokens", sdk27: "GeneratedContent.ParsingError",
                 sdk26: "LanguageModelSession.GenerationError.decodingFailure",
                 check: { error in
                     guard let parsing = error as? GeneratedContent.ParsingError else { return false }
                     return parsing.debugDescription.hasPrefix("The response cannot be completed within maximumResponseTokens: 3 tokens left")
                         && parsing.underlyingError != nil
                 }) { convention in
            let session = LanguageModelSession(model: RealModel.model)
            session.errorConvention = convention
            return try await caught { _ = try await session.respond(to: "A weeknight pasta for two.", generating: Recipe.self, options: RealModel.greedy(3)) }
        },
        Scenario(name: "a guardrail rejects the response", sdk27: "LanguageModelError.guardrailViolation",
                 sdk26: "LanguageModelSession.GenerationError.guardrailViolation",
                 check: { ($0 as? LanguageModelError)?.debugDescription == "no answers about capitals" }) { convention in
            let guardrails = SystemLanguageModel.Guardrails { text, side in
                side == .output && !text.isEmpty ? .rejected(reason: "no answers about capitals") : .allowed
            }
            let model = SystemLanguageModel(local: RealModel.model.local, guardrails: guardrails)
            let session = LanguageModelSession(model: model)
            session.errorConvention = convention
            return try await caught { try await session.respond(to: "What is the capital of France?", options: RealModel.greedy(20)) }
        },
        Scenario(name: "a second request while one runs", sdk27: "LanguageModelSession.Error.concurrentRequests",
                 sdk26: "LanguageModelSession.GenerationError.concurrentRequests", check: { _ in true }) { convention in
            let session = LanguageModelSession(model: RealModel.model)
            session.errorConvention = convention
            let first = Task { try await session.respond(to: "Count from one to ten.", options: RealModel.greedy(30)) }
            while !session.isResponding { try await Task.sleep(for: .milliseconds(1)) }
            let error = try await caught { try await session.respond(to: "Hello", options: RealModel.greedy(4)) }
            _ = try await first.value
            return error
        },
        Scenario(name: "a tool throws", sdk27: "LanguageModelSession.ToolCallError", sdk26: "LanguageModelSession.ToolCallError",
                 check: { ($0 as? LanguageModelSession.ToolCallError)?.underlyingError is BrokenTool.Offline }) { convention in
            let session = LanguageModelSession(model: RealModel.model, tools: [BrokenTool()])
            session.errorConvention = convention
            let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 20, toolCallingMode: .required)
            return try await caught { try await session.respond(to: "What should I wear in Moscow today?", options: options) }
        },
        Scenario(name: "an option out of range", sdk27: "GenerationOptions.InvalidOptionError", sdk26: "GenerationOptions.InvalidOptionError",
                 check: { ($0 as? GenerationOptions.InvalidOptionError)?.option == "temperature" }) { convention in
            let session = LanguageModelSession(model: RealModel.model)
            session.errorConvention = convention
            return try await caught { try await session.respond(to: "Hi", options: GenerationOptions(temperature: -1)) }
        },
    ]

    // MARK: - The session's own checks (scripted models)

    /// A model that can do neither guided generation nor tool calling.
    static func textOnlyModel() -> ScriptedProvider { ScriptedProvider([.text(["never"])], capabilities: LanguageModelCapabilities([])) }

    static let sessionScenarios: [Scenario] = [
        Scenario(name: "tools on a model without tool calling", sdk27: "LanguageModelError.unsupportedCapability",
                 sdk26: "LanguageModelError.unsupportedCapability",
                 check: { error in
                     guard case LanguageModelError.unsupportedCapability(let missing) = error else { return false }
                     return missing.capability == .toolCalling
                 }) { convention in
            let session = LanguageModelSession(model: textOnlyModel(), tools: [GetWeather()])
            session.errorConvention = convention
            return try await caught { try await session.respond(to: "Weather?") }
        },
        Scenario(name: "the transcript is set while the session responds", sdk27: "LanguageModelSession.Error.transcriptMutationWhileResponding",
                 sdk26: "LanguageModelSession.Error.transcriptMutationWhileResponding", check: { _ in true }) { convention in
            let model = ScriptedProvider([.slow(count: 20, interval: .milliseconds(2))])
            let session = LanguageModelSession(model: model)
            session.errorConvention = convention
            let request = Task { try await session.respond(to: "slow") }
            while model.slowEmitted.load(ordering: .relaxed) < 1 { try await Task.sleep(for: .milliseconds(1)) }
            session.transcript = Transcript()
            return try await caught { _ = try await request.value }
        },
    ]

    // MARK: - The server models, through the fault proxy

    /// A session on an OpenAI-compatible model behind a proxy that plays `fault`, with the convention set.
    static func openAI(_ fault: FaultProxy.Fault, tools: [any Tool] = [], convention: LanguageModelSession.ErrorConvention,
                       timeout: TimeInterval = 5, request: (LanguageModelSession) async throws -> Void) async throws -> any Error {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(fault)
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy, timeout: timeout), tools: tools)
        session.errorConvention = convention
        let before = session.transcript
        let error = try await caught { try await request(session) }
        #expect(session.transcript == before, "the transcript rolls back")
        return error
    }

    /// The same on a Claude model.
    static func claude(_ fault: FaultProxy.Fault, convention: LanguageModelSession.ErrorConvention,
                       tools: [any Tool] = []) async throws -> any Error {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(fault)
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy), tools: tools)
        session.errorConvention = convention
        return try await caught { try await session.respond(to: "Hi") }
    }

    static let serverScenarios: [Scenario] = [
        Scenario(name: "OpenAI: HTTP 429", sdk27: "LanguageModelError.rateLimited", sdk26: "LanguageModelSession.GenerationError.rateLimited",
                 check: { error in
                     guard case LanguageModelError.rateLimited(let limited) = error else { return false }
                     return limited.resetDate == Date(timeIntervalSince1970: 2_139_722_880)
                         && limited.debugDescription == "HTTP 429 from the server: slow down"
                 }) { convention in
            try await openAI(.respond(status: 429, headers: ["Retry-After": "Wed, 21 Oct 2037 07:28:00 GMT"],
                                       body: Data(#"{"error":{"message":"slow down"}}"#.utf8)), convention: convention) {
                try await $0.respond(to: "x")
            }
        },
        Scenario(name: "OpenAI: llama.cpp's context overflow", sdk27: "LanguageModelError.contextSizeExceeded",
                 sdk26: "LanguageModelSession.GenerationError.exceededContextWindowSize",
                 check: { error in
                     guard case LanguageModelError.contextSizeExceeded(let overflow) = error else { return false }
                     return overflow.contextSize == 4096 && overflow.tokenCount == 5031
                 }) { convention in
            let body = #"{"error":{"code":400,"message":"request (5031 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5031,"n_ctx":4096}}"#
            return try await openAI(.respond(status: 400, body: Data(body.utf8)), convention: convention) { try await $0.respond(to: "x") }
        },
        Scenario(name: "OpenAI: the first byte comes after the timeout", sdk27: "LanguageModelError.timeout", sdk26: "LanguageModelError.timeout",
                 check: { ($0 as? LanguageModelError)?.debugDescription.hasSuffix("within 1.0 s.") == true }) { convention in
            try await openAI(.delay(.seconds(10), then: .stream(chunks: OpenAIStreams.text(["late"]))), convention: convention, timeout: 1) {
                try await $0.respond(to: "x")
            }
        },
        Scenario(name: "OpenAI: the content filter stops the answer", sdk27: "LanguageModelError.refusal",
                 sdk26: "LanguageModelSession.GenerationError.refusal",
                 check: { ($0 as? LanguageModelError)?.debugDescription == "The server's content filter stopped the response." }) { convention in
            try await openAI(.stream(chunks: [OpenAIStreams.delta("I"), OpenAIStreams.finish("content_filter"), OpenAIStreams.done]),
                             convention: convention) { try await $0.respond(to: "x") }
        },
        Scenario(name: "OpenAI: tool arguments that are not JSON", sdk27: "GeneratedContent.ParsingError",
                 sdk26: "LanguageModelSession.GenerationError.decodingFailure",
                 check: { error in
                     guard let parsing = error as? GeneratedContent.ParsingError else { return false }
                     return parsing.rawContent == #"{"city":"#
                         && parsing.underlyingError as? ServerModelError == .invalidToolCallArguments(toolName: "get_weather", reason: #"not JSON: {"city":"#)
                 }) { convention in
            let call = OpenAIStreams.event(#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"get_weather","arguments":"{\"city\": "}}]}}]}"#)
            return try await openAI(.stream(chunks: [call, OpenAIStreams.finish("tool_calls"), OpenAIStreams.done]), tools: [GetWeather()],
                                    convention: convention) { try await $0.respond(to: "x") }
        },
        Scenario(name: "OpenAI: a structured answer off the schema", sdk27: "GeneratedContent.ParsingError",
                 sdk26: "LanguageModelSession.GenerationError.decodingFailure",
                 check: { error in
                     guard let parsing = error as? GeneratedContent.ParsingError else { return false }
                     return parsing.rawContent == #"{"title":"Soup","ingredients":[],"minutes":999}"#
                         && parsing.debugDescription.hasPrefix("The response does not follow the schema Recipe: ")
                 }) { convention in
            try await openAI(.stream(chunks: OpenAIStreams.text([#"{"title": "Soup", "ingredients": [], "minutes": 999}"#])),
                             convention: convention) { _ = try await $0.respond(to: "A recipe", generating: Recipe.self) }
        },
        Scenario(name: "OpenAI: HTTP 500", sdk27: "ServerModelError.httpStatus", sdk26: "ServerModelError.httpStatus",
                 check: { ($0 as? ServerModelError) == .httpStatus(code: 500, bodyExcerpt: "boom") }) { convention in
            try await openAI(.respond(status: 500, body: Data("boom".utf8)), convention: convention) { try await $0.respond(to: "x") }
        },
        Scenario(name: "OpenAI: the server is unreachable", sdk27: "ServerModelError.unreachable", sdk26: "ServerModelError.unreachable",
                 check: { error in
                     guard case ServerModelError.unreachable(let what) = error else { return false }
                     return what.hasPrefix("http://127.0.0.1:")
                 }) { convention in
            let port = try RefusingPort()
            let model = OpenAICompatibleLanguageModel(baseURL: port.baseURL.appendingPathComponent("v1"), model: "m", apiKey: OpenAIStreams.secret, timeout: 5)
            let session = LanguageModelSession(model: model)
            session.errorConvention = convention
            let error = try await caught { try await session.respond(to: "x") }
            withExtendedLifetime(port) {}
            return error
        },
        Scenario(name: "Claude: stop_reason refusal", sdk27: "LanguageModelError.refusal", sdk26: "LanguageModelSession.GenerationError.refusal",
                 check: { ($0 as? LanguageModelError)?.debugDescription == #"The model stopped with stop_reason "refusal"."# }) { convention in
            try await claude(.stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.refusal)), convention: convention)
        },
        Scenario(name: "Claude: tool input cut off inside its object", sdk27: "GeneratedContent.ParsingError",
                 sdk26: "LanguageModelSession.GenerationError.decodingFailure",
                 check: { error in
                     guard let parsing = error as? GeneratedContent.ParsingError,
                           case ServerModelError.invalidToolCallArguments(let name, _)? = parsing.underlyingError else { return false }
                     return name == "get_weather" && parsing.rawContent == #"{"city": "Os"#
                 }) { convention in
            let cut = ClaudeRecordedStreams.toolCall().replacingOccurrences(of: #"{\"city\":\"Oslo\"}"#, with: #"{\"city\": \"Os"#)
            return try await claude(.stream(chunks: ClaudeTestServer.chunks(cut)), convention: convention, tools: [GetWeather()])
        },
        Scenario(name: "Claude: HTTP 529 overloaded", sdk27: "ClaudeError.overloaded", sdk26: "ClaudeError.overloaded",
                 check: { ($0 as? ClaudeError) == .overloaded(message: "Overloaded") }) { convention in
            let body = Data(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.utf8)
            return try await claude(.respond(status: 529, body: body), convention: convention)
        },
    ]
}
