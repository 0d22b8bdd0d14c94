import LMGrammar
import LMTransformer

/// How tool calls look in the local model's text: the Hermes/Qwen convention, which SmolLM2 and Qwen use
/// (Gemma has no convention of its own and gets the same).
///
/// A call is `<tool_call>{"name": NAME, "arguments": ARGUMENTS}</tool_call>`; parallel calls are several of
/// them separated by a newline, and the assistant turn ends after the last one. The tags are plain text for
/// SmolLM2 (`<`, `tool`, `_`, `call`, `>`), not special tokens. The instructions list every tool as one line of
/// JSON (name, description, parameters as compact JSON Schema) and say how to call.
package enum ToolCallEnvelope {
    /// The text that opens a call.
    package static let open = "<tool_call>"
    /// The text that closes a call.
    package static let close = "</tool_call>"
    /// The text between two calls of one round.
    package static let separator = "\n"

    /// The tools section appended to the instructions (system turn).
    package static func instructions(_ definitions: [Transcript.ToolDefinition]) -> String {
        let lines = definitions.map { definition in
            "{\"name\": \(jsonString(definition.name)), \"description\": \(jsonString(definition.description)), "
                + "\"parameters\": \(compactSchema(definition.storedParameters))}"
        }
        return "You can call these tools:\n<tools>\n" + lines.joined(separator: "\n") + "\n</tools>\n"
            + "To call a tool, answer with \(open){\"name\": tool name, \"arguments\": arguments object}\(close) "
            + "and nothing else; the tool's output comes back to you in the next message."
    }

    /// The assistant turn of a round: each call in its envelope, in order.
    package static func render(_ calls: Transcript.ToolCalls) -> String {
        calls.map { open + callJSON($0) + close }.joined(separator: separator)
    }

    /// A call's JSON inside the envelope: name first, so the grammar can choose the arguments' schema by it.
    package static func callJSON(_ call: Transcript.ToolCall) -> String {
        "{\"name\": \(jsonString(call.toolName)), \"arguments\": \(call.arguments.jsonString)}"
    }

    /// A tool output as the model sees it: its text for a template with a tool role (ChatML), wrapped in
    /// `<tool_response>` tags naming the tool for one without (Gemma, where it becomes a user turn).
    static func output(_ output: Transcript.ToolOutput, template: ChatTemplate) -> String {
        let text = output.segments.descriptionText
        switch template {
        case .chatML: return text
        case .gemma: return "<tool_response name=\(jsonString(output.toolName))>\n\(text)\n</tool_response>"
        }
    }

    /// The parameters schema as compact JSON Schema: Apple's shape without what the model does not need
    /// (`x-order`, which the property order already shows; `additionalProperties`; the root `title`).
    package static func compactSchema(_ schema: GenerationSchema) -> String {
        var out = ""
        GenerationSchema.write(strip(schema.jsonValue, isRoot: true), indent: nil, to: &out)
        return out
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
