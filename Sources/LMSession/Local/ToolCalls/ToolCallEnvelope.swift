import LMGrammar
import LMTransformer

/// How tool calls look in the local model's text: the model family's convention.
///
/// Both conventions wrap calls in `<tool_call>`…`</tool_call>` (plain text for SmolLM2: `<`, `tool`, `_`,
/// `call`, `>`, not special tokens) and send each tool output back in `<tool_response>`…`</tool_response>` tags,
/// in the template's tool turn (`<|im_start|>tool` for ChatML, a user turn for Gemma):
/// - a list (``Architecture/ToolCallConvention/jsonList``: SmolLM2, whose tool-calling template and training data
///   use it; also Gemma, which has no convention of its own): one envelope holding a JSON list of calls,
///   `<tool_call>[{"name": NAME, "arguments": ARGUMENTS}, ...]</tool_call>`.
/// - one object per call (``Architecture/ToolCallConvention/hermes``: Hermes/Qwen): one envelope per call,
///   `<tool_call>{"name": NAME, "arguments": ARGUMENTS}</tool_call>`, several calls separated by a newline.
///
/// Each convention is a ``ToolCallSyntax`` (``ToolCallSyntax/init(architecture:)``), the one description of a call
/// format that the prompt, the grammar and the decoder read.
///
/// The instructions list every tool as JSON (name, description, parameters as compact JSON Schema) and say how
/// to call.
package enum ToolCallEnvelope {
    /// The tags both conventions wrap calls in (also the markup an answer may not show).
    package static let open = "<tool_call>", close = "</tool_call>"
    /// The text between two envelopes of one round when a syntax names none.
    static let separator = "\n"
    /// The text that opens a tool's output in the tool turn.
    package static let responseOpen = "<tool_response>"
    /// The text that closes it.
    package static let responseClose = "</tool_response>"

    /// The tools section appended to the instructions (system turn), for a model whose template does not render
    /// tool definitions: the calls are described in `syntax` (an architecture's convention).
    package static func instructions(_ definitions: [Transcript.ToolDefinition], syntax: ToolCallSyntax) -> String {
        let tools = definitions.map { definition in
            "{\"name\": \(jsonString(definition.name)), \"description\": \(jsonString(definition.description)), "
                + "\"parameters\": \(compactSchema(definition.storedParameters))}"
        }
        let (open, close) = (syntax.open, syntax.close)
        if syntax.isList {
            return "You can call these tools (functions) to answer:\n<tools>[" + tools.joined(separator: ", ") + "]</tools>\n"
                + "To call tools, reply with nothing but the list of calls, in this form:\n"
                + "\(open)[{\"name\": \"tool_name\", \"arguments\": {\"argument\": \"value\"}}]\(close)\n"
                + "Each tool's output comes back to you in a <tool_response> message."
        }
        return "You can call these tools (functions) to answer:\n<tools>\n" + tools.joined(separator: "\n") + "\n</tools>\n"
            + "To call a tool, reply with nothing but \(open){\"name\": \"tool_name\", \"arguments\": {\"argument\": \"value\"}}\(close), "
            + "one per line for several. Each tool's output comes back to you in a <tool_response> message."
    }

    /// The assistant turn of a round written as text in `syntax` (its open and close texts, list or one object per
    /// call), for a template that does not render calls itself.
    package static func render(_ calls: Transcript.ToolCalls, syntax: ToolCallSyntax) -> String {
        if syntax.isList { return syntax.open + "[" + calls.map(callJSON).joined(separator: ", ") + "]" + syntax.close }
        return calls.map { syntax.open + callJSON($0) + syntax.close }.joined(separator: syntax.separator ?? separator)
    }

    /// A call's JSON: name first, so the grammar can choose the arguments' schema by it.
    package static func callJSON(_ call: Transcript.ToolCall) -> String {
        "{\"name\": \(jsonString(call.toolName)), \"arguments\": \(call.arguments.jsonString)}"
    }

    /// A tool output as the tool turn that carries it back to the model.
    package static func response(_ output: Transcript.ToolOutput) -> String {
        responseOpen + "\n" + output.segments.descriptionText + "\n" + responseClose
    }

    /// The parameters schema as compact JSON Schema: Apple's shape without what the model does not need
    /// (`x-order`, which the property order already shows; `additionalProperties`; the root `title`).
    package static func compactSchema(_ schema: GenerationSchema) -> String {
        strip(schema.jsonValue, isRoot: true).compactText
    }

    private static func strip(_ value: JSONValue, isRoot: Bool = false) -> JSONValue {
        switch value {
        case let .object(members, complete):
            let kept = members.compactMap { member -> JSONMember? in
                if member.key == "x-order" || member.key == "additionalProperties" || (isRoot && member.key == "title") { return nil }
                // Inside `properties` and `$defs` the keys are names, not keywords: keep all of them.
                if member.key == "properties" || member.key == "$defs", case let .object(named, c) = member.value {
                    return JSONMember(key: member.key, value: .object(named.map { JSONMember(key: $0.key, value: strip($0.value)) }, complete: c))
                }
                return JSONMember(key: member.key, value: strip(member.value))
            }
            return .object(kept, complete: complete)
        case let .array(items, complete):
            return .array(items.map { strip($0) }, complete: complete)
        default:
            return value
        }
    }

    static func jsonString(_ text: String) -> String {
        GeneratedContent(kind: .string(text)).jsonString
    }
}
