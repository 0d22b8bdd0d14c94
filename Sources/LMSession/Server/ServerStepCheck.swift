import LMGrammar

/// What a server model checks at the end of a model call, where the server may not have done what the request
/// asked and the local model guarantees it by construction: a tool call under
/// ``GenerationOptions/ToolCallingMode/required``, and a structured value that the token limit did not cut.
/// Shared by ``OpenAICompatibleLanguageModel`` and ``ClaudeLanguageModel``, so both fail as the local model does.
enum ServerStepCheck {
    /// How the server said the step ended.
    enum Ending {
        /// The model ended its answer (`stop`, `end_turn`, `tool_calls`, ...).
        case natural
        /// The token limit stopped it (`finish_reason: "length"`, `stop_reason: "max_tokens"`).
        case tokenLimit
    }

    /// Checks a finished step that called no tool.
    /// - Parameters:
    ///   - text: the step's whole text (secrets already redacted where it goes into an error).
    ///   - ending: how the server said the step ended.
    /// - Throws: ``GeneratedContent/ParsingError`` with ``ServerModelError/requiredToolCallMissing(answer:)`` as
    ///   `underlyingError` when tools were required; ``GeneratedContent/ParsingError`` when a structured response
    ///   was stopped by the token limit and is a bare number (it could have gone on: the local model's error and
    ///   wording) or not a complete value.
    static func checkStepWithoutToolCalls(_ request: LanguageModelRequest, text: String, ending: Ending,
                                          redactor: SecretRedactor) throws {
        if request.options.toolCallingMode?.kind == .required, !request.toolDefinitions.isEmpty {
            throw GeneratedContent.ParsingError.requiredToolCallMissing(answer: redactor.redact(text))
        }
        guard request.schema != nil, ending == .tokenLimit else { return }
        let limit = request.options.maximumResponseTokens.map { "maximumResponseTokens (\($0))" } ?? "the server's token limit"
        switch try? JSONValue.parse(text) {
        case .number?:
            throw GeneratedContent.ParsingError(rawContent: redactor.redact(text), debugDescription:
                "The number was cut off by \(limit); it could have gone on: \(redactor.redact(text))")
        case nil:
            throw GeneratedContent.ParsingError(rawContent: redactor.redact(text), debugDescription:
                "The response was cut off by \(limit) before the value was complete: \(redactor.redact(String(text.prefix(200))))")
        default:
            return // a whole value that ended exactly at the limit
        }
    }
}
