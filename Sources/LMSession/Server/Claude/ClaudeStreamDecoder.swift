import Foundation
import LMGrammar

/// Reads one Messages API event stream (the events of one model call) and reports what the session needs as
/// ``LanguageModelEvent``s: text deltas, the tool calls (once the message ends) and the usage.
///
/// Events: `message_start` (input usage), `content_block_start`/`_delta`/`_stop` for `text` (`text_delta`),
/// `tool_use` (`input_json_delta`, parsed at the block's stop), `thinking` (`thinking_delta`,
/// `signature_delta`), `redacted_thinking`, `server_tool_use` and server tool results; `message_delta`
/// (`stop_reason`, cumulative usage), `message_stop`, `ping`, `error`.
///
/// Thinking never reaches the response text: each thinking block is reported whole, with its signature, as
/// ``LanguageModelEvent/reasoning(text:signature:)`` (the session records a reasoning entry). Other blocks the
/// API needs back when the step's tool calls are answered (redacted thinking, server tool calls and their
/// results) are kept, in order, in ``replayBlocks``; server tool calls and results are also reported as
/// ``LanguageModelEvent/segment(_:)`` (see ``ClaudeServerToolSegment``).
///
/// Stop reasons: `end_turn`, `stop_sequence`, `max_tokens`, `tool_use` end normally; `pause_turn` too, and the
/// conversation then continues the turn in a new request with ``contentBlocks``; `refusal` throws ``LanguageModelError/refusal(_:)``;
/// `model_context_window_exceeded` throws ``LanguageModelError/contextSizeExceeded(_:)``.
package struct ClaudeStreamDecoder {
    let errorContext: ClaudeErrorMapping.Context

    /// A content block being streamed, by its index. The part that streams (text, a tool's input JSON, thinking)
    /// is in ``streamed``.
    private enum Block {
        case text
        case toolUse(id: String, name: String)
        case thinking(signature: String)
        /// A block kept as sent (redacted thinking, a server tool's result), or a server tool call whose
        /// input streams as JSON (`streamsInput`).
        case replayed(JSONValue, streamsInput: Bool)
    }

    private var blocks: [Int: Block] = [:]
    /// The streamed part of each open block, appended in place (a block of many deltas grows in linear time).
    private var streamed: [Int: String] = [:]
    private var toolCalls: [Transcript.ToolCall] = []
    /// Blocks to send back before this step's tool calls (see the type's documentation).
    private(set) var replayBlocks: [JSONValue] = []
    /// ``replayBlocks`` as compact JSON texts.
    package var replayBlocksJSON: [String] { replayBlocks.map(\.compactText) }
    private var inputTokens = 0
    private var cachedInputTokens = 0
    private var outputTokens = 0
    /// The message's `stop_reason`, once `message_delta` has said it.
    package private(set) var stopReason: String?
    /// Every completed block of the message, as the API would take it back (for `pause_turn`).
    private(set) var contentBlocks: [JSONValue] = []
    private var started = false
    /// True once `message_stop` has been read.
    package private(set) var finished = false

    package init(errorContext: ClaudeErrorMapping.Context) {
        self.errorContext = errorContext
    }

    /// Reads one event (`name` is its SSE `event` field; the JSON's `type` decides when they differ).
    /// - Throws: ``ServerModelError/invalidResponse(_:)`` for unreadable JSON or events out of order, the
    ///   mapped error for an `error` event, and the stop-reason errors above at `message_stop`.
    package mutating func consume(name: String, data: String) throws -> [LanguageModelEvent] {
        if name == "error" { throw ClaudeErrorMapping.streamError(data: data, context: errorContext) }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            throw ServerModelError.invalidResponse("unreadable \(name) event: \(error)")
        }
        let type = json["type"]?.stringValue ?? name
        if type != "message_start", type != "ping", type != "error", !started {
            throw ServerModelError.invalidResponse("\(type) before message_start")
        }
        switch type {
        case "message_start":
            started = true
            if let usage = json["message"]?["usage"] { readUsage(usage) }
            return []
        case "content_block_start":
            return try startBlock(json)
        case "content_block_delta":
            return try delta(json)
        case "content_block_stop":
            return try stopBlock(json)
        case "message_delta":
            if let reason = json["delta"]?["stop_reason"]?.stringValue { stopReason = reason }
            if let usage = json["usage"] { readUsage(usage) }
            return []
        case "message_stop":
            finished = true
            return try end()
        case "error":
            throw ClaudeErrorMapping.streamError(data: data, context: errorContext)
        default:
            return [] // ping, and event types added to the API later
        }
    }

    // MARK: - Blocks

    private func index(_ json: JSONValue) throws -> Int {
        guard let index = json["index"]?.intValue else { throw ServerModelError.invalidResponse("content block event without an index") }
        return index
    }

    /// Opens a block; a text block that starts with text reports it.
    private mutating func startBlock(_ json: JSONValue) throws -> [LanguageModelEvent] {
        let index = try index(json)
        guard let block = json["content_block"], let type = block["type"]?.stringValue else {
            throw ServerModelError.invalidResponse("content_block_start without a content_block")
        }
        switch type {
        case "text":
            let text = block["text"]?.stringValue ?? ""
            blocks[index] = .text
            streamed[index] = text
            if !text.isEmpty { return [.text(text)] }
        case "tool_use":
            guard let id = block["id"]?.stringValue, let name = block["name"]?.stringValue else {
                throw ServerModelError.invalidResponse("tool_use block without id or name")
            }
            blocks[index] = .toolUse(id: id, name: name)
            streamed[index] = ""
        case "thinking":
            blocks[index] = .thinking(signature: block["signature"]?.stringValue ?? "")
            streamed[index] = block["thinking"]?.stringValue ?? ""
        case "server_tool_use":
            blocks[index] = .replayed(block, streamsInput: true)
            streamed[index] = ""
        default:
            // redacted_thinking, web_search_tool_result, web_fetch_tool_result, code execution results, ...:
            // complete in their start event.
            blocks[index] = .replayed(block, streamsInput: false)
            streamed[index] = nil
        }
        return []
    }

    private mutating func delta(_ json: JSONValue) throws -> [LanguageModelEvent] {
        let index = try index(json)
        guard let delta = json["delta"], let type = delta["type"]?.stringValue else {
            throw ServerModelError.invalidResponse("content_block_delta without a delta")
        }
        guard let block = blocks[index] else { throw ServerModelError.invalidResponse("delta for content block \(index), which was not started") }
        switch (type, block) {
        case ("text_delta", .text):
            let text = delta["text"]?.stringValue ?? ""
            streamed[index, default: ""] += text
            return text.isEmpty ? [] : [.text(text)]
        case ("input_json_delta", .toolUse), ("input_json_delta", .replayed(_, streamsInput: true)):
            streamed[index, default: ""] += delta["partial_json"]?.stringValue ?? ""
        case ("thinking_delta", .thinking):
            streamed[index, default: ""] += delta["thinking"]?.stringValue ?? ""
        case let ("signature_delta", .thinking(signature)):
            blocks[index] = .thinking(signature: signature + (delta["signature"]?.stringValue ?? ""))
        default:
            break // citations_delta and deltas added to the API later
        }
        return []
    }

    private mutating func stopBlock(_ json: JSONValue) throws -> [LanguageModelEvent] {
        let index = try index(json)
        guard let block = blocks.removeValue(forKey: index) else { return [] }
        let streamedText = streamed.removeValue(forKey: index)
        switch block {
        case .text:
            let text = streamedText ?? ""
            if !text.isEmpty { contentBlocks.append(.members([.init(key: "type", value: .text("text")), .init(key: "text", value: .text(text))])) }
        case let .toolUse(id, name):
            let text = streamedText ?? ""
            func invalid(_ what: String) -> GeneratedContent.ParsingError {
                .invalidToolCallArguments(toolName: name, reason: "\(what): \(errorContext.redactor.redact(text))",
                                          arguments: errorContext.redactor.redact(text))
            }
            let arguments: GeneratedContent
            do {
                arguments = text.trimmingCharacters(in: .whitespaces).isEmpty ? try GeneratedContent(json: "{}") : try GeneratedContent(json: text)
            } catch {
                throw invalid("not JSON")
            }
            guard case .structure = arguments.kind else { throw invalid("not a JSON object") }
            // A cut-off object reads as its valid prefix: still not the arguments the model meant.
            guard arguments.isComplete else { throw invalid("not JSON") }
            toolCalls.append(Transcript.ToolCall(id: id, toolName: name, arguments: arguments))
            contentBlocks.append(.members([.init(key: "type", value: .text("tool_use")), .init(key: "id", value: .text(id)),
                                           .init(key: "name", value: .text(name)), .init(key: "input", value: (try? JSONValue.parse(arguments.jsonString)) ?? .members([]))]))
        case let .thinking(signature):
            let text = streamedText ?? ""
            contentBlocks.append(.members([.init(key: "type", value: .text("thinking")), .init(key: "thinking", value: .text(text)),
                                           .init(key: "signature", value: .text(signature))]))
            // llama-server sends an empty signature (local models sign nothing): unsigned.
            return [.reasoning(text: text, signature: signature.isEmpty ? nil : Data(base64Encoded: signature))]
        case let .replayed(value, streamsInput):
            var value = value
            if streamsInput, let inputJSON = streamedText, !inputJSON.isEmpty, case let .object(members, _) = value, let input = try? JSONValue.parse(inputJSON) {
                value = .members(members.filter { $0.key != "input" } + [.init(key: "input", value: input)])
            }
            replayBlocks.append(value)
            contentBlocks.append(value)
            if let segment = ClaudeServerToolSegment.segment(for: value) { return [.segment(segment)] }
        }
        return []
    }

    // MARK: - End

    private mutating func readUsage(_ usage: JSONValue) {
        // message_start reports the input; message_delta's counts are cumulative, so the latest wins.
        let fresh = usage["input_tokens"]?.intValue
        let read = usage["cache_read_input_tokens"]?.intValue
        let created = usage["cache_creation_input_tokens"]?.intValue
        if fresh != nil || read != nil || created != nil {
            let newInput = (fresh ?? 0) + (read ?? 0) + (created ?? 0)
            if newInput > 0 || inputTokens == 0 {
                inputTokens = newInput
                cachedInputTokens = read ?? 0
            }
        }
        if let output = usage["output_tokens"]?.intValue { outputTokens = output }
    }

    private func end() throws -> [LanguageModelEvent] {
        let usage = LanguageModelUsage(inputTokens: inputTokens, cachedInputTokens: cachedInputTokens, outputTokens: outputTokens)
        switch stopReason {
        case "refusal"?:
            throw LanguageModelError.refusal(.init(debugDescription: "The model stopped with stop_reason \"refusal\".", metadata: ["usage.outputTokens": outputTokens]))
        case "model_context_window_exceeded"?:
            throw LanguageModelError.contextSizeExceeded(.init(contextSize: errorContext.contextSize, tokenCount: inputTokens + outputTokens,
                debugDescription: "The response reached the end of the model's context window (\(inputTokens) input + \(outputTokens) output tokens)."))
        default:
            return [.usage(usage)] + (toolCalls.isEmpty ? [] : [.toolCalls(toolCalls)])
        }
    }
}
