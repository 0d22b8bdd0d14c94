import Foundation
import LMSession
import Synchronization
import Testing

/// A model that checks the context budget itself, on the tokens it renders (the local model's), is trusted
/// with it: the session does not render and tokenize the request a second time to count it. A model that does
/// not, with a context size, is counted by the session before its executor runs.
@Suite struct BudgetCheckTests {
    final class CountingProvider: LanguageModelDetails {
        var checksContextBudget: Bool { true }
        let counts = Atomic(0)
        let contextSize = 10
        var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([]) }
        var executorConfiguration: Executor.Configuration { .init() }

        func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
            counts.add(1, ordering: .relaxed)
            return 1
        }

        /// Answers "ok" to short prompts; over budget (prompts of more than 8 words) it throws.
        struct Executor: LanguageModelExecutor {
            struct Configuration: Hashable, Sendable {}
            init(configuration: Configuration) {}
            func respond(to request: LanguageModelExecutorGenerationRequest, model: CountingProvider,
                         streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
                let words = request.transcript.last.map { "\($0)" }?.split(separator: " ").count ?? 0
                if words > 8 {
                    throw LanguageModelError.contextSizeExceeded(.init(contextSize: 10, tokenCount: words,
                        debugDescription: "Content contains \(words) tokens, which exceeds the maximum allowed context size of 10."))
                }
                await channel.send(.response(action: .appendText("ok", tokenCount: 1)))
            }
        }
    }

    @Test func theSessionDoesNotCountWhatTheConversationChecks() async throws {
        let provider = CountingProvider()
        let session = LanguageModelSession(model: provider)
        #expect(try await session.respond(to: "hi").content == "ok")
        do {
            try await session.respond(to: "one two three four five six seven eight nine ten eleven")
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.debugDescription.hasSuffix("exceeds the maximum allowed context size of 10."))
            #expect(overflow.tokenCount == 12, "the description \"Prompt: one … eleven\" has 12 words")
        }
        #expect(provider.counts.load(ordering: .relaxed) == 0)
        #expect(session.transcript.count == 2, "the failed request rolled back")
    }

    @Test func aModelThatDoesNotCheckIsCountedBeforeItsExecutorRuns() async throws {
        let provider = ScriptedProvider([.text(["never"])], contextSize: 5)
        let session = LanguageModelSession(model: provider)
        await #expect(throws: LanguageModelError.self) {
            try await session.respond(to: "one two three four five six")
        }
        #expect(provider.requests.isEmpty, "the executor was not called")
    }
}
