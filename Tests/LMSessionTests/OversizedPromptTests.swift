import Foundation
import LMSession
import Testing

/// A prompt whose text alone passes the chat template's 4 MiB output limit (a tester pasted 5 MB): it has a token
/// count, and a request with it is over the context (`contextSizeExceeded`), not a template failure.
@Suite("A prompt past the template's output limit", .serialized, .timeLimit(.minutes(3)))
struct OversizedPromptTests {
    /// `n` repetitions of a unit that tokenizes the same each time (words after spaces).
    static func text(_ n: Int) -> String { String(repeating: "lorem ipsum dolor ", count: n) }

    @Test("its token count continues the rendered counts of shorter prompts")
    func countContinuesTheRenderedOnes() async throws {
        let model = RealModel.model
        // 1.8 and 3.6 MB render; 5.4 MB passes the 4 MiB limit and is counted from its text and markers.
        let counts = try await [100_000, 200_000, 300_000].asyncMap { try await model.tokenCount(for: Prompt(Self.text($0))) }
        let step = counts[1] - counts[0]
        #expect(step > 100_000, "\(counts)")
        #expect(abs((counts[2] - counts[1]) - step) <= 2, "\(counts)")
    }

    @Test("a request with it throws contextSizeExceeded and leaves the session as it was")
    func requestIsOverTheContext() async throws {
        let session = LanguageModelSession(model: RealModel.model, instructions: "Summarise.")
        do {
            _ = try await session.respond(to: Self.text(300_000), options: RealModel.greedy(4))
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.tokenCount > 1_000_000, "\(overflow)")
            #expect(overflow.contextSize == 4096)
        }
        #expect(session.transcript.count == 1)
        let answer = try await session.respond(to: "Hi.", options: RealModel.greedy(4))
        #expect(!answer.content.isEmpty)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
