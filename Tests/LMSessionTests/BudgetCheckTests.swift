import Foundation
import LMSession
import Synchronization
import Testing

/// A conversation that checks the context budget on the tokens it renders (the local model's) is trusted
/// with it: the session does not render and tokenize the request a second time to count it.
@Suite struct BudgetCheckTests {
    final class CountingProvider: ConversationModel {
        let counts = Atomic(0)
        let contextSize = 10

        func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
            counts.add(1, ordering: .relaxed)
            return 1
        }

        func makeConversation() -> any LanguageModelConversation { Conversation() }

        /// Answers "ok" to short prompts; over budget (prompts of more than 8 words) it throws.
        final class Conversation: LanguageModelConversation, ChecksContextBudget {
            func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
                AsyncThrowingStream { continuation in
                    let words = request.transcript.last.map { "\($0)" }?.split(separator: " ").count ?? 0
                    if words > 8 {
                        continuation.finish(throwing: LanguageModelError.contextSizeExceeded(.init(contextSize: 10, tokenCount: words,
                            debugDescription: "Content contains \(words) tokens, which exceeds the maximum allowed context size of 10.")))
                    } else {
                        continuation.yield(.text("ok"))
                        continuation.finish()
                    }
                }
            }
        }
    }

    @Test func theSessionDoesNotCountWhatTheConversationChecks() async throws {
        let provider = CountingProvider()
        let session = LanguageModelSession(model: SystemLanguageModel(provider: provider))
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
}
