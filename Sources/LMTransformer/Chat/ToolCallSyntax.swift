/// How a model writes tool calls in its answer: the texts around each call's JSON, the key that
/// holds the arguments, and whether its chat template renders tool definitions, calls and results
/// itself.
///
/// Each call is one JSON object, `{"name": NAME, KEY: ARGUMENTS}` (KEY is ``argumentsKey``), or for
/// ``isList`` one JSON list of them:
///
///     open + call + close [+ separator + open + call + close ...]      (object)
///     open + "[" call, call... "]" + close                             (list)
///
/// - Qwen 2.5/3, Hermes 2 Pro/3 (`<tool_call>` in the template): `<tool_call>\n{"name": ..., "arguments": ...}\n</tool_call>`,
///   several separated by `\n`.
/// - Llama 3.1/3.2/3.3: the call alone, `{"name": ..., "parameters": ...}`, one per turn (``open`` is
///   empty: a call is recognised by the JSON's own start, ``callStart``).
/// - Without a template that defines one, the architecture's convention (``Architecture/toolCalls``),
///   described in the instructions as text.
public struct ToolCallSyntax: Sendable, Equatable, CustomStringConvertible {
    /// Text before a call's JSON (before the list for ``isList``); may be empty.
    public var open: String
    /// Text after it.
    public var close: String
    /// Text between two calls of one turn (object layout); nil when the family makes one call per turn.
    public var separator: String?
    /// `"arguments"` or `"parameters"` (Llama 3).
    public var argumentsKey: String
    /// One envelope holding a JSON list of calls.
    public var isList: Bool
    /// Whether the template renders tool definitions (`tools`), assistant calls (`tool_calls`) and
    /// tool results (role `tool`) itself; false: the session describes the tools and writes calls
    /// and results as message text in this syntax.
    public var renderedByTemplate: Bool
    /// The family's name for people (`lmsession info`).
    public var name: String

    public init(open: String, close: String, separator: String?, argumentsKey: String = "arguments",
                isList: Bool, renderedByTemplate: Bool, name: String) {
        self.open = open
        self.close = close
        self.separator = separator
        self.argumentsKey = argumentsKey
        self.isList = isList
        self.renderedByTemplate = renderedByTemplate
        self.name = name
    }

    /// The text that starts a call in generated text: ``open``, or when that is empty the start of
    /// the call's JSON up to its first key, `{"name"` (part of the call: the grammar reads it too).
    public var callStart: String { open.isEmpty ? "{\"name\"" : open }

    /// Whether ``callStart`` is the beginning of the call's JSON rather than markup around it.
    public var callStartIsJSON: Bool { open.isEmpty }

    public var description: String {
        let layout = isList ? "a JSON list of calls" : separator == nil ? "one call per turn" : "one object per call"
        let shown = callStartIsJSON ? "{\"name\": …, \"\(argumentsKey)\": …}" : "\(open)…\(close)"
        return "\(name): \(shown.debugDescription) (\(layout), \(renderedByTemplate ? "rendered by the template" : "described in the instructions"))"
    }

    /// The convention of an architecture, for a GGUF whose template does not define one: described to
    /// the model in the instructions.
    public init(architecture: Architecture) {
        switch architecture.toolCalls {
        case .jsonList:
            self.init(open: "<tool_call>", close: "</tool_call>", separator: nil, isList: true,
                      renderedByTemplate: false, name: "JSON list in <tool_call>")
        case .hermes:
            self.init(open: "<tool_call>", close: "</tool_call>", separator: "\n", isList: false,
                      renderedByTemplate: false, name: "Hermes <tool_call>")
        }
    }
}
