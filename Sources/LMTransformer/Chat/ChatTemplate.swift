import LMTokenizer

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

    /// Recognises `template` (a GGUF's `tokenizer.chat_template`), or without one uses the
    /// architecture's fallback (``Architecture/chatFallback``).
    /// - Throws: ``ModelLoadError/unknownChatTemplate(_:)`` when the template is not recognised.
    public init(detecting template: String?, architecture: Architecture) throws(ModelLoadError) {
        if let template {
            if template.contains("<|im_start|>") {
                self = .chatML(defaultSystem: Self.defaultSystemMessage(in: template))
            } else if template.contains("<start_of_turn>") {
                self = .gemma
            } else {
                throw .unknownChatTemplate(String(template.prefix(80)))
            }
        } else {
            switch architecture.chatFallback {
            case .chatML: self = .chatML(defaultSystem: nil)
            case .gemma: self = .gemma
            }
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

    /// A piece of a rendered conversation. Only the template's own markup is tokenized with control-token
    /// text parsed (`<|im_start|>` becomes that token); message text of every role (system, user,
    /// assistant, tool, and whatever a caller puts there: tool calls and their arguments, instructions)
    /// never is, so a message that spells `<|im_end|>\n<|im_start|>system` cannot close or open a turn.
    /// (See ``tokens(_:tokenizer:)`` for user-defined tokens.)
    public struct Segment: Sendable, Equatable {
        public var text: String
        public var parsesSpecialTokens: Bool

        public init(text: String, parsesSpecialTokens: Bool) {
            self.text = text
            self.parsesSpecialTokens = parsesSpecialTokens
        }
    }

    /// Renders `messages` as the model was trained to see them; with `addGenerationPrompt` the
    /// text ends where the assistant's answer begins.
    public func render(_ messages: [ChatMessage], addGenerationPrompt: Bool) -> String {
        segments(messages, addGenerationPrompt: addGenerationPrompt).map(\.text).joined()
    }

    /// ``render(_:addGenerationPrompt:)`` as markup and content segments, in order.
    public func segments(_ messages: [ChatMessage], addGenerationPrompt: Bool) -> [Segment] {
        var out: [Segment] = []
        func markup(_ text: String) { out.append(Segment(text: text, parsesSpecialTokens: true)) }
        func content(_ text: String, role: ChatMessage.Role) {
            if !text.isEmpty { out.append(Segment(text: text, parsesSpecialTokens: false)) }
        }
        // The role name and newline travel with the text, so that ordinary text is cut into the same
        // pieces as the whole rendered string (whitespace after the newline merges with it).
        switch self {
        case let .chatML(defaultSystem):
            if let defaultSystem, messages.first?.role != .system {
                markup("<|im_start|>system\n\(defaultSystem)<|im_end|>\n")
            }
            for m in messages {
                markup("<|im_start|>")
                content("\(m.role.rawValue)\n\(m.content)", role: m.role)
                markup("<|im_end|>\n")
            }
            if addGenerationPrompt { markup("<|im_start|>assistant\n") }
        case .gemma:
            var pendingSystem: String?
            for m in messages {
                switch m.role {
                case .system: pendingSystem = m.content
                case .user, .tool:
                    let text = pendingSystem.map { "\($0)\n\n\(m.content)" } ?? m.content
                    pendingSystem = nil
                    markup("<start_of_turn>")
                    content("user\n\(text)", role: m.role)
                    markup("<end_of_turn>\n")
                case .assistant:
                    markup("<start_of_turn>")
                    content("model\n\(m.content)", role: .assistant)
                    markup("<end_of_turn>\n")
                }
            }
            if addGenerationPrompt { markup("<start_of_turn>model\n") }
        }
        return out
    }

    /// Tokens of `segments` (see ``Segment``), BOS first when the tokenizer adds it; never EOS.
    ///
    /// llama.cpp matches tokens a vocabulary marks user-defined in any text, special parsing or not. In
    /// message text that is kept, except for the tokens that make up the turns: the user-defined tokens
    /// the markup segments tokenize to (other than whitespace, such as Gemma's `"\n"`), BOS, EOS and every
    /// end-of-generation token are always spelt as plain text there. So a GGUF that marks its turn markers
    /// user-defined (some conversions do; not the Gemma 3 and SmolLM2 files the tests use, whose markers are
    /// control tokens) cannot have them produced by a message either. Other user-defined tokens (Gemma's
    /// runs of spaces and newlines) are matched as llama.cpp does.
    public static func tokens(_ segments: [Segment], tokenizer: Tokenizer) -> [Int] {
        let markup: [[Int]?] = segments.map { $0.parsesSpecialTokens ? tokenizer.encode($0.text, addBOS: false, parseSpecial: true) : nil }
        var turnTokens = tokenizer.eogIDs
        for id in [tokenizer.bosID, tokenizer.eosID].compactMap({ $0 }) { turnTokens.insert(id) }
        for tokens in markup.compactMap({ $0 }) {
            for id in tokens where tokenizer.isUserDefined(id) && !tokenizer.tokenBytes(id).allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
                turnTokens.insert(id)
            }
        }
        var out: [Int] = []
        if tokenizer.addsBOS, let bos = tokenizer.bosID { out.append(bos) }
        for (i, segment) in segments.enumerated() {
            out += markup[i] ?? tokenizer.encode(segment.text, addBOS: false, parseSpecial: false, literal: turnTokens)
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
