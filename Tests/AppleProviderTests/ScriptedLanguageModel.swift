// A provider package written only from Apple's guide to its model contract (apple/foundation-models-utilities,
// skills/foundation-models-language-model-protocol): a model, its executor and configuration, translating a
// provider's stream into channel events. Its provider is an in-memory stub transport that plays scripted turns,
// as the guide's end-to-end tests stub theirs. Written for `import FoundationModels`; only the import differs.
import Foundation
import LMSession
import Synchronization

/// What the stubbed provider streams, in the shapes the guide's executor translates.
enum ProviderEvent: Sendable {
    case textDelta(String)
    case correctedText(String)
    case toolCallStart(id: String, name: String)
    case toolCallArgsDelta(id: String, name: String, args: String)
    case toolCallRetracted(id: String)
    case reasoningDelta(String)
    case reasoningSignature(Data)
    case usage(prompt: Int, cached: Int, completion: Int, reasoning: Int)
    case metadata([String: String])
    /// Waits until the request is cancelled.
    case stall
    case failure(LanguageModelError)
    case done
}

/// The stub transport: scripted turns per model id, played in order, and the requests the executor sent.
final class StubbedTransport: Sendable {
    static let shared = StubbedTransport()

    private struct State {
        var turns: [String: [[ProviderEvent]]] = [:]
        var requests: [String: [LanguageModelExecutorGenerationRequest]] = [:]
        var executorsMade: [String: Int] = [:]
    }
    private let state = Mutex(State())

    func respond(with turns: [[ProviderEvent]], for modelID: String) {
        state.withLock { $0.turns[modelID, default: []] += turns }
    }

    func requests(for modelID: String) -> [LanguageModelExecutorGenerationRequest] {
        state.withLock { $0.requests[modelID] ?? [] }
    }

    func executorsMade(for modelID: String) -> Int {
        state.withLock { $0.executorsMade[modelID] ?? 0 }
    }

    func executorMade(for modelID: String) {
        state.withLock { $0.executorsMade[modelID, default: 0] += 1 }
    }

    func openStream(for request: LanguageModelExecutorGenerationRequest, modelID: String) -> AsyncThrowingStream<ProviderEvent, any Error> {
        let turn: [ProviderEvent] = state.withLock { state in
            state.requests[modelID, default: []].append(request)
            guard var turns = state.turns[modelID], !turns.isEmpty else { return [.done] }
            let first = turns.removeFirst()
            state.turns[modelID] = turns
            return first
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                for event in turn {
                    switch event {
                    case .stall:
                        while !Task.isCancelled { try? await Task.sleep(nanoseconds: 5_000_000) }
                        continuation.finish(throwing: CancellationError())
                        return
                    case .failure(let error):
                        continuation.finish(throwing: error)
                        return
                    default:
                        continuation.yield(event)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

public struct ScriptedLanguageModel: Sendable {
    public let modelID: String
    public let declared: [LanguageModelCapabilities.Capability]

    public init(name: String, capabilities: [LanguageModelCapabilities.Capability] = [.toolCalling, .reasoning, .guidedGeneration]) {
        self.modelID = name
        self.declared = capabilities
    }
}

extension ScriptedLanguageModel: LanguageModel {
    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities(declared)
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(modelID: modelID)
    }
}

extension ScriptedLanguageModel {
    public struct Executor: LanguageModelExecutor {
        public typealias Model = ScriptedLanguageModel

        public struct Configuration: Hashable, Sendable {
            let modelID: String
        }

        private let configuration: Configuration

        public init(configuration: Configuration) throws {
            self.configuration = configuration
            StubbedTransport.shared.executorMade(for: configuration.modelID)
        }

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: ScriptedLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            let responseEntryID = UUID().uuidString
            let toolCallsEntryID = UUID().uuidString

            for try await providerEvent in StubbedTransport.shared.openStream(for: request, modelID: configuration.modelID) {
                try Task.checkCancellation()

                switch providerEvent {
                case .textDelta(let text):
                    await channel.send(.response(entryID: responseEntryID, action: .appendText(text, tokenCount: 1)))

                case .correctedText(let text):
                    await channel.send(.response(entryID: responseEntryID, action: .replaceTextSegment(text, tokenCount: 1)))

                case .toolCallStart(let id, let name):
                    await channel.send(.toolCalls(entryID: toolCallsEntryID,
                                                  action: .toolCall(id: id, name: name, action: .appendArguments("", tokenCount: 0))))

                case .toolCallArgsDelta(let id, let name, let args):
                    await channel.send(.toolCalls(entryID: toolCallsEntryID,
                                                  action: .toolCall(id: id, name: name, action: .appendArguments(args, tokenCount: 1))))

                case .toolCallRetracted(let toolCallID):
                    await channel.send(.toolCalls(entryID: toolCallsEntryID, action: .removeToolCall(id: toolCallID)))

                case .reasoningDelta(let text):
                    await channel.send(.reasoning(entryID: nil, action: .appendText(text, tokenCount: 1)))

                case .reasoningSignature(let signature):
                    await channel.send(.reasoning(entryID: nil, action: .updateSignature(signature, tokenCount: 0)))

                case .usage(let prompt, let cached, let completion, let reasoning):
                    await channel.send(.response(entryID: responseEntryID, action: .updateUsage(
                        input: .init(totalTokenCount: prompt, cachedTokenCount: cached),
                        output: .init(totalTokenCount: completion, reasoningTokenCount: reasoning))))

                case .metadata(let values):
                    await channel.send(.response(entryID: responseEntryID, action: .updateMetadata(values)))

                case .stall, .failure:
                    break  // the transport acts these out

                case .done:
                    return
                }
            }
        }
    }
}
