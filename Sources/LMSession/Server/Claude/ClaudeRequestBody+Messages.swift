import LMGrammar

extension ClaudeRequestBody {
    /// The transcript as the API's `system` text and alternating `messages`.
    ///
    /// Instructions become `system`; a prompt a user message of text blocks; a response an assistant
    /// message (structured segments as their JSON text); tool calls `tool_use` blocks of the assistant
    /// message (after any replayed blocks of their step); tool outputs `tool_result` blocks of a user
    /// message. Consecutive messages of one role are merged (parallel tool outputs are one user message),
    /// and empty text blocks, which the API rejects, are left out.
    static func messages(from transcript: Transcript, replay: [String: [JSONValue]]) -> (system: String?, messages: [JSONValue]) {
        var system: String?
        var messages: [(role: String, content: [JSONValue])] = []
        func add(_ role: String, _ content: [JSONValue]) {
            guard !content.isEmpty else { return }
            if messages.last?.role == role { messages[messages.count - 1].content += content } else { messages.append((role, content)) }
        }
        for entry in transcript {
            switch entry {
            case .instructions(let instructions):
                let text = instructions.segments.descriptionText
                if !text.isEmpty { system = system.map { $0 + "\n\n" + text } ?? text }
            case .prompt(let prompt):
                add("user", textBlocks(prompt.segments))
            case .response(let response):
                add("assistant", textBlocks(response.segments))
            case .toolCalls(let calls):
                let replayed = calls.first.flatMap { replay[$0.id] } ?? []
                add("assistant", replayed + calls.map(toolUse))
            case .toolOutput(let output):
                add("user", [.members([.init(key: "type", value: .text("tool_result")),
                                       .init(key: "tool_use_id", value: .text(output.id)),
                                       .init(key: "content", value: .text(output.segments.descriptionText))])])
            }
        }
        let json = messages.map { JSONValue.members([.init(key: "role", value: .text($0.role)), .init(key: "content", value: .items($0.content))]) }
        return (system, json)
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
