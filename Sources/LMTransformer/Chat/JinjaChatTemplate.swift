import LMJinja
import LMTokenizer

/// A model's own chat template (GGUF `tokenizer.chat_template`), rendered by LMJinja as
/// Hugging Face's `apply_chat_template` renders it with jinja2, and tokenized so that only the
/// template's own text can produce control tokens.
///
/// Variables follow llama.cpp's `common_chat_template_direct_apply`: `messages`, `bos_token`,
/// `eos_token` (the vocabulary's BOS/EOS texts, trusted as template text), `add_generation_prompt`,
/// `tools` only when there are tools, plus any `extra` (such as `enable_thinking`).
public struct JinjaChatTemplate: Sendable {
    public let template: JinjaTemplate
    /// Texts of the vocabulary's BOS and EOS tokens ("" when it has none).
    public let bosToken: String
    public let eosToken: String
    /// Texts of the vocabulary's end-of-generation tokens (where an assistant turn ends).
    public let endOfGenerationTexts: [String]
    /// Whether the template reads a message's content only as a list of typed parts (`[{"type": "text", "text":
    /// ...}]`, as SmolVLM's and other vision models' templates do): then every string content is passed as one
    /// text part. Found as llama.cpp's `caps_get` finds it: a string content does not appear in the rendering
    /// (or fails it), a one-part list does.
    public private(set) var readsTypedContent = false
    private let controls: ControlTokenTable
    private let addsBOS: Bool
    private let bosID: Int?

    /// Loads `source` for the vocabulary of `tokenizer`.
    /// - Throws: ``JinjaError`` when the template does not load (syntax, or a construct LMJinja
    ///   does not support; see ``JinjaTemplate/init(_:limits:)``).
    public init(source: String, tokenizer: Tokenizer, limits: JinjaLimits = .default) throws(JinjaError) {
        template = try JinjaTemplate(source, limits: limits)
        bosToken = tokenizer.bosID.map { tokenizer.tokenText($0) } ?? ""
        eosToken = tokenizer.eosID.map { tokenizer.tokenText($0) } ?? ""
        endOfGenerationTexts = tokenizer.eogIDs.sorted().map { tokenizer.tokenText($0) }.filter { !$0.isEmpty }
        controls = ControlTokenTable(tokenizer)
        addsBOS = tokenizer.addsBOS
        bosID = tokenizer.bosID
        readsTypedContent = probesTypedContent()
    }

    /// One user message with `content` rendered renders `marker`.
    private func probesTypedContent() -> Bool {
        let marker = "STRING_MARKER"
        func shows(_ content: JinjaValue) -> Bool {
            let message = JinjaValue.object([(key: "role", value: .string("user")), (key: "content", value: content)])
            return (try? render(messages: [message], addGenerationPrompt: false))?.text.contains(marker) ?? false
        }
        return !shows(.string(marker)) && shows(.array([Self.textPart(marker)]))
    }

    /// `{"type": "text", "text": text}`.
    static func textPart(_ text: String) -> JinjaValue {
        .object([(key: "type", value: .string("text")), (key: "text", value: .string(text))])
    }

    /// `message` with a string `content` as one text part (llama.cpp's `messages_inp_normalizer`).
    static func typedContent(_ message: JinjaValue) -> JinjaValue {
        guard case .object(let pairs) = message else { return message }
        return .object(pairs.map { pair in
            guard pair.key == "content", case .string(let text) = pair.value else { return pair }
            return (key: pair.key, value: .array([textPart(text)]))
        })
    }

    /// Renders a conversation.
    /// - Parameters:
    ///   - messages: OpenAI-style message objects (`role`, `content`, and for tool use
    ///     `tool_calls: [{id, type, function: {name, arguments}}]`, `tool_call_id`, `name`).
    ///     Pass tool-call arguments as an object (what most templates expect; llama.cpp's tests
    ///     do), parsed with ``JinjaValue/init(parsingJSON:maxNesting:)``.
    ///   - tools: OpenAI-style tool definitions (`{type: "function", function: {name,
    ///     description, parameters}}`); nil or empty leaves `tools` undefined.
    ///   - addGenerationPrompt: end with the opening of the assistant's turn.
    ///   - extra: further variables (`enable_thinking`, `reasoning_effort`...).
    ///   - now: the time `strftime_now` sees; nil for the local clock.
    /// - Throws: ``JinjaError`` when the template refuses the conversation
    ///   (``JinjaError/raised(message:at:)``, e.g. a system message it does not support) or fails.
    public func render(messages: [JinjaValue], tools: [JinjaValue]? = nil, addGenerationPrompt: Bool,
                       extra: [String: JinjaValue] = [:], now: JinjaDateTime? = nil) throws(JinjaError) -> JinjaRendering {
        var variables = extra
        variables["messages"] = .array(readsTypedContent ? messages.map(Self.typedContent) : messages)
        variables["bos_token"] = .string(bosToken)
        variables["eos_token"] = .string(eosToken)
        variables["add_generation_prompt"] = .bool(addGenerationPrompt)
        if let tools, !tools.isEmpty { variables["tools"] = .array(tools) }
        return try template.render(variables, options: JinjaRenderOptions(now: now))
    }

    /// Renders one user message: a template that crosses its limits there would cross them on every
    /// conversation, and the capability probes run at load (``toolCalls``, the session's role checks) would each
    /// spend a whole budget on it, so it is refused as a template that does not load. Other errors are not
    /// checked: a template may refuse a conversation (`raise_exception`) yet render others.
    /// - Throws: ``JinjaError/limitExceeded(_:at:)`` only.
    func checkLimits() throws(JinjaError) {
        do {
            _ = try render([ChatMessage(role: .user, content: "Hello")], addGenerationPrompt: true)
        } catch {
            if case .limitExceeded = error { throw error }
        }
    }

    /// Renders plain role/content messages.
    public func render(_ messages: [ChatMessage], addGenerationPrompt: Bool) throws(JinjaError) -> JinjaRendering {
        try render(messages: messages.map(\.jinjaValue), addGenerationPrompt: addGenerationPrompt)
    }

    /// Token ids of a rendering, as llama.cpp tokenizes a rendered prompt (whole text,
    /// `parse_special`), except that control-token text is recognised only inside template
    /// segments: a message spelling `<|im_end|>` is tokenized as the characters it is.
    /// BOS comes first exactly once when the model adds it. User-defined tokens are matched
    /// anywhere, as the tokenizer always does.
    public func tokens(_ rendering: JinjaRendering, tokenizer: Tokenizer) -> [Int] {
        tokens(segments: rendering.segments, tokenizer: tokenizer)
    }

    /// ``tokens(_:tokenizer:)`` of some segments of a rendering, e.g. a prefix of it cut after
    /// the last data segment (to prewarm a prompt up to the end of the user's text).
    public func tokens(segments: [JinjaSegment], tokenizer: Tokenizer) -> [Int] {
        var out: [Int] = []
        var pieces = controls.split(segments)
        if addsBOS, let bos = bosID {
            out.append(bos)
            if case .token(bos)? = pieces.first { pieces.removeFirst() }
        }
        for piece in pieces {
            switch piece {
            case let .token(id): out.append(id)
            case let .text(text): out += tokenizer.encode(text, addBOS: false, parseSpecial: false)
            }
        }
        return out
    }

    /// The rendering as ``ChatTemplate/Segment``s: template text parses control tokens, data does
    /// not. (``ChatTemplate/tokens(_:tokenizer:)`` encodes segments one by one, which splits BPE
    /// words at every origin change; ``tokens(_:tokenizer:)`` does not.)
    public static func segments(_ rendering: JinjaRendering) -> [ChatTemplate.Segment] {
        rendering.segments.map { ChatTemplate.Segment(text: $0.text, parsesSpecialTokens: $0.origin == .template) }
    }
}

extension ChatMessage {
    /// `{"role": ..., "content": ...}`.
    public var jinjaValue: JinjaValue {
        .object([(key: "role", value: .string(role.rawValue)), (key: "content", value: .string(content))])
    }
}

/// The vocabulary's control tokens by text, to find them in template text (longest match at the
/// leftmost position, as a tokenizer's special-token pass does for ordinary prompts).
struct ControlTokenTable: Sendable {
    enum Piece: Equatable {
        case token(Int)
        case text(String)
    }

    /// Control token texts by first byte, longest first.
    private let byFirstByte: [UInt8: [(bytes: [UInt8], id: Int)]]

    init(_ tokenizer: Tokenizer) {
        var table: [UInt8: [(bytes: [UInt8], id: Int)]] = [:]
        for id in 0..<tokenizer.vocabularySize where tokenizer.isControl(id) {
            let bytes = Array(tokenizer.tokenText(id).utf8)
            guard let first = bytes.first else { continue }
            table[first, default: []].append((bytes, id))
        }
        for key in table.keys {
            table[key]?.sort { $0.bytes.count != $1.bytes.count ? $0.bytes.count > $1.bytes.count : $0.id < $1.id }
        }
        byFirstByte = table
    }

    /// Control tokens found in template segments, and the text between them (template and data
    /// text joined, so it is tokenized as one piece).
    func split(_ segments: [JinjaSegment]) -> [Piece] {
        var out: [Piece] = []
        var pending: [UInt8] = []
        func flush() {
            if !pending.isEmpty { out.append(.text(String(decoding: pending, as: UTF8.self))) }
            pending.removeAll()
        }
        for segment in segments {
            let bytes = Array(segment.text.utf8)
            guard segment.origin == .template else { pending += bytes; continue }
            var i = 0
            scan: while i < bytes.count {
                if let candidates = byFirstByte[bytes[i]] {
                    for c in candidates where i + c.bytes.count <= bytes.count && bytes[i..<(i + c.bytes.count)].elementsEqual(c.bytes) {
                        flush()
                        out.append(.token(c.id))
                        i += c.bytes.count
                        continue scan
                    }
                }
                pending.append(bytes[i])
                i += 1
            }
        }
        flush()
        return out
    }
}

/// How a model's chat prompts are rendered: its own Jinja template when the GGUF has one, else
/// the native format of its architecture (ChatML or Gemma turns).
public enum ChatFormat: Sendable {
    case jinja(JinjaChatTemplate)
    case native(ChatTemplate)

    /// - Throws: ``ModelLoadError/chatTemplate(_:)`` when the GGUF's template does not load, or when it
    ///   crosses its ``JinjaLimits`` (``JinjaError/limitExceeded(_:at:)``) rendering one user message; never
    ///   otherwise: without a template the architecture's fallback is used.
    public init(tokenizer: Tokenizer, architecture: Architecture) throws(ModelLoadError) {
        if let source = tokenizer.chatTemplate {
            do {
                let template = try JinjaChatTemplate(source: source, tokenizer: tokenizer)
                try template.checkLimits()
                self = .jinja(template)
            } catch {
                throw .chatTemplate(error)
            }
        } else {
            self = .native(try ChatTemplate(detecting: nil, architecture: architecture))
        }
    }

    /// How the model writes tool calls: what its template defines
    /// (``JinjaChatTemplate/toolCallSyntax``), else the architecture's convention.
    public func toolCallSyntax(architecture: Architecture) -> ToolCallSyntax {
        toolCalls(architecture: architecture).syntax
    }

    /// The syntax sessions use (``toolCallSyntax(architecture:)``) and, when the template renders tool calls in a
    /// syntax the session cannot constrain, the rendered probe call that shows it (``ToolCallSupport/unsupported(excerpt:)``):
    /// such a model does not support tool calling (the syntax is then used only to show another model's calls
    /// as text in a transcript).
    public func toolCalls(architecture: Architecture) -> (syntax: ToolCallSyntax, unsupported: String?) {
        guard case let .jinja(template) = self else { return (ToolCallSyntax(architecture: architecture), nil) }
        switch template.toolCalls {
        case .defined(let syntax): return (syntax, nil)
        case .unsupported(let excerpt): return (ToolCallSyntax(architecture: architecture), excerpt)
        case .none: return (ToolCallSyntax(architecture: architecture), nil)
        }
    }

    /// For people: `jinja (the GGUF's tokenizer.chat_template)` or the native format's name.
    public var summary: String {
        switch self {
        case .jinja: "the GGUF's own Jinja template (tokenizer.chat_template)"
        case .native(.chatML): "native ChatML (the GGUF has no tokenizer.chat_template)"
        case .native(.gemma): "native Gemma turns (the GGUF has no tokenizer.chat_template)"
        }
    }
}
