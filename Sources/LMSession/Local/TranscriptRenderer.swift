import Foundation
import LMTokenizer
import LMTransformer

/// Turns a request into the model's prompt: chat messages from the complete transcript, rendered with the
/// model's chat template and tokenized. Every count the budget check uses comes from here.
struct TranscriptRenderer: Sendable {
    let template: ChatTemplate
    let tokenizer: Tokenizer
    /// How tool calls and outputs are written (the model family's convention).
    var toolStyle = ToolCallEnvelope.Style.list

    /// The prompt tokens for `request`: every entry, then the assistant turn's opening.
    func promptTokens(for request: LanguageModelRequest) -> [Int] {
        tokenize(template.segments(messages(for: request), addGenerationPrompt: true))
    }

    /// Tokens `messages` add to a conversation: rendered before a probe turn, minus the probe alone. This
    /// cancels BOS and keeps a Gemma system message (which the template merges into the next user turn)
    /// countable; ChatML's default system message is left out (it is fixed overhead, not a part).
    private func marginalCount(_ messages: [ChatMessage]) -> Int {
        guard !messages.isEmpty else { return 0 }
        let partsTemplate: ChatTemplate = if case .chatML = template { .chatML(defaultSystem: nil) } else { template }
        let probe = [ChatMessage(role: .user, content: "")]
        return tokenize(partsTemplate.segments(messages + probe, addGenerationPrompt: false)).count
            - tokenize(partsTemplate.segments(probe, addGenerationPrompt: false)).count
    }

    /// The tokens the next request's prompt will start with: the transcript's turns and, when given, the
    /// opening of a user turn up to the end of `promptPrefix`.
    func prewarmTokens(transcript: Transcript, promptPrefix: Prompt?) -> [Int] {
        let history = messages(for: LanguageModelRequest(transcript: transcript))
        guard let prefix = promptPrefix?.text, !prefix.isEmpty else {
            return history.isEmpty ? [] : tokenize(template.segments(history, addGenerationPrompt: false))
        }
        // The new user turn's text is the last content segment; what follows it is its closing markup.
        let segments = template.segments(history + [ChatMessage(role: .user, content: prefix)], addGenerationPrompt: false)
        let end = segments.lastIndex { !$0.parsesSpecialTokens }.map { $0 + 1 } ?? segments.count
        return tokenize(Array(segments[..<end]))
    }

    /// Tokens of `input` as it appears in a rendered prompt.
    func tokenCount(for input: LanguageModelTokenCountInput) -> Int {
        switch input {
        case .request(let request):
            promptTokens(for: request).count
        case .entries(let entries):
            marginalCount(entries.compactMap { message(for: $0, schemaIncluded: true) })
        case .tools(let definitions):
            definitions.isEmpty ? 0 : tokenizer.encode("\n\n" + toolsSection(definitions), addBOS: false).count
        case .schema(let schema):
            tokenizer.encode("\n\n" + Self.schemaSection(schema), addBOS: false).count
        }
    }

    /// Tokens of rendered segments: control-token text in the template's markup becomes the control token,
    /// never in system, user or tool text; BOS is prepended when the model expects it (Gemma).
    func tokenize(_ segments: [ChatTemplate.Segment]) -> [Int] {
        ChatTemplate.tokens(segments, tokenizer: tokenizer)
    }

    /// One chat message per entry; the schema of the last prompt is described only when
    /// `includeSchemaInPrompt` (earlier prompts always describe theirs, so re-renders stay stable).
    func messages(for request: LanguageModelRequest) -> [ChatMessage] {
        let lastPrompt = request.transcript.lastIndex { if case .prompt = $0 { true } else { false } }
        return request.transcript.enumerated().compactMap { index, entry in
            message(for: entry, schemaIncluded: index != lastPrompt || request.includeSchemaInPrompt)
        }
    }

    /// The entry's message; nil for a reasoning entry (another model's, which these templates have no place for).
    func message(for entry: Transcript.Entry, schemaIncluded: Bool) -> ChatMessage? {
        switch entry {
        case .instructions(let instructions):
            var text = instructions.segments.descriptionText
            if !instructions.toolDefinitions.isEmpty {
                text += (text.isEmpty ? "" : "\n\n") + toolsSection(instructions.toolDefinitions)
            }
            return ChatMessage(role: .system, content: text)
        case .prompt(let prompt):
            var text = prompt.segments.descriptionText
            if schemaIncluded, let format = prompt.responseFormat {
                text += "\n\n" + Self.schemaSection(format.schema)
            }
            return ChatMessage(role: .user, content: text)
        case .toolCalls(let calls):
            return ChatMessage(role: .assistant, content: ToolCallEnvelope.render(calls, style: toolStyle))
        case .toolOutput(let output):
            // The template's tool role (ChatML renders any role; Gemma folds it into a user turn).
            return ChatMessage(role: .tool, content: ToolCallEnvelope.response(output))
        case .response(let response):
            return ChatMessage(role: .assistant, content: response.segments.descriptionText)
        case .reasoning:
            return nil
        }
    }

    static func schemaSection(_ schema: GenerationSchema) -> String {
        "Respond with JSON that follows this schema:\n" + schema.jsonSchemaText()
    }

    /// How tools are described in the instructions (see ``ToolCallEnvelope``).
    func toolsSection(_ definitions: [Transcript.ToolDefinition]) -> String {
        ToolCallEnvelope.instructions(definitions, style: toolStyle)
    }
}
