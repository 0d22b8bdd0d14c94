import LMJinja

extension JinjaChatTemplate {
    /// The tool-call syntax this template defines, read from what it renders (as llama.cpp's
    /// template-capability probes do), or nil when it defines none the session can use.
    ///
    /// Three probe conversations are rendered with one tool definition: the assistant turn of one
    /// call (the text between the generation prompt and the end-of-turn token is `open`, the call's
    /// JSON, `close`), of two calls (the text between them, less `close` and `open`, is the
    /// separator; a template that refuses two calls, as Llama 3.1's does, makes one per turn), and a
    /// tool result after the call. An empty reasoning block before the calls (`<think>…</think>`) is left
    /// out of `open`. What follows a plain answer's text (`<|im_end|>\n`, `<|eot_id|>`) ends
    /// the turn and is not part of `close`. The template defines a syntax when the definition, the call's
    /// JSON `{"name": NAME, "arguments" or "parameters": ARGUMENTS}` and the result all appear and
    /// the assistant turn continues the generation prompt (so the session can constrain it).
    /// A JSON list of calls is recognised by the `[` and `]` around the call (Mistral Nemo's `[TOOL_CALLS][…]`),
    /// and a call id inside the call's JSON after the arguments (`"id": …`) as the model's to write. A template that
    /// refuses the probe's ids (`call_1`) is probed again with 9-character alphanumeric ones, which Mistral's
    /// templates require (``ToolCallSyntax/callIDLength``).
    public var toolCallSyntax: ToolCallSyntax? {
        if case .defined(let syntax) = toolCalls { syntax } else { nil }
    }

    /// Whether this template defines a tool-call syntax the session can use (``toolCallSyntax``), renders tool calls
    /// in one it cannot constrain (such as Qwen 3 Coder's `<function=…><parameter=…>` or DeepSeek's special-token
    /// calls), or does not render tool calls at all (then the architecture's convention is described in the
    /// instructions).
    public var toolCalls: ToolCallSupport {
        if let syntax = derivedSyntax(ids: .long) ?? derivedSyntax(ids: .short(9)) { return .defined(syntax) }
        // The template writes the call's arguments in the assistant turn, or refuses a call it knows tools for.
        let tools: [JinjaValue] = [Probe.definition]
        var refusal: String?
        for ids in [Probe.IDs.long, .short(9)] {
            do {
                let one = try render(messages: [Probe.user, Probe.assistant(calls: 1, ids: ids)], tools: tools, addGenerationPrompt: false,
                                     now: Probe.date).text
                if let value = one.range(of: "probe_value_1") {
                    let start = one.index(value.lowerBound, offsetBy: -60, limitedBy: one.startIndex) ?? one.startIndex
                    let end = one.index(value.upperBound, offsetBy: 30, limitedBy: one.endIndex) ?? one.endIndex
                    return .unsupported(excerpt: String(one[start..<end]))
                }
                refusal = nil
                break
            } catch {
                refusal = "the template refuses a call with object arguments: \(error)"
            }
        }
        if let refusal, let plain = try? render(messages: [Probe.user], tools: tools, addGenerationPrompt: true, now: Probe.date).text,
           plain.contains(Probe.name(1)) {
            return .unsupported(excerpt: refusal)
        }
        return promptedList.map { .defined($0) } ?? .none
    }

    /// A template that renders the tool definitions but not calls, and whose tool prompt asks for a marker "followed by
    /// a JSON list" (Granite 3.3: "respond only with <|tool_call|> followed by a JSON list of tools used"): calls are the
    /// assistant's text, `<|tool_call|>[{"name": …, "arguments": …}]`.
    private var promptedList: ToolCallSyntax? {
        let tools: [JinjaValue] = [Probe.definition]
        guard let plain = try? render(messages: [Probe.user], tools: tools, addGenerationPrompt: true, now: Probe.date).text,
              plain.contains(Probe.name(1)),
              let phrase = plain.range(of: " followed by a JSON list"),
              let marker = plain[..<phrase.lowerBound].split(separator: " ").last,
              marker.hasPrefix("<"), marker.hasSuffix(">") else { return nil }
        return ToolCallSyntax(open: String(marker), close: "", separator: nil, isList: true, renderedByTemplate: false,
                              name: "\(marker) JSON list", templateRendersDefinitions: true)
    }

    private func derivedSyntax(ids: Probe.IDs) -> ToolCallSyntax? {
        let tools: [JinjaValue] = [Probe.definition]
        func probe(_ messages: [JinjaValue], _ generationPrompt: Bool) -> String? {
            try? self.render(messages: messages, tools: tools, addGenerationPrompt: generationPrompt, now: Probe.date).text
        }
        guard let plain = probe([Probe.user], false), let bare = try? render(messages: [Probe.user], addGenerationPrompt: false, now: Probe.date).text,
              plain.contains(Probe.name(1)), !bare.contains(Probe.name(1)),
              let prompt = probe([Probe.user], true),
              let one = probe([Probe.user, Probe.assistant(calls: 1, ids: ids)], false),
              let turn = one.droppingUTF8Prefix(prompt),
              var call = Probe.findCall(1, in: turn, ids: ids) ?? Probe.findNameFirstCall(1, in: turn, ids: ids),
              let result = probe([Probe.user, Probe.assistant(calls: 1, ids: ids), Probe.toolResult(ids: ids)], true),
              result.contains(Probe.result)
        else { return nil }
        // A list: `[` before the first call and `]` after it.
        let isList = call.nameFirst == nil && call.range.lowerBound > turn.startIndex && turn[turn.index(before: call.range.lowerBound)] == "["
            && call.range.upperBound < turn.endIndex && turn[call.range.upperBound] == "]"
        if isList { call.range = turn.index(before: call.range.lowerBound)..<turn.index(after: call.range.upperBound) }
        var open = String(turn[..<call.range.lowerBound])
        // An empty reasoning block the template writes before the calls (Qwen 3's `<think>\n\n</think>\n\n`) is
        // the model's own text, not the call's markup.
        if let thought = open.range(of: "</think>") {
            open = String(open[thought.upperBound...].drop { $0.isWhitespace })
        }
        var close = String(turn[call.range.upperBound...])
        // What ends an assistant turn: the text after a plain answer's content (else the first
        // end-of-generation token) is not part of the call's closing text.
        if let plain = probe([Probe.user, Probe.answer], false), let content = plain.range(of: Probe.answerText),
           case let turnEnd = String(plain[content.upperBound...]), !turnEnd.isEmpty, let call = close.droppingUTF8Suffix(turnEnd) {
            close = call
        }
        // Nothing after an end-of-generation token belongs to the call (Command R7B's template opens the next turn).
        if let end = endOfGenerationTexts.compactMap({ close.range(of: $0)?.lowerBound }).min() {
            close = String(close[..<end])
        }
        // The call's id belongs in the call, not in the markup around it (Solar writes it before the name).
        guard !open.contains(ids.id(1)), !close.contains(ids.id(1)), call.nameFirst == nil || !open.isEmpty else { return nil }
        func find(_ n: Int, in text: String) -> (range: Range<String.Index>, argumentsKey: String, idKey: String?, nameFirst: ToolCallSyntax.NameFirst?)? {
            call.nameFirst == nil ? Probe.findCall(n, in: text, ids: ids) : Probe.findNameFirstCall(n, in: text, ids: ids)
        }
        var separator: String?
        if !isList, let whole = probe([Probe.user, Probe.assistant(calls: 2, ids: ids)], false),
           case let two = whole.droppingUTF8Prefix(prompt) ?? whole,
           let first = find(1, in: two), let second = find(2, in: two),
           first.range.upperBound <= second.range.lowerBound {
            let between = String(two[first.range.upperBound..<second.range.lowerBound])
            if between.utf8.count >= close.utf8.count + open.utf8.count {
                separator = between.droppingUTF8Prefix(close)?.droppingUTF8Suffix(open)
            }
        }
        let name = open.contains("<tool_call>") ? "Hermes <tool_call>"
            : open.isEmpty && call.argumentsKey == "parameters" ? "Llama 3 JSON"
            : open.contains("[TOOL_CALLS]") ? "Mistral [TOOL_CALLS]"
            : "template's \(open.debugDescription)"
        return ToolCallSyntax(open: open, close: close, separator: separator, argumentsKey: call.argumentsKey,
                              isList: isList, renderedByTemplate: true, name: name, idKey: call.idKey, callIDLength: ids.length,
                              nameFirst: call.nameFirst)
    }
}

extension String {
    /// The text after `prefix` when the UTF-8 bytes start with its bytes, else nil. Bytes, not Characters: `hasPrefix`
    /// matches canonically equivalent text (`é` and `e` + U+0301) of another length, and the model writes bytes.
    /// The cut is on a scalar boundary (`prefix` is whole UTF-8).
    func droppingUTF8Prefix(_ prefix: String) -> String? {
        utf8.starts(with: prefix.utf8) ? String(decoding: utf8.dropFirst(prefix.utf8.count), as: UTF8.self) : nil
    }

    /// The text before `suffix` when the UTF-8 bytes end with its bytes, else nil (by bytes, as
    /// ``droppingUTF8Prefix(_:)``; the cut is where `suffix`'s first scalar starts).
    func droppingUTF8Suffix(_ suffix: String) -> String? {
        utf8.reversed().starts(with: suffix.utf8.reversed()) ? String(decoding: utf8.dropLast(suffix.utf8.count), as: UTF8.self) : nil
    }
}

/// What a chat template says about tool calls (``JinjaChatTemplate/toolCalls``).
public enum ToolCallSupport: Sendable, Equatable {
    /// It renders definitions, calls and results in this syntax, which the session constrains.
    case defined(ToolCallSyntax)
    /// It renders tool calls in a syntax the session does not constrain; `excerpt` is the probe call as it renders it
    /// (for `lmsession info`). A session with tools on this model is refused (`unsupportedCapability`).
    case unsupported(excerpt: String)
    /// It does not render tool calls: the architecture's convention is used, described in the instructions.
    case none
}

/// The probe conversation of ``JinjaChatTemplate/toolCallSyntax``.
private enum Probe {
    static let date = JinjaDateTime(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5)
    static let result = "probe_result_7"
    static func name(_ n: Int) -> String { "probe_tool_\(n)" }

    static let user: JinjaValue = .object([(key: "role", value: "user"), (key: "content", value: "Call the probe.")])
    static let definition: JinjaValue = .object([
        (key: "type", value: "function"),
        (key: "function", value: .object([
            (key: "name", value: .string(name(1))),
            (key: "description", value: "A probe."),
            (key: "parameters", value: .object([
                (key: "type", value: "object"),
                (key: "properties", value: .object([(key: "probe_arg", value: .object([(key: "type", value: "string")]))])),
                (key: "required", value: .array(["probe_arg"])),
            ])),
        ])),
    ])

    /// The call ids of a probe: `call_N`, or alphanumeric ones of a fixed length (`probeid0N` for 9).
    enum IDs {
        case long, short(Int)
        func id(_ n: Int) -> String {
            switch self {
            case .long: "call_\(n)"
            case .short(let length): String(("probeid" + String(repeating: "0", count: max(0, length))).prefix(max(0, length - 1))) + "\(n % 10)"
            }
        }
        var length: Int? { if case .short(let n) = self { n } else { nil } }
    }

    static func assistant(calls: Int, ids: IDs) -> JinjaValue {
        .object([
            (key: "role", value: "assistant"),
            (key: "content", value: ""),
            (key: "tool_calls", value: .array((1...calls).map { n in
                .object([
                    (key: "id", value: .string(ids.id(n))),
                    (key: "type", value: "function"),
                    (key: "function", value: .object([
                        (key: "name", value: .string(name(n))),
                        (key: "arguments", value: .object([(key: "probe_arg", value: .string("probe_value_\(n)"))])),
                    ])),
                ])
            })),
        ])
    }

    static let answerText = "probe_answer_9"
    static let answer: JinjaValue = .object([(key: "role", value: "assistant"), (key: "content", value: .string(answerText))])

    static func toolResult(ids: IDs) -> JinjaValue {
        .object([
            (key: "role", value: "tool"), (key: "tool_call_id", value: .string(ids.id(1))),
            (key: "name", value: .string(name(1))), (key: "content", value: .string(result)),
        ])
    }

    /// Where call `n`'s JSON is in `text`, as `tojson` and the templates' own quoting write it: with the call's id
    /// after the arguments (`"id": ID`, Mistral Nemo) or without.
    static func findCall(_ n: Int, in text: String, ids: IDs)
        -> (range: Range<String.Index>, argumentsKey: String, idKey: String?, nameFirst: ToolCallSyntax.NameFirst?)? {
        for key in ["arguments", "parameters"] {
            let json = "{\"name\": \"\(name(n))\", \"\(key)\": {\"probe_arg\": \"probe_value_\(n)\"}"
            if let range = text.range(of: json + "}") { return (range, key, nil, nil) }
            if let range = text.range(of: json + ", \"id\": \"\(ids.id(n))\"}") { return (range, key, "id", nil) }
        }
        return nil
    }

    /// Where call `n` is written as its name, then some text (with the call's id after a marker, when it has a
    /// fixed length), then its arguments' JSON (Mistral's `NAME[ARGS]{…}`).
    static func findNameFirstCall(_ n: Int, in text: String, ids: IDs)
        -> (range: Range<String.Index>, argumentsKey: String, idKey: String?, nameFirst: ToolCallSyntax.NameFirst?)? {
        guard let name = text.range(of: name(n)),
              let arguments = text.range(of: "{\"probe_arg\": \"probe_value_\(n)\"}", range: name.upperBound..<text.endIndex) else { return nil }
        let between = String(text[name.upperBound..<arguments.lowerBound])
        guard !between.isEmpty, !between.contains("probe_") else { return nil }
        var nameFirst = ToolCallSyntax.NameFirst(idMarker: nil, beforeArguments: between)
        if let id = between.range(of: ids.id(n)) {
            guard ids.length != nil, id.lowerBound > between.startIndex, id.upperBound < between.endIndex else { return nil }
            nameFirst = ToolCallSyntax.NameFirst(idMarker: String(between[..<id.lowerBound]), beforeArguments: String(between[id.upperBound...]))
        } else if between.contains("call_") || between.contains("probeid") {
            return nil
        }
        return (name.lowerBound..<arguments.upperBound, "arguments", nil, nameFirst)
    }
}
