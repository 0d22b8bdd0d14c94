import Foundation
import LMTokenizer
import LMTransformer

/// Turns a request into the model's prompt: chat messages from the complete transcript, rendered with the
/// model's chat template and tokenized. Every count the budget check uses comes from here.
struct TranscriptRenderer: Sendable {
    let template: ChatTemplate
    let tokenizer: Tokenizer

    /// The prompt tokens for `request`: every entry, then the assistant turn's opening.
    func promptTokens(for request: LanguageModelRequest) -> [Int] {
        tokenize(template.render(messages(for: request), addGenerationPrompt: true))
    }

    /// Tokens `messages` add to a conversation: rendered before a probe turn, minus the probe alone. This
    /// cancels BOS and keeps a Gemma system message (which the template merges into the next user turn)
    /// countable; ChatML's default system message is left out (it is fixed overhead, not a part).
    private func marginalCount(_ messages: [ChatMessage]) -> Int {
        guard !messages.isEmpty else { return 0 }
        let partsTemplate: ChatTemplate = if case .chatML = template { .chatML(defaultSystem: nil) } else { template }
        let probe = [ChatMessage(role: .user, content: "")]
        return tokenize(partsTemplate.render(messages + probe, addGenerationPrompt: false)).count
            - tokenize(partsTemplate.render(probe, addGenerationPrompt: false)).count
    }

    /// The tokens the next request's prompt will start with: the transcript's turns and, when given, the
    /// opening of a user turn up to the end of `promptPrefix`.
    func prewarmTokens(transcript: Transcript, promptPrefix: Prompt?) -> [Int] {
        let history = messages(for: LanguageModelRequest(transcript: transcript))
        guard let prefix = promptPrefix?.text, !prefix.isEmpty else {
            return history.isEmpty ? [] : tokenize(template.render(history, addGenerationPrompt: false))
        }
        let rendered = template.render(history + [ChatMessage(role: .user, content: prefix)], addGenerationPrompt: false)
        let upToPrefix = rendered.range(of: prefix, options: .backwards).map { String(rendered[..<$0.upperBound]) } ?? rendered
        return tokenize(upToPrefix)
    }

    /// Tokens of `input` as it appears in a rendered prompt.
    func tokenCount(for input: LanguageModelTokenCountInput) -> Int {
        switch input {
        case .request(let request):
            promptTokens(for: request).count
        case .entries(let entries):
            marginalCount(entries.map { message(for: $0, schemaIncluded: true) })
        case .tools(let definitions):
            definitions.isEmpty ? 0 : tokenizer.encode("\n\n" + Self.toolsSection(definitions), addBOS: false).count
        case .schema(let schema):
            tokenizer.encode("\n\n" + Self.schemaSection(schema), addBOS: false).count
        }
    }

    /// Tokens of rendered text: control-token text (`<|im_start|>`) becomes the control token, and BOS is
    /// prepended when the model expects it (Gemma); EOS is never appended.
    func tokenize(_ text: String) -> [Int] {
        let body = tokenizer.encode(text, addBOS: false, parseSpecial: true)
        guard tokenizer.addsBOS, let bos = tokenizer.bosID else { return body }
        return [bos] + body
    }

    /// One chat message per entry; the schema of the last prompt is described only when
    /// `includeSchemaInPrompt` (earlier prompts always describe theirs, so re-renders stay stable).
    func messages(for request: LanguageModelRequest) -> [ChatMessage] {
        let lastPrompt = request.transcript.lastIndex { if case .prompt = $0 { true } else { false } }
        return request.transcript.enumerated().map { index, entry in
            message(for: entry, schemaIncluded: index != lastPrompt || request.includeSchemaInPrompt)
        }
    }

    func message(for entry: Transcript.Entry, schemaIncluded: Bool) -> ChatMessage {
        switch entry {
        case .instructions(let instructions):
            var text = instructions.segments.descriptionText
            if !instructions.toolDefinitions.isEmpty {
                text += (text.isEmpty ? "" : "\n\n") + Self.toolsSection(instructions.toolDefinitions)
            }
            return ChatMessage(role: .system, content: text)
        case .prompt(let prompt):
            var text = prompt.segments.descriptionText
            if schemaIncluded, let format = prompt.responseFormat {
                text += "\n\n" + Self.schemaSection(format.schema)
            }
            return ChatMessage(role: .user, content: text)
        case .toolCalls(let calls):
            return ChatMessage(role: .assistant, content: "[" + calls.map(Self.callJSON).joined(separator: ", ") + "]")
        case .toolOutput(let output):
            return ChatMessage(role: .tool, content: output.segments.descriptionText)
        case .response(let response):
            return ChatMessage(role: .assistant, content: response.segments.descriptionText)
        }
    }

    static func schemaSection(_ schema: GenerationSchema) -> String {
        "Respond with JSON that follows this schema:\n" + schema.jsonSchemaText()
    }

    static func toolsSection(_ definitions: [Transcript.ToolDefinition]) -> String {
        let lines = definitions.map { definition in
            "{\"name\": \(jsonString(definition.name)), \"description\": \(jsonString(definition.description)), \"parameters\": "
                + definition.storedParameters.jsonSchemaText() + "}"
        }
        return "You can call these tools. To call tools, answer with only a JSON array of calls, "
            + "[{\"name\": tool name, \"arguments\": arguments object}]:\n" + lines.joined(separator: "\n")
    }

    static func callJSON(_ call: Transcript.ToolCall) -> String {
        "{\"name\": \(jsonString(call.toolName)), \"arguments\": \(call.arguments.jsonString)}"
    }

    static func jsonString(_ text: String) -> String {
        GeneratedContent(kind: .string(text)).jsonString
    }
}
