import LMGrammar

extension ClaudeRequestBody {
    /// The transcript as the API's `system` text and alternating `messages`.
    ///
    /// Instructions become `system`; a prompt a user message of text and image blocks; a response an assistant
    /// message (structured segments as their JSON text); tool calls `tool_use` blocks of the assistant
    /// message (after any replayed blocks of their step); tool outputs `tool_result` blocks of a user
    /// message. Signed reasoning entries after the last prompt (the turn whose tool results are being sent)
    /// become `thinking` blocks in front of that turn's tool calls, as the API requires; earlier turns'
    /// reasoning is left out (the API allows it, and ignores it if sent). Consecutive messages of one role are merged (parallel tool outputs are one user message),
    /// and empty text blocks, which the API rejects, are left out.
    static func messages(from transcript: Transcript, replay: [String: [JSONValue]]) -> (system: String?, messages: [JSONValue]) {
        var system: String?
        var messages: [(role: String, content: [JSONValue])] = []
        let lastPrompt = transcript.lastIndex { if case .prompt = $0 { true } else { false } } ?? -1
        func add(_ role: String, _ content: [JSONValue]) {
            guard !content.isEmpty else { return }
            if messages.last?.role == role { messages[messages.count - 1].content += content } else { messages.append((role, content)) }
        }
        for (index, entry) in transcript.enumerated() {
            switch entry {
            case .instructions(let instructions):
                let text = instructions.segments.descriptionText
                if !text.isEmpty { system = system.map { $0 + "\n\n" + text } ?? text }
            case .prompt(let prompt):
                add("user", promptBlocks(prompt.segments))
            case .response(let response):
                add("assistant", assistantBlocks(response.segments))
            case .toolCalls(let calls):
                let replayed = calls.first.flatMap { replay[$0.id] } ?? []
                add("assistant", replayed + calls.map(toolUse))
            case .reasoning(let reasoning):
                guard index > lastPrompt, let signature = reasoning.signature, !signature.isEmpty else { continue }
                add("assistant", [.members([.init(key: "type", value: .text("thinking")),
                                            .init(key: "thinking", value: .text(reasoning.segments.map(\.description).joined())),
                                            .init(key: "signature", value: .text(signature.base64EncodedString()))])])
            case .toolOutput(let output):
                add("user", [.members([.init(key: "type", value: .text("tool_result")),
                                       .init(key: "tool_use_id", value: .text(output.id)),
                                       .init(key: "content", value: .text(output.segments.descriptionText))])])
            }
        }
        let json = messages.map { JSONValue.members([.init(key: "role", value: .text($0.role)), .init(key: "content", value: .items($0.content))]) }
        return (system, json)
    }

    /// A response's blocks: server tool activity as the API sent it, everything else as text.
    static func assistantBlocks(_ segments: [Transcript.Segment]) -> [JSONValue] {
        segments.flatMap { segment -> [JSONValue] in
            if case .structure(let structure) = segment, let block = ClaudeServerToolSegment.block(of: structure) { return [block] }
            return textBlocks([segment])
        }
    }

    /// A prompt's blocks: `{"type": "image", "source": {"type": "base64", "media_type", "data"}}` for each image
    /// (the session has read its bytes before the request), a text block for every other non-empty segment.
    static func promptBlocks(_ segments: [Transcript.Segment]) -> [JSONValue] {
        segments.flatMap { segment -> [JSONValue] in
            guard case .attachment(let attachment) = segment, case .image(let image) = attachment.content,
                  let (data, mime) = image.uprightFile else { return textBlocks([segment]) }
            return [.members([.init(key: "type", value: .text("image")),
                              .init(key: "source", value: .members([.init(key: "type", value: .text("base64")),
                                                                    .init(key: "media_type", value: .text(mime)),
                                                                    .init(key: "data", value: .text(data.base64EncodedString()))]))])]
        }
    }

    /// One text block per non-empty segment.
    static func textBlocks(_ segments: [Transcript.Segment]) -> [JSONValue] {
        segments.map(\.description).filter { !$0.isEmpty }.map {
            .members([.init(key: "type", value: .text("text")), .init(key: "text", value: .text($0))])
        }
    }

    /// A `tool_use` block; arguments that are not an object (the API requires one) are sent as `{}`.
    static func toolUse(_ call: Transcript.ToolCall) -> JSONValue {
        var input = (try? JSONValue.parse(call.arguments.jsonString)) ?? .members([])
        if case .object = input {} else { input = .members([]) }
        return .members([.init(key: "type", value: .text("tool_use")), .init(key: "id", value: .text(call.id)),
                         .init(key: "name", value: .text(call.toolName)), .init(key: "input", value: input)])
    }
}
