import Foundation
import LMSession
import Synchronization

/// A provider that plays back scripted steps instead of running a model, and records what it was asked.
/// Token counts are words: every whitespace-separated word of an entry counts 1, plus 2 per entry for its
/// turn markers, plus 1 for the response's opening.
final class ScriptedProvider: ConversationModel {
    enum Step: Sendable {
        /// Emits each text delta, then usage.
        case text([String])
        /// Emits the deltas, then throws.
        case fail([String], any Error)
        /// Emits the calls as one tool-calls step.
        case toolCalls([Transcript.ToolCall])
        /// Emits `count` deltas "t0 ", "t1 "... one per `interval`, stopping when the stream is terminated.
        case slow(count: Int, interval: Duration)
    }

    let contextSize: Int
    let availability: SystemLanguageModel.Availability
    private let script: Mutex<[Step]>
    private let log = Mutex<[LanguageModelRequest]>([])
    /// Deltas emitted after the consumer terminated the stream (must stay 0 or 1).
    let emittedAfterStop = Atomic(0)
    /// Deltas emitted in total by `.slow` steps.
    let slowEmitted = Atomic(0)
    /// Conversations made (one per session that runs on this provider).
    let conversationsMade = Atomic(0)

    let capabilities: LanguageModelCapabilities

    init(_ steps: [Step], contextSize: Int = 4096, availability: SystemLanguageModel.Availability = .available,
         capabilities: LanguageModelCapabilities = LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling])) {
        self.script = Mutex(steps)
        self.contextSize = contextSize
        self.availability = availability
        self.capabilities = capabilities
    }

    var requests: [LanguageModelRequest] { log.withLock { $0 } }

    var assetIDs: [String] { ["scripted"] }

    func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        switch input {
        case .request(let request): Self.count(Array(request.transcript)) + 1
        case .entries(let entries): Self.count(entries)
        case .tools(let tools): tools.reduce(0) { $0 + Self.words($1.name + " " + $1.description) }
        case .schema: 10
        }
    }

    static func words(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }

    static func count(_ entries: [Transcript.Entry]) -> Int {
        entries.reduce(0) { total, entry in
            let text: String = switch entry {
            case .instructions(let e): e.segments.map(\.description).joined(separator: " ")
            case .prompt(let e): e.segments.map(\.description).joined(separator: " ")
            case .response(let e): e.segments.map(\.description).joined(separator: " ")
            case .toolOutput(let e): e.segments.map(\.description).joined(separator: " ")
            case .toolCalls(let e): e.map(\.description).joined(separator: " ")
            case .reasoning(let e): e.segments.map(\.description).joined(separator: " ")
            }
            return total + words(text) + 2
        }
    }

    func makeConversation() -> any LanguageModelConversation {
        conversationsMade.add(1, ordering: .relaxed)
        return Conversation(provider: self)
    }

    fileprivate func nextStep(for request: LanguageModelRequest) -> Step {
        log.withLock { $0.append(request) }
        return script.withLock { $0.isEmpty ? .text(["(script ended)"]) : $0.removeFirst() }
    }

    final class Conversation: LanguageModelConversation {
        let provider: ScriptedProvider
        init(provider: ScriptedProvider) { self.provider = provider }

        func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
            let step = provider.nextStep(for: request)
            let provider = self.provider
            return AsyncThrowingStream { continuation in
                let stopped = Flag()
                let task = Task {
                    let input = try await provider.tokenCount(for: .request(request))
                    switch step {
                    case .text(let deltas):
                        for delta in deltas { continuation.yield(.text(delta)) }
                        continuation.yield(.usage(LanguageModelUsage(inputTokens: input, outputTokens: deltas.count)))
                        continuation.finish()
                    case let .fail(deltas, error):
                        for delta in deltas { continuation.yield(.text(delta)) }
                        continuation.finish(throwing: error)
                    case .toolCalls(let calls):
                        continuation.yield(.toolCalls(calls))
                        continuation.yield(.usage(LanguageModelUsage(inputTokens: input, outputTokens: calls.count)))
                        continuation.finish()
                    case let .slow(count, interval):
                        for index in 0..<count {
                            if Task.isCancelled { break }
                            try? await Task.sleep(for: interval)
                            provider.slowEmitted.add(1, ordering: .relaxed)
                            if stopped.value.load(ordering: .relaxed) { provider.emittedAfterStop.add(1, ordering: .relaxed) }
                            continuation.yield(.text("t\(index) "))
                        }
                        continuation.finish()
                    }
                }
                continuation.onTermination = { _ in
                    stopped.value.store(true, ordering: .relaxed)
                    task.cancel()
                }
            }
        }
    }
}

extension SystemLanguageModel {
    /// A model handle on a scripted provider.
    static func scripted(_ steps: [ScriptedProvider.Step], contextSize: Int = 4096) -> (SystemLanguageModel, ScriptedProvider) {
        let provider = ScriptedProvider(steps, contextSize: contextSize)
        return (SystemLanguageModel(provider: provider), provider)
    }
}

final class Flag: Sendable {
    let value = Atomic(false)
}
