/// One message of a conversation to render with a chat template.
public struct ChatMessage: Sendable, Equatable {
    public enum Role: String, Sendable { case system, user, assistant, tool }
    public var role: Role
    public var content: String
    public init(role: Role, content: String) {
        self.role = role
        self.content = content
    }
}

/// The chat formats LMSession renders natively (no Jinja interpreter): detected from the model's
/// `tokenizer.chat_template` metadata, falling back to the architecture's convention when absent.
public enum ChatTemplate: Sendable, Equatable {
    /// ChatML (`<|im_start|>role\n…<|im_end|>\n`), used by SmolLM2 and Qwen. `defaultSystem` is the
    /// system message the template inserts when the conversation has none (SmolLM2's does).
    case chatML(defaultSystem: String?)
    /// Gemma turns (`<start_of_turn>user\n…<end_of_turn>\n`, model role `model`); a system message
    /// is prepended to the first user turn, as Gemma's template does.
    case gemma

    /// - Throws: ``ModelLoadError/unknownChatTemplate(_:)`` when the template is not recognised.
    public init(detecting template: String?, architecture: String) throws(ModelLoadError) {
        if let template {
            if template.contains("<|im_start|>") {
                self = .chatML(defaultSystem: Self.defaultSystemMessage(in: template))
            } else if template.contains("<start_of_turn>") {
                self = .gemma
            } else {
                throw .unknownChatTemplate(String(template.prefix(80)))
            }
        } else if architecture.hasPrefix("gemma") {
            self = .gemma
        } else if ["llama", "qwen2", "qwen3", "mistral"].contains(architecture) {
            self = .chatML(defaultSystem: nil)
        } else {
            throw .unknownChatTemplate("no tokenizer.chat_template for architecture \(architecture)")
        }
    }

    /// The system text a ChatML template writes when the first message is not a system message.
    private static func defaultSystemMessage(in template: String) -> String? {
        let marker = "<|im_start|>system\n"
        guard template.contains("messages[0]['role'] != 'system'"),
              let start = template.range(of: marker),
              let end = template.range(of: "<|im_end|>", range: start.upperBound..<template.endIndex) else { return nil }
        return String(template[start.upperBound..<end.lowerBound])
    }

    /// Renders `messages` as the model was trained to see them; with `addGenerationPrompt` the
    /// text ends where the assistant's answer begins.
    public func render(_ messages: [ChatMessage], addGenerationPrompt: Bool) -> String {
        var out = ""
        switch self {
        case let .chatML(defaultSystem):
            if let defaultSystem, messages.first?.role != .system {
                out += "<|im_start|>system\n\(defaultSystem)<|im_end|>\n"
            }
            for m in messages { out += "<|im_start|>\(m.role.rawValue)\n\(m.content)<|im_end|>\n" }
            if addGenerationPrompt { out += "<|im_start|>assistant\n" }
        case .gemma:
            var pendingSystem: String?
            for m in messages {
                switch m.role {
                case .system: pendingSystem = m.content
                case .user, .tool:
                    let text = pendingSystem.map { "\($0)\n\n\(m.content)" } ?? m.content
                    pendingSystem = nil
                    out += "<start_of_turn>user\n\(text)<end_of_turn>\n"
                case .assistant: out += "<start_of_turn>model\n\(m.content)<end_of_turn>\n"
                }
            }
            if addGenerationPrompt { out += "<start_of_turn>model\n" }
        }
        return out
    }

    /// Text that ends an assistant turn in this format.
    public var endOfTurn: String {
        switch self {
        case .chatML: "<|im_end|>"
        case .gemma: "<end_of_turn>"
        }
    }
}
