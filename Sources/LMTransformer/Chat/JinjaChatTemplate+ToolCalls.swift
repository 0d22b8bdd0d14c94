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
    /// Lists of calls with per-call ids (Mistral's `[TOOL_CALLS]`, Granite's `<|tool_call|>`) are not
    /// recognised yet: such a template gets the architecture's convention.
    public var toolCallSyntax: ToolCallSyntax? {
        let tools: [JinjaValue] = [Probe.definition]
        func probe(_ messages: [JinjaValue], _ generationPrompt: Bool) -> String? {
            try? self.render(messages: messages, tools: tools, addGenerationPrompt: generationPrompt, now: Probe.date).text
        }
        guard let plain = probe([Probe.user], false), let bare = try? render(messages: [Probe.user], addGenerationPrompt: false, now: Probe.date).text,
              plain.contains(Probe.name(1)), !bare.contains(Probe.name(1)),
              let prompt = probe([Probe.user], true),
              let one = probe([Probe.user, Probe.assistant(calls: 1)], false),
              let turn = one.utf8.starts(with: prompt.utf8) ? String(one.utf8.dropFirst(prompt.utf8.count)) : nil,
              let call = Probe.findCall(1, in: turn),
              let result = probe([Probe.user, Probe.assistant(calls: 1), Probe.toolResult], true),
              result.contains(Probe.result)
        else { return nil }
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
           case let turnEnd = String(plain[content.upperBound...]), !turnEnd.isEmpty, close.hasSuffix(turnEnd) {
            close = String(close.utf8.dropLast(turnEnd.utf8.count))!
        } else if let end = endOfGenerationTexts.compactMap({ close.range(of: $0)?.lowerBound }).min() {
            close = String(close[..<end])
        }
        var separator: String?
        if let two = probe([Probe.user, Probe.assistant(calls: 2)], false),
           let first = Probe.findCall(1, in: two), let second = Probe.findCall(2, in: two),
           first.range.upperBound <= second.range.lowerBound {
            let between = String(two[first.range.upperBound..<second.range.lowerBound])
            if between.hasPrefix(close), between.hasSuffix(open), between.utf8.count >= close.utf8.count + open.utf8.count {
                separator = String(between.utf8.dropFirst(close.utf8.count).dropLast(open.utf8.count))
            }
        }
        let name = open.contains("<tool_call>") ? "Hermes <tool_call>"
            : open.isEmpty && call.argumentsKey == "parameters" ? "Llama 3 JSON"
            : "template's \(open.debugDescription)"
        return ToolCallSyntax(open: open, close: close, separator: separator, argumentsKey: call.argumentsKey,
                              isList: false, renderedByTemplate: true, name: name)
    }
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

    static func assistant(calls: Int) -> JinjaValue {
        .object([
            (key: "role", value: "assistant"),
            (key: "content", value: ""),
            (key: "tool_calls", value: .array((1...calls).map { n in
                .object([
                    (key: "id", value: .string("call_\(n)")),
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

    static let toolResult: JinjaValue = .object([
        (key: "role", value: "tool"), (key: "tool_call_id", value: "call_1"),
        (key: "name", value: .string(name(1))), (key: "content", value: .string(result)),
    ])

    /// Where call `n`'s JSON is in `text`, as `tojson` and the templates' own quoting write it.
    static func findCall(_ n: Int, in text: String) -> (range: Range<String.Index>, argumentsKey: String)? {
        for key in ["arguments", "parameters"] {
            let json = "{\"name\": \"\(name(n))\", \"\(key)\": {\"probe_arg\": \"probe_value_\(n)\"}}"
            if let range = text.range(of: json) { return (range, key) }
        }
        return nil
    }
}
