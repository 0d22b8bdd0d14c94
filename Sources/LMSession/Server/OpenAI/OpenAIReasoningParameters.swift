import LMGrammar
extension OpenAICompatibleLanguageModel {
    /// Which request fields carry a request's ``ContextOptions/reasoningLevel``. Chat Completions has no single
    /// standard one, so each field is for a family of servers; nothing is sent for a request without a level.
    public struct ReasoningParameters: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `reasoning_effort` (OpenAI's reasoning models, vLLM and Ollama for the models that take it):
        /// `"low"`, `"medium"`, `"high"` for `.light`, `.moderate`, `.deep`; `"none"` for the "off" spellings
        /// (`.custom("none")`, `"off"`, `"disabled"`); another `.custom` level's name as written.
        public static let reasoningEffort = ReasoningParameters(rawValue: 1 << 0)
        /// `chat_template_kwargs: {"enable_thinking": Bool}` (llama-server with `--jinja`, vLLM, SGLang): the chat
        /// template's thinking switch (Qwen3's), false for the "off" spellings and true for any other level, as the
        /// local model renders it (``ReasoningSwitch``). OpenAI's own API rejects this field.
        public static let chatTemplateKwargs = ReasoningParameters(rawValue: 1 << 1)
    }
}

extension OpenAIChatRequest {
    /// The members that carry `level` in the fields `parameters` selects; none without a level.
    static func reasoning(_ level: ContextOptions.ReasoningLevel?,
                          _ parameters: OpenAICompatibleLanguageModel.ReasoningParameters) -> [(String, JSONValue)] {
        guard let level else { return [] }
        let thinking = ReasoningSwitch(level)
        var members: [(String, JSONValue)] = []
        if parameters.contains(.reasoningEffort) {
            let effort = switch level {
            case .light: "low"
            case .moderate: "medium"
            case .deep: "high"
            case .custom(let name): thinking == .off ? "none" : name
            }
            members.append(("reasoning_effort", .text(effort)))
        }
        if parameters.contains(.chatTemplateKwargs), let enable = thinking.enableThinking {
            members.append(("chat_template_kwargs", .fields([("enable_thinking", .bool(enable))])))
        }
        return members
    }
}
