import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LMSession
import Testing
import TestSupport

/// The Chat Completions provider written from Apple's guide, against the llama-server the test script starts
/// (`LMSESSION_LLAMA_SERVER_URL`; fails when unset unless `LMSESSION_SKIP_LLAMA_SERVER=1`).
@Suite(.enabled(if: LlamaServer.enabled), .timeLimit(.minutes(5)))
struct ChatCompletionsSessionTests {
    static let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)

    static func model() throws -> ChatCompletionsLanguageModel {
        ChatCompletionsLanguageModel(name: "smollm2", baseURL: try LlamaServer.baseURL().appendingPathComponent("v1"))
    }

    /// The same request posted directly, for the server's own answer and counts.
    static func direct(_ prompt: String, instructions: String) async throws -> (text: String, prompt: Int, completion: Int) {
        var request = URLRequest(url: try LlamaServer.baseURL().appendingPathComponent("v1/chat/completions"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "model": "smollm2", "stream": false, "temperature": 0, "max_tokens": 24,
            "messages": [["role": "system", "content": instructions], ["role": "user", "content": prompt]],
        ] as [String: Any])
        let (data, _) = try await URLSession.shared.data(for: request)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let message = try #require(((json["choices"] as? [[String: Any]])?.first)?["message"] as? [String: Any])
        let usage = try #require(json["usage"] as? [String: Any])
        return (message["content"] as? String ?? "", usage["prompt_tokens"] as? Int ?? -1, usage["completion_tokens"] as? Int ?? -1)
    }

    @Test func aSessionGetsTheServersGreedyAnswerAndUsage() async throws {
        let instructions = "You are a helpful assistant."
        let session = LanguageModelSession(model: try Self.model(), instructions: instructions)
        let response = try await session.respond(to: "Name a color.", options: Self.greedy)
        let expected = try await Self.direct("Name a color.", instructions: instructions)
        #expect(!expected.text.isEmpty)
        #expect(response.content == expected.text)
        #expect(response.usage.input.totalTokenCount == expected.prompt)
        #expect(response.usage.output.totalTokenCount == expected.completion)
        guard case .response(let entry)? = session.transcript.last else {
            Issue.record("no response entry")
            return
        }
        #expect((entry.metadata["completionID"] as? String)?.isEmpty == false)
    }

    @Test func streamingEndsWithTheWholeAnswer() async throws {
        let session = LanguageModelSession(model: try Self.model())
        var last = ""
        for try await snapshot in session.streamResponse(to: "Name a fruit.", options: Self.greedy) { last = snapshot.content }
        #expect(!last.isEmpty)
        #expect(session.transcript.count == 2)
    }

    @Test func aSchemaIsForwardedAndTheValueDecodes() async throws {
        let session = LanguageModelSession(model: try Self.model())
        let response = try await session.respond(to: "Plan a 3-day trip to Rome.", generating: Itinerary.self,
                                                 options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64))
        #expect(!response.content.city.isEmpty)
        // Checked against the schema by the session too: the server's grammar made it conform.
        #expect(response.rawContent.jsonString.contains("\"days\""))
    }

    @Test func theSecondTurnSendsTheFirstTurnBack() async throws {
        let session = LanguageModelSession(model: try Self.model(), instructions: "Answer in one word.")
        let first = try await session.respond(to: "Name a color.", options: Self.greedy)
        let executor = try ChatCompletionsLanguageModel.Executor(configuration: try Self.model().executorConfiguration)
        let body = try executor.body(for: LanguageModelExecutorGenerationRequest(transcript: session.transcript))
        let messages = try #require(body["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["system", "user", "assistant"])
        #expect(messages.last?["content"] as? String == first.content)
    }
}
