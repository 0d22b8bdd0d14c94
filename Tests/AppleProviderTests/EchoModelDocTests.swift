// The provider skeleton of docs/providers.md, compiled and run: if the page's code stops compiling against
// LMSession, or stops answering through a session, this file says so.
import Foundation
import LMSession
import Testing

public struct EchoModel: Sendable {
    public let name: String
}

extension EchoModel: LanguageModel {
    public var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([.toolCalling]) }
    public var executorConfiguration: Executor.Configuration { Executor.Configuration(name: name) }
}

extension EchoModel {
    public struct Executor: LanguageModelExecutor {
        public typealias Model = EchoModel
        public struct Configuration: Hashable, Sendable { let name: String }

        public init(configuration: Configuration) throws {}

        public func respond(to request: LanguageModelExecutorGenerationRequest, model: EchoModel,
                            streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
            let entry = UUID().uuidString
            await channel.send(.response(entryID: entry, action: .appendText("Hello from \(model.name).", tokenCount: 4)))
        }
    }
}

@Suite("The provider of docs/providers.md")
struct EchoModelDocTests {
    @Test("answers through a session, and a schema on it is an undeclared capability")
    func answersThroughASession() async throws {
        let session = LanguageModelSession(model: EchoModel(name: "echo"))
        let response = try await session.respond(to: "Hi")
        #expect(response.content == "Hello from echo.")
        await #expect(throws: LanguageModelError.self) {
            _ = try await session.respond(to: "Hi", schema: GenerationSchema(root: DynamicGenerationSchema(type: String.self), dependencies: []))
        }
    }
}
