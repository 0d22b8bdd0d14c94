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
/// - Mistral Nemo: `[TOOL_CALLS][{"name": ..., "arguments": ..., "id": ID}]`, a list whose calls carry the
///   model's own 9-character alphanumeric id (``idKey``, ``callIDLength``; the template refuses other ids).
/// - Mistral Small 3.2, Ministral 3, Devstral: the name before the arguments (``nameFirst``),
///   `[TOOL_CALLS]NAME[ARGS]{…}` (Small 3.2: `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`), several in a row; also
///   Functionary 3.1's `<function=NAME>{…}</function>` and DeepSeek V3.1's `…NAME<｜tool▁sep｜>{…}…`.
/// - Granite 3.3: the template renders the definitions and asks for `<|tool_call|>` followed by a JSON list of
///   calls, but renders calls only as the assistant's text (``templateRendersDefinitions``).
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
    /// Whether the template renders the tool definitions (its `tools` variable), also when it does not render calls
    /// and results (Granite 3.3: calls are then the assistant's text in this syntax, results `tool` messages of
    /// plain text). Equal to ``renderedByTemplate`` unless set.
    public var templateRendersDefinitions: Bool
    /// The family's name for people (`lmsession info`).
    public var name: String
    /// The key of the call's id when the model writes one in the call's JSON, after the arguments (Mistral
    /// Nemo: `"id"`); nil when it writes none.
    public var idKey: String?
    /// The length of the alphanumeric call ids the template accepts (Mistral: 9; its template raises an
    /// exception for any other id); nil: any id.
    public var callIDLength: Int?
    /// When the call is the tool's name followed by the arguments' JSON object rather than one JSON object
    /// (``callStart``, then NAME, then this, then ARGUMENTS); nil: one JSON object.
    public var nameFirst: NameFirst?

    /// The text between a call's name and its arguments, for ``nameFirst``.
    public struct NameFirst: Sendable, Equatable {
        /// Text after the name that introduces a call id the model writes (`[CALL_ID]`, Mistral Small 3.2); the
        /// id is ``ToolCallSyntax/callIDLength`` ASCII letters and digits. Nil: no id in the call.
        public var idMarker: String?
        /// Text after the name (and id) that introduces the arguments (`[ARGS]`, `>`, `<｜tool▁sep｜>`).
        public var beforeArguments: String

        public init(idMarker: String?, beforeArguments: String) {
            self.idMarker = idMarker
            self.beforeArguments = beforeArguments
        }
    }

    public init(open: String, close: String, separator: String?, argumentsKey: String = "arguments",
                isList: Bool, renderedByTemplate: Bool, name: String, idKey: String? = nil, callIDLength: Int? = nil,
                nameFirst: NameFirst? = nil, templateRendersDefinitions: Bool? = nil) {
        self.templateRendersDefinitions = templateRendersDefinitions ?? renderedByTemplate
        self.nameFirst = nameFirst
        self.idKey = idKey
        self.callIDLength = callIDLength
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
        let layout = isList ? "a JSON list of calls" : separator == nil ? "one call per turn"
            : nameFirst == nil ? "one object per call" : "one call after another"
        let shown = callStartIsJSON ? "{\"name\": …, \"\(argumentsKey)\": …}"
            : nameFirst.map { "\(open)NAME\($0.idMarker.map { "\($0)ID" } ?? "")\($0.beforeArguments){…}\(close)" } ?? "\(open)…\(close)"
        let ids = callIDLength.map { ", \($0)-character ids\(idKey != nil ? " written by the model" : "")" } ?? ""
        let rendering = renderedByTemplate ? "rendered by the template"
            : templateRendersDefinitions ? "tools rendered by the template, calls as text" : "described in the instructions"
        return "\(name): \(shown.debugDescription) (\(layout)\(ids), \(rendering))"
    }

    /// `id` as the template accepts it: unchanged when ``callIDLength`` is nil or `id` is already that many
    /// ASCII letters and digits, else a stable alphanumeric id of that length derived from it (FNV-1a of its
    /// UTF-8, in base 62), so a call and its output keep matching ids.
    public func templateID(_ id: String) -> String {
        guard let length = callIDLength, length > 0 else { return id }
        let alphanumeric = id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        if id.utf8.count == length && alphanumeric { return id }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var out: [UInt8] = []
        for _ in 0..<length {
            out.append(digits[Int(hash % 62)])
            hash /= 62
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The convention of an architecture, for a GGUF whose template does not define one: described to
    /// the model in the instructions.
    public init(architecture: Architecture) { self.init(convention: architecture.toolCalls) }

    /// The syntax of a fallback convention, spelt out.
    public init(convention: Architecture.ToolCallConvention) {
        switch convention {
        case .jsonList:
            self.init(open: "<tool_call>", close: "</tool_call>", separator: nil, isList: true,
                      renderedByTemplate: false, name: "JSON list in <tool_call>")
        case .hermes:
            self.init(open: "<tool_call>", close: "</tool_call>", separator: "\n", isList: false,
                      renderedByTemplate: false, name: "Hermes <tool_call>")
        }
    }
}
