import LMJinja
import LMTransformer

/// One message of a prompt before rendering: the role and text every format needs, and for a template that
/// renders tools itself the structured call or output.
package struct PromptMessage: Sendable {
    package var role: ChatMessage.Role
    /// The text; for calls and outputs that the template does not render itself, the envelope text.
    package var content: String
    /// The assistant's calls, when the template renders them (`tool_calls`).
    package var toolCalls: [Transcript.ToolCall] = []
    /// The output's call, when the template renders tool messages (`tool_call_id`, `name`).
    package var toolOutput: (id: String, name: String)?
    /// The images `content` holds as ``LocalVision/marker``s, in order (a vision model's only).
    var images: [Transcript.ImageAttachment] = []

    package init(role: ChatMessage.Role, content: String, toolCalls: [Transcript.ToolCall] = [], toolOutput: (id: String, name: String)? = nil,
                 images: [Transcript.ImageAttachment] = []) {
        self.images = images
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.toolOutput = toolOutput
    }

    /// The message for the native renderers (text only).
    var chatMessage: ChatMessage { ChatMessage(role: role, content: content) }

    /// The OpenAI-style message object templates read: `role` and `content`, plus `tool_calls`
    /// (`[{id, type: "function", function: {name, arguments}}]`, arguments as an object) or
    /// `tool_call_id` and `name`.
    package var jinjaValue: JinjaValue {
        var pairs: [(key: String, value: JinjaValue)] = [(key: "role", value: .string(role.rawValue)), (key: "content", value: .string(content))]
        if !toolCalls.isEmpty {
            pairs.append((key: "tool_calls", value: .array(toolCalls.map { call in
                let arguments = (try? JinjaValue(parsingJSON: call.arguments.jsonString)) ?? .object([])
                return .object([
                    (key: "id", value: .string(call.id)),
                    (key: "type", value: "function"),
                    (key: "function", value: .object([(key: "name", value: .string(call.toolName)), (key: "arguments", value: arguments)])),
                ])
            })))
        }
        if let toolOutput {
            pairs.append((key: "tool_call_id", value: .string(toolOutput.id)))
            pairs.append((key: "name", value: .string(toolOutput.name)))
        }
        return .object(pairs)
    }
}

extension TranscriptRenderer {
    /// One message per entry, and the tool definitions the template renders (empty when it does not render
    /// tools: they are then in the system message). The schema of the last prompt is described only when
    /// `includeSchemaInPrompt` (earlier prompts always describe theirs, so re-renders stay stable).
    package func messages(for request: LanguageModelRequest) -> (messages: [PromptMessage], tools: [Transcript.ToolDefinition]) {
        let lastPrompt = request.transcript.lastIndex { if case .prompt = $0 { true } else { false } }
        let messages = request.transcript.enumerated().compactMap { index, entry in
            message(for: entry, schemaIncluded: index != lastPrompt || request.includeSchemaInPrompt)
        }
        let tools = toolSyntax.templateRendersDefinitions ? request.transcript.flatMap(Self.toolDefinitions) : []
        return (messages, tools)
    }

    /// The tool definitions an entry declares (instructions only).
    static func toolDefinitions(_ entry: Transcript.Entry) -> [Transcript.ToolDefinition] {
        if case .instructions(let instructions) = entry { instructions.toolDefinitions } else { [] }
    }

    /// The entry's message; nil for a reasoning entry (another model's, which these templates have no place for),
    /// and for instructions with no text whose tools the template renders (the template's own default applies).
    func message(for entry: Transcript.Entry, schemaIncluded: Bool) -> PromptMessage? {
        switch entry {
        case .instructions(let instructions):
            var text = self.text(instructions.segments)
            if toolSyntax.templateRendersDefinitions {
                if text.isEmpty && !instructions.toolDefinitions.isEmpty { return nil }
            } else if !instructions.toolDefinitions.isEmpty {
                text += (text.isEmpty ? "" : "\n\n") + toolsSection(instructions.toolDefinitions)
            }
            return PromptMessage(role: .system, content: text, images: images(instructions.segments))
        case .prompt(let prompt):
            var text = self.text(prompt.segments)
            if schemaIncluded, let format = prompt.responseFormat {
                text += "\n\n" + Self.schemaSection(format.schema)
            }
            return PromptMessage(role: .user, content: text, images: images(prompt.segments))
        case .toolCalls(let calls):
            guard toolSyntax.renderedByTemplate else {
                return PromptMessage(role: .assistant, content: ToolCallEnvelope.render(calls, syntax: toolSyntax))
            }
            // Ids as the template accepts them (Mistral's: 9 letters and digits); the output's id maps alike.
            return PromptMessage(role: .assistant, content: "", toolCalls: calls.map {
                Transcript.ToolCall(id: toolSyntax.templateID($0.id), toolName: $0.toolName, arguments: $0.arguments)
            })
        case .toolOutput(let output):
            guard toolSyntax.renderedByTemplate else {
                // The template's tool role (ChatML renders any role; Gemma folds it into a user turn), else a user turn;
                // plain text when the template defines the tools (Granite 3.3), else in the envelope's tags.
                return PromptMessage(role: toolOutputRole, content: toolSyntax.templateRendersDefinitions
                                     ? output.segments.descriptionText : ToolCallEnvelope.response(output))
            }
            return PromptMessage(role: .tool, content: output.segments.descriptionText, toolOutput: (toolSyntax.templateID(output.id), output.toolName))
        case .response(let response):
            return PromptMessage(role: .assistant, content: response.segments.descriptionText)
        case .reasoning:
            return nil
        }
    }

    /// The text of a message's segments, joined by newlines; for a vision model each attachment is
    /// ``LocalVision/marker``, with no newline between it and its neighbours (`mtmd`'s command line puts the
    /// marker right before the prompt's text).
    func text(_ segments: [Transcript.Segment]) -> String {
        guard vision != nil else { return segments.descriptionText }
        var out = "", previousWasText = false
        for segment in segments {
            if segment.isAttachment {
                out += LocalVision.marker
                previousWasText = false
            } else {
                if previousWasText { out += "\n" }
                out += segment.description
                previousWasText = true
            }
        }
        return out
    }

    /// The images of a message's segments, in order (none for a text model).
    func images(_ segments: [Transcript.Segment]) -> [Transcript.ImageAttachment] {
        guard vision != nil else { return [] }
        return segments.compactMap { if case .attachment(let a) = $0, case .image(let image) = a.content { image } else { nil } }
    }

    /// A tool definition as templates read it: `{type: "function", function: {name, description, parameters}}`,
    /// the parameters as compact JSON Schema (see ``ToolCallEnvelope/compactSchema(_:)``).
    static func jinjaValue(_ definition: Transcript.ToolDefinition) -> JinjaValue {
        let parameters = (try? JinjaValue(parsingJSON: ToolCallEnvelope.compactSchema(definition.storedParameters))) ?? .object([])
        return .object([
            (key: "type", value: "function"),
            (key: "function", value: .object([
                (key: "name", value: .string(definition.name)),
                (key: "description", value: .string(definition.description)),
                (key: "parameters", value: parameters),
            ])),
        ])
    }
}
