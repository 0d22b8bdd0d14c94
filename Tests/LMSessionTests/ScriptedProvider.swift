import Foundation
import LMSession
import Synchronization

/// A model written against Apple's contract (a `LanguageModel` with its executor) that plays back scripted steps
/// instead of running a model, and records what it was asked.
/// Token counts are words: every whitespace-separated word of an entry counts 1, plus 2 per entry for its
/// turn markers, plus 1 for the response's opening.
final class ScriptedProvider: LanguageModelDetails {
    enum Step: Sendable {
        /// Sends each text delta, then usage.
        case text([String])
        /// Sends the deltas, then throws.
        case fail([String], any Error)
        /// Sends the calls as one tool-calls entry.
        case toolCalls([Transcript.ToolCall])
        /// Sends `count` deltas "t0 ", "t1 "... one per `interval`, stopping when the request is cancelled.
        case slow(count: Int, interval: Duration)
    }

    let contextSize: Int
    let availability: SystemLanguageModel.Availability
    private let script: Mutex<[Step]>
    private let log = Mutex<[LanguageModelRequest]>([])
    /// Deltas sent after the request was cancelled (must stay 0 or 1).
    let emittedAfterStop = Atomic(0)
    /// Deltas sent in total by `.slow` steps.
    let slowEmitted = Atomic(0)
    /// Executors made for this model (the session keeps one per configuration).
    let executorsMade = Atomic(0)

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

    var executorConfiguration: Executor.Configuration { Executor.Configuration(model: self) }

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

    fileprivate func nextStep(for request: LanguageModelRequest) -> Step {
        log.withLock { $0.append(request) }
        return script.withLock { $0.isEmpty ? .text(["(script ended)"]) : $0.removeFirst() }
    }

    struct Executor: LanguageModelExecutor {
        /// The model itself, compared by identity: each scripted model has its own executor.
        struct Configuration: Hashable, Sendable {
            let model: ScriptedProvider
            static func == (a: Self, b: Self) -> Bool { a.model === b.model }
            func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(model)) }
        }

        init(configuration: Configuration) {
            configuration.model.executorsMade.add(1, ordering: .relaxed)
        }

        func respond(to request: LanguageModelExecutorGenerationRequest, model: ScriptedProvider,
                     streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
            let recorded = LanguageModelRequest(request)
            let step = model.nextStep(for: recorded)
            let input = try await model.tokenCount(for: .request(recorded))
            let response = UUID().uuidString
            let calls = UUID().uuidString
            func usage(_ output: Int) -> LanguageModelExecutorGenerationChannel.Response.Action {
                .updateUsage(input: .init(totalTokenCount: input, cachedTokenCount: 0), output: .init(totalTokenCount: output, reasoningTokenCount: 0))
            }
            switch step {
            case .text(let deltas):
                for delta in deltas { await channel.send(.response(entryID: response, action: .appendText(delta, tokenCount: 1))) }
                await channel.send(.response(entryID: response, action: usage(deltas.count)))
            case let .fail(deltas, error):
                for delta in deltas { await channel.send(.response(entryID: response, action: .appendText(delta, tokenCount: 1))) }
                throw error
            case .toolCalls(let toolCalls):
                for call in toolCalls {
                    await channel.send(.toolCalls(entryID: calls, action: .toolCall(id: call.id, name: call.toolName,
                        action: .appendArguments(call.arguments.jsonString, tokenCount: 1))))
                }
                await channel.send(.toolCalls(entryID: calls, action: .updateUsage(input: .init(totalTokenCount: input, cachedTokenCount: 0),
                    output: .init(totalTokenCount: toolCalls.count, reasoningTokenCount: 0))))
            case let .slow(count, interval):
                for index in 0..<count {
                    if Task.isCancelled { break }
                    try? await Task.sleep(for: interval)
                    model.slowEmitted.add(1, ordering: .relaxed)
                    if Task.isCancelled { model.emittedAfterStop.add(1, ordering: .relaxed) }
                    await channel.send(.response(entryID: response, action: .appendText("t\(index) ", tokenCount: 1)))
                }
            }
        }
    }
}

final class Flag: Sendable {
    let value = Atomic(false)
}
