import Foundation
import LMJinja
import LMTokenizer
import LMTransformer

/// Turns a request into the model's prompt: chat messages from the complete transcript, rendered with the
/// model's chat format (its own Jinja template, or the native ChatML/Gemma renderer for a GGUF without one)
/// and tokenized. Every count the budget check uses comes from here.
///
/// Tools follow ``toolSyntax``: when the template renders tools itself
/// (``ToolCallSyntax/renderedByTemplate``), definitions go in its `tools` variable, calls in the assistant
/// message's `tool_calls` (ids as the template accepts them, ``ToolCallSyntax/templateID(_:)``) and outputs in
/// `tool` messages, as OpenAI-style objects; when it renders only the definitions
/// (``ToolCallSyntax/templateRendersDefinitions``, Granite 3.3), calls are the assistant's text in the syntax and
/// outputs plain `tool` messages; otherwise the tools are described in the system message and calls and outputs
/// are message text in the syntax's envelope.
package struct TranscriptRenderer: Sendable {
    package let format: ChatFormat
    package let tokenizer: Tokenizer
    /// How tool calls are written (derived from the template, else the architecture's convention).
    package let toolSyntax: ToolCallSyntax

    /// The role of a tool output's message when the template does not render tool results itself: `tool` when
    /// the template prints that role's messages (ChatML's templates print any role), else `user` (Phi-3's
    /// template drops messages of roles it does not know, which would hide the output from the model).
    let toolOutputRole: ChatMessage.Role

    /// Whether the template shows a system message's text. Gemma 2's refuses the role (`raise_exception`): then
    /// the system text opens the next user message instead (a user message of its own when none follows), as
    /// llama.cpp's minja polyfills a template without a system role.
    let printsSystemMessages: Bool

    /// When the template renders tool calls in a syntax the session cannot constrain: the probe call as it renders it.
    /// The model then does not support tool calling (``LocalModel/capabilities``).
    package let unsupportedToolCalls: String?

    /// The image encoder and image tokens of a vision model; nil for a text model. With it, an attachment is
    /// rendered as ``LocalVision/marker`` in its message's text, and tokenized as the image's tokens.
    let vision: LocalVision?

    package init(format: ChatFormat, tokenizer: Tokenizer, toolSyntax: ToolCallSyntax, unsupportedToolCalls: String? = nil) {
        self.init(format: format, tokenizer: tokenizer, toolSyntax: toolSyntax, unsupportedToolCalls: unsupportedToolCalls, vision: nil)
    }

    init(format: ChatFormat, tokenizer: Tokenizer, toolSyntax: ToolCallSyntax, unsupportedToolCalls: String?, vision: LocalVision?) {
        self.format = format
        self.tokenizer = tokenizer
        self.toolSyntax = toolSyntax
        self.unsupportedToolCalls = unsupportedToolCalls
        self.vision = vision
        switch format {
        case .native:
            toolOutputRole = .tool
            printsSystemMessages = true
        case .jinja(let template):
            // A tool output after an answer, and a system message opening the conversation.
            toolOutputRole = Self.shows(template, [.init(role: .user, content: "u"), .init(role: .assistant, content: "a"),
                                                   .init(role: .tool, content: Self.probe)]) ? .tool : .user
            printsSystemMessages = Self.shows(template, [.init(role: .system, content: Self.probe), .init(role: .user, content: "u")])
        }
    }

    private static let probe = "probe_message_text_5"

    /// Whether `template` renders `messages` with the text of the one whose content is ``probe`` (false when it
    /// refuses them).
    private static func shows(_ template: JinjaChatTemplate, _ messages: [ChatMessage]) -> Bool {
        (try? template.render(messages, addGenerationPrompt: true).text.contains(probe)) ?? false
    }

    /// `messages` with each system message's text moved to the start of the next user message (joined by a
    /// newline, as minja does), or into a user message of its own at the end when no user message follows.
    package static func mergingSystemMessages(_ messages: [PromptMessage]) -> [PromptMessage] {
        var merged: [PromptMessage] = [], pending: String?, pendingImages: [Transcript.ImageAttachment] = []
        for var message in messages {
            if message.role == .system {
                pending = pending.map { $0 + "\n" + message.content } ?? message.content
                pendingImages += message.images
                continue
            }
            if message.role == .user, let system = pending {
                message.content = message.content.isEmpty ? system : system + "\n" + message.content
                message.images = pendingImages + message.images
                pending = nil
                pendingImages = []
            }
            merged.append(message)
        }
        if let pending { merged.append(PromptMessage(role: .user, content: pending, images: pendingImages)) }
        return merged
    }

    /// A rendered conversation, in the form its format tokenizes.
    package enum Rendered {
        case native([ChatTemplate.Segment])
        case jinja(JinjaRendering)
    }

    /// The prompt tokens for `request`: every entry, then the assistant turn's opening.
    /// - Throws: ``LanguageModelError/unsupportedTranscriptContent(_:)`` when the template refuses the
    ///   conversation (`raise_exception`, such as Llama 3.1's "only single tool-calls") or fails on it.
    package func promptTokens(for request: LanguageModelRequest) throws(LanguageModelError) -> [Int] {
        let (messages, tools) = messages(for: request)
        return try tokenize(try rendered(messages, tools: tools, addGenerationPrompt: true, transcript: request.transcript,
                                         reasoning: ReasoningSwitch(request.contextOptions.reasoningLevel)),
                            images: messages.flatMap(\.images))
    }

    /// The tokens the next request's prompt will start with: the transcript's turns and, when given, the
    /// opening of a user turn up to the end of `promptPrefix`. Empty when the template refuses them.
    func prewarmTokens(transcript: Transcript, promptPrefix: Prompt?) -> [Int] {
        let (history, tools) = messages(for: LanguageModelRequest(transcript: transcript))
        // Images are encoded when a request needs them, not to prewarm.
        guard !history.contains(where: { !$0.images.isEmpty }), promptPrefix?.segments.contains(where: \.isAttachment) != true else { return [] }
        guard let prefix = promptPrefix?.text, !prefix.isEmpty else {
            guard !history.isEmpty, let rendered = try? render(history, tools: tools, addGenerationPrompt: false) else { return [] }
            return tokenize(rendered)
        }
        // The new user turn's text is the last data segment; what follows it is its closing markup.
        guard let rendered = try? render(history + [PromptMessage(role: .user, content: prefix)], tools: tools,
                                         addGenerationPrompt: false) else { return [] }
        switch rendered {
        case .native(let segments):
            let end = segments.lastIndex { !$0.parsesSpecialTokens }.map { $0 + 1 } ?? segments.count
            return tokenize(.native(Array(segments[..<end])))
        case .jinja(let rendering):
            guard case .jinja(let template) = format else { return [] }
            let end = rendering.segments.lastIndex { $0.origin == .data }.map { $0 + 1 } ?? rendering.segments.count
            return template.tokens(segments: Array(rendering.segments[..<end]), tokenizer: tokenizer)
        }
    }

    /// The tokens of the instructions entry `instructions` rendered alone at the start of a conversation, its images
    /// included (a request that just ran measured them); empty when the template refuses it.
    func instructionsTokens(_ instructions: Transcript.Entry) -> [Int] {
        let (history, tools) = messages(for: LanguageModelRequest(transcript: Transcript(entries: [instructions])))
        guard !history.isEmpty, let rendered = try? render(history, tools: tools, addGenerationPrompt: false) else { return [] }
        return (try? tokenize(rendered, images: history.flatMap(\.images))) ?? []
    }

    /// Tokens of `input` as it appears in a rendered prompt.
    /// - Throws: ``LanguageModelError/unsupportedTranscriptContent(_:)`` as ``promptTokens(for:)``.
    package func tokenCount(for input: LanguageModelTokenCountInput) throws(LanguageModelError) -> Int {
        switch input {
        case .request(let request):
            return try promptTokens(for: request).count
        case .entries(let entries):
            let messages = entries.compactMap { message(for: $0, schemaIncluded: true) }
            let tools = toolSyntax.templateRendersDefinitions ? entries.flatMap(Self.toolDefinitions) : []
            // Measured first, so that the counts below find every image's tokens.
            for image in messages.flatMap(\.images) { _ = try vision?.tokens(for: image) }
            do {
                return try marginalCount(messages, tools: tools)
            } catch {
                if let text = textTokensPastOutputLimit(messages),
                   let markers = try? marginalCount(Self.emptied(messages), tools: tools) { return text + markers }
                throw Self.refused(Transcript(entries: entries), error)
            }
        case .tools(let definitions):
            guard !definitions.isEmpty else { return 0 }
            guard toolSyntax.templateRendersDefinitions else {
                return tokenizer.encode("\n\n" + toolsSection(definitions), addBOS: false).count
            }
            let probe = [PromptMessage(role: .user, content: "")]
            do {
                return try count(render(probe, tools: definitions, addGenerationPrompt: false))
                    - count(render(probe, tools: [], addGenerationPrompt: false))
            } catch {
                throw Self.refused(Transcript(entries: []), error)
            }
        case .schema(let schema):
            return tokenizer.encode("\n\n" + Self.schemaSection(schema), addBOS: false).count
        }
    }

    /// Tokens `messages` add to a conversation: rendered before a probe user turn, minus the probe alone.
    /// This cancels BOS and keeps a system message that a template merges into the next user turn (Gemma)
    /// countable. A leading system message is counted alone (rendered by itself), so that a system message
    /// a template inserts when there is none (SmolLM2's, Qwen's) is not subtracted from it.
    private func marginalCount(_ messages: [PromptMessage], tools: [Transcript.ToolDefinition]) throws(JinjaError) -> Int {
        guard !messages.isEmpty else { return 0 }
        let probe = PromptMessage(role: .user, content: "")
        if case .native(.chatML) = format {
            // The native ChatML default system message is fixed overhead, not a part.
            let parts = TranscriptRenderer(format: .native(.chatML(defaultSystem: nil)), tokenizer: tokenizer, toolSyntax: toolSyntax)
            return try parts.count(parts.render(messages + [probe], tools: tools, addGenerationPrompt: false), messages)
                - parts.count(parts.render([probe], tools: [], addGenerationPrompt: false))
        }
        if case .jinja = format, messages[0].role == .system,
           let alone = try? render([messages[0]], tools: tools, addGenerationPrompt: false) {
            let bos = tokenizer.addsBOS && tokenizer.bosID != nil ? 1 : 0
            return count(alone, [messages[0]]) - bos
                + (try count(render(messages + [probe], tools: tools, addGenerationPrompt: false), messages))
                - (try count(render([messages[0], probe], tools: tools, addGenerationPrompt: false), [messages[0]]))
        }
        return try count(render(messages + [probe], tools: tools, addGenerationPrompt: false), messages)
            - count(render([probe], tools: [], addGenerationPrompt: false))
    }

    // MARK: - Rendering

    /// ``render(_:tools:addGenerationPrompt:)`` with the template's refusal as the session's error.
    private func rendered(_ messages: [PromptMessage], tools: [Transcript.ToolDefinition], addGenerationPrompt: Bool,
                          transcript: Transcript, reasoning: ReasoningSwitch) throws(LanguageModelError) -> Rendered {
        do {
            return try render(messages, tools: tools, addGenerationPrompt: addGenerationPrompt, reasoning: reasoning)
        } catch {
            throw Self.refused(transcript, error)
        }
    }

    static func refused(_ transcript: Transcript, _ error: JinjaError) -> LanguageModelError {
        .unsupportedTranscriptContent(.init(unsupportedContent: Array(transcript),
                                            debugDescription: "The model's chat template does not render this transcript: \(error)"))
    }

    /// Renders `messages` (and, when the template renders them, `tools`) in the model's format.
    ///
    /// A Jinja template gets `enable_thinking` from `reasoning` (``ReasoningSwitch/enableThinking``; undefined for
    /// `.modelDefault`), as llama.cpp passes it: Qwen3's template then ends a generation prompt with an empty
    /// `<think>\n\n</think>\n\n` block when it is false. The native formats have no thinking switch.
    /// - Throws: ``JinjaError`` when the template refuses or fails (never for the native formats).
    package func render(_ messages: [PromptMessage], tools: [Transcript.ToolDefinition], addGenerationPrompt: Bool,
                        reasoning: ReasoningSwitch = .modelDefault) throws(JinjaError) -> Rendered {
        switch format {
        case .native(let template):
            return .native(template.segments(messages.map(\.chatMessage), addGenerationPrompt: addGenerationPrompt))
        case .jinja(let template):
            let definitions = toolSyntax.templateRendersDefinitions ? tools.map(Self.jinjaValue) : []
            let extra = reasoning.enableThinking.map { ["enable_thinking": JinjaValue.bool($0)] } ?? [:]
            let shown = printsSystemMessages ? messages : Self.mergingSystemMessages(messages)
            return .jinja(try template.render(messages: shown.map(\.jinjaValue), tools: definitions,
                                              addGenerationPrompt: addGenerationPrompt, extra: extra))
        }
    }

    /// ``tokenize(_:)`` with each ``LocalVision/marker`` in message text replaced by the tokens of the next of
    /// `images` (``LocalVision/tokens(for:)``): the text between markers is tokenized piece by piece, as `mtmd`
    /// tokenizes the text chunks around its media markers, and BOS only opens the first.
    /// - Throws: ``LanguageModelError/unsupportedTranscriptContent(_:)`` when the markers are not one per image
    ///   (message text that spells the marker itself) or an image cannot be used.
    func tokenize(_ rendered: Rendered, images: [Transcript.ImageAttachment]) throws(LanguageModelError) -> [Int] {
        guard let vision, !images.isEmpty else { return tokenize(rendered) }
        let runs = tokenRuns(rendered)
        guard runs.count == images.count + 1 else {
            throw .unsupportedTranscriptContent(.init(unsupportedContent: [], debugDescription:
                "The prompt holds \(images.count) images but \(runs.count - 1) image markers (\(LocalVision.marker)); message text cannot spell the marker."))
        }
        var out: [Int] = []
        for (i, run) in runs.enumerated() {
            var tokens = run
            if i > 0, tokenizer.addsBOS, let bos = tokenizer.bosID, tokens.first == bos { tokens.removeFirst() }
            out += tokens
            if i < images.count { out += try vision.tokens(for: images[i]) }
        }
        return out
    }

    /// The tokens of the pieces of a rendering between the markers in its message text (each as ``tokenize(_:)``
    /// tokenizes a whole rendering, BOS included).
    private func tokenRuns(_ rendered: Rendered) -> [[Int]] {
        let marker = LocalVision.marker
        func runs<Segment>(_ segments: [Segment], isData: (Segment) -> Bool, text: (Segment) -> String,
                           make: (String) -> Segment) -> [[Segment]] {
            var out: [[Segment]] = [[]]
            for segment in segments {
                guard isData(segment), text(segment).contains(marker) else { out[out.count - 1].append(segment); continue }
                for (j, part) in text(segment).components(separatedBy: marker).enumerated() {
                    if j > 0 { out.append([]) }
                    if !part.isEmpty { out[out.count - 1].append(make(part)) }
                }
            }
            return out
        }
        let native: [ChatTemplate.Segment]
        switch (rendered, format) {
        case let (.jinja(rendering), .jinja(template)):
            return runs(rendering.segments, isData: { $0.origin == .data }, text: \.text, make: { JinjaSegment(text: $0, origin: .data) })
                .map { template.tokens(segments: $0, tokenizer: tokenizer) }
        case let (.native(segments), _): native = segments
        case let (.jinja(rendering), .native): native = JinjaChatTemplate.segments(rendering)
        }
        return runs(native, isData: { !$0.parsesSpecialTokens }, text: \.text, make: { ChatTemplate.Segment(text: $0, parsesSpecialTokens: false) })
            .map { ChatTemplate.tokens($0, tokenizer: tokenizer) }
    }

    /// Tokens of a rendering: control-token text in the template's own text becomes the control token,
    /// never in message text; BOS is prepended when the model expects it.
    package func tokenize(_ rendered: Rendered) -> [Int] {
        switch (rendered, format) {
        case let (.native(segments), _): ChatTemplate.tokens(segments, tokenizer: tokenizer)
        case let (.jinja(rendering), .jinja(template)): template.tokens(rendering, tokenizer: tokenizer)
        case let (.jinja(rendering), .native): ChatTemplate.tokens(JinjaChatTemplate.segments(rendering), tokenizer: tokenizer)
        }
    }

    /// Tokens of a rendering of `messages` (their images included; each was measured before).
    func count(_ rendered: Rendered, _ messages: [PromptMessage] = []) -> Int {
        let images = messages.flatMap(\.images)
        return images.isEmpty ? tokenize(rendered).count : ((try? tokenize(rendered, images: images).count) ?? tokenize(rendered).count)
    }

    static func schemaSection(_ schema: GenerationSchema) -> String {
        "Respond with JSON that follows this schema:\n" + schema.jsonSchemaText()
    }

    /// How tools are described in the instructions when the template does not render them (see ``ToolCallEnvelope``).
    func toolsSection(_ definitions: [Transcript.ToolDefinition]) -> String {
        ToolCallEnvelope.instructions(definitions, syntax: toolSyntax)
    }
}
