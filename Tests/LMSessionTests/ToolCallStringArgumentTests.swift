import Foundation
import LMSession
import Testing

/// Tool arguments whose strings hold JSON, code or markup, including the call's own closing text (`}}`, `}]`,
/// `</tool_call>`): inside a string that text is text, and the call ends where the JSON value does, in every
/// envelope (SmolLM2's list, Hermes/Qwen, Llama 3's bare JSON, Mistral's `[TOOL_CALLS]`).
@Suite struct ToolCallStringArgumentTests {
    static let v = ToyVocabulary()

    /// A tool `run` with one string argument `code`, fixed to `constant` when given.
    static func tool(constant: String?) -> Transcript.ToolDefinition {
        let property = GenerationSchema.Property(name: "code", type: String.self, guides: constant.map { [.constant($0)] } ?? [])
        return Transcript.ToolDefinition(name: "run", description: "Runs code.",
                                         parameters: GenerationSchema(type: GeneratedContent.self, properties: [property]))
    }

    static let envelopes: [(String, ToolCallDecoder.EnvelopeTokens)] = [
        ("list", v.envelope(isList: true)), ("object", v.envelope(isList: false)), ("hermes", ToolCallSyntaxDecoderTests.hermes),
        ("llama", ToolCallSyntaxDecoderTests.llama), ("mistral-nemo", ToolCallMistralDecoderTests.nemo),
        ("ministral", ToolCallMistralDecoderTests.ministral),
    ]

    static func decoder(_ envelope: ToolCallDecoder.EnvelopeTokens, constant: String?) throws -> ToolCallDecoder {
        try ToolCallDecoder(definitions: [tool(constant: constant)], mode: .required, tokens: v.tokens,
                            endOfGeneration: [ToyVocabulary.eos], envelope: envelope, makeID: { "id0" })
    }

    /// The call's text after the forced opening, in the envelope's syntax, one character per token.
    static func callText(_ name: String, argument: String) -> String {
        let arguments = #"{"code": "# + ToolCallEnvelope.jsonStringForTests(argument) + "}"
        switch name {
        case "list": return #"[{"name": "run", "arguments": "# + arguments + "}]"
        case "llama": return #": "run", "parameters": "# + arguments + "}"
        case "mistral-nemo": return #"[{"name": "run", "arguments": "# + arguments + #", "id": "a1B2c3D4e"}]"#
        case "ministral": return "run[ARGS]" + arguments
        default: return #"{"name": "run", "arguments": "# + arguments + "}"
        }
    }

    /// Plays a model that writes `text` one character per token: every character must be in the step's mask
    /// and be accepted, and the decoder must then end the round with the one call.
    static func play(_ decoder: inout ToolCallDecoder, _ text: String) throws -> [Transcript.ToolCall] {
        var wanted = v.characters(text)[...]
        while true {
            switch decoder.next() {
            case .force:
                continue
            case .sample(let mask):
                if wanted.isEmpty {
                    // After the call: the end of the turn.
                    #expect(ToolCallDecoderTests.allows(.sample(allowed: mask), ToyVocabulary.eos))
                    _ = try decoder.accept(ToyVocabulary.eos)
                    continue
                }
                let token = wanted.removeFirst()
                let character = String(decoding: v.tokens[token], as: UTF8.self)
                let before = text.count - wanted.count - 1
                guard ToolCallDecoderTests.allows(.sample(allowed: mask), token) else {
                    Issue.record("\(character) (at \(before)) is masked out")
                    return []
                }
                let acceptance = try decoder.accept(token)
                guard acceptance == .call else {
                    Issue.record("\(character) (at \(before)) is \(acceptance)")
                    return []
                }
            case .call(let calls):
                #expect(wanted.isEmpty)
                return calls
            case .end:
                Issue.record("the round ended without a call")
                return []
            }
        }
    }

    static let closingTexts = ["}}", "}]", "]]", "]}", "</tool", #"x"}]</tool_call>"#, "}}]</tool_call>"]

    @Test(arguments: envelopes.map(\.0), closingTexts)
    func aConstantArgumentHoldingTheCallsClosingTextIsGenerated(envelope: String, constant: String) throws {
        let tokens = try #require(Self.envelopes.first { $0.0 == envelope }?.1)
        var decoder = try Self.decoder(tokens, constant: constant)
        let calls = try Self.play(&decoder, Self.callText(envelope, argument: constant))
        #expect(calls.count == 1)
        #expect(try calls.first?.arguments.value(String.self, forProperty: "code") == constant)
    }

    static let freeTexts = [#"{"a":[1]}"#, "if (x) { return y; }", "f(g([1, [2]]))", "<b>bold</b>", #"[{"k": {"v": [[]]}}]"#]

    @Test(arguments: envelopes.map(\.0), freeTexts)
    func aFreeArgumentMayHoldBalancedJSONCodeAndMarkup(envelope: String, text: String) throws {
        let tokens = try #require(Self.envelopes.first { $0.0 == envelope }?.1)
        var decoder = try Self.decoder(tokens, constant: nil)
        let calls = try Self.play(&decoder, Self.callText(envelope, argument: text))
        #expect(calls.count == 1)
        #expect(try calls.first?.arguments.value(String.self, forProperty: "code") == text)
    }
}

extension ToolCallEnvelope {
    /// `text` as a JSON string literal, escaped as Python's `json.dumps` does for ASCII.
    static func jsonStringForTests(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
