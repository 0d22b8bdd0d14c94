import Foundation
import LMGGUF
import LMJinja
import LMTokenizer
import LMTransformer
import TestSupport
import Testing

/// The tool-call syntax read from llama.cpp's real chat templates (`models/templates`, fetched by
/// `Scripts/llama-cpp-source`), each with a vocabulary of its family from the same tree (for the
/// BOS/EOS texts the templates print).
@Suite struct ToolCallSyntaxTests {
    static func template(_ name: String, vocabulary: String) throws -> JinjaChatTemplate {
        let tokenizer = try Tokenizer(gguf: GGUFFile(path: LlamaVocabularySuite.vocabularyPath(vocabulary)))
        let url = try LlamaCppSource.root().appendingPathComponent("models/templates/\(name).jinja")
        return try JinjaChatTemplate(source: String(contentsOf: url, encoding: .utf8), tokenizer: tokenizer)
    }

    struct Expected: Sendable, CustomTestStringConvertible {
        var template: String
        var vocabulary: String
        var open: String
        var close: String
        var separator: String?
        var argumentsKey: String
        var testDescription: String { template }
    }

    static let hermes = (open: "<tool_call>\n", close: "\n</tool_call>")
    static let defining: [Expected] = [
        Expected(template: "Qwen-Qwen2.5-7B-Instruct", vocabulary: "qwen2", open: hermes.open, close: hermes.close, separator: "\n", argumentsKey: "arguments"),
        // Qwen 3 writes an empty reasoning block before the calls of the last turn: not part of the markup.
        Expected(template: "Qwen-Qwen3-0.6B", vocabulary: "qwen2", open: hermes.open, close: hermes.close, separator: "\n", argumentsKey: "arguments"),
        Expected(template: "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", vocabulary: "llama-bpe", open: hermes.open, close: hermes.close,
                 separator: "\n", argumentsKey: "arguments"),
        Expected(template: "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", vocabulary: "llama-bpe", open: hermes.open, close: hermes.close,
                 separator: "\n", argumentsKey: "arguments"),
        Expected(template: "ibm-granite-granite-4.0", vocabulary: "gpt-2", open: hermes.open, close: hermes.close, separator: "\n", argumentsKey: "arguments"),
        // Llama 3.x: the call alone, "parameters", and the template refuses two calls in one turn.
        Expected(template: "meta-llama-Llama-3.1-8B-Instruct", vocabulary: "llama-bpe", open: "", close: "", separator: nil, argumentsKey: "parameters"),
        Expected(template: "meta-llama-Llama-3.2-3B-Instruct", vocabulary: "llama-bpe", open: "", close: "", separator: nil, argumentsKey: "parameters"),
        Expected(template: "meta-llama-Llama-3.3-70B-Instruct", vocabulary: "llama-bpe", open: "", close: "", separator: nil, argumentsKey: "parameters"),
    ]

    @Test("a template that renders tool calls defines the syntax", arguments: defining)
    func templatesDefineTheirSyntax(_ e: Expected) throws {
        let syntax = try #require(try Self.template(e.template, vocabulary: e.vocabulary).toolCallSyntax)
        #expect(syntax.open == e.open)
        #expect(syntax.close == e.close)
        #expect(syntax.separator == e.separator)
        #expect(syntax.argumentsKey == e.argumentsKey)
        #expect(!syntax.isList)
        #expect(syntax.renderedByTemplate)
    }

    /// The other call layouts templates define: Mistral's `[TOOL_CALLS]` (Nemo: a JSON list whose calls carry the
    /// model's 9-character id; Small 3.2, Ministral 3, Devstral: the name before the arguments), Granite 3.3's
    /// `<|tool_call|>` list (its template renders the definitions and asks for that list, but renders calls only as
    /// text), Functionary 3.1's `<function=NAME>{…}</function>` (then `<|eom_id|>`, which this older Llama 3
    /// vocabulary does not mark end-of-generation, so the call's closing text keeps it) and Apriel 1.5's
    /// `<tool_calls>[…]</tool_calls>`.
    @Test("a template's other call layouts are read too", arguments: [
        ("mistralai-Mistral-Nemo-Instruct-2407", "llama-spm", ToolCallSyntax(
            open: "[TOOL_CALLS]", close: "", separator: nil, isList: true, renderedByTemplate: true, name: "Mistral [TOOL_CALLS]",
            idKey: "id", callIDLength: 9)),
        ("Mistral-Small-3.2-24B-Instruct-2506", "llama-spm", ToolCallSyntax(
            open: "[TOOL_CALLS]", close: "", separator: "", isList: false, renderedByTemplate: true, name: "Mistral [TOOL_CALLS]",
            callIDLength: 9, nameFirst: .init(idMarker: "[CALL_ID]", beforeArguments: "[ARGS]"))),
        ("mistralai-Ministral-3-14B-Reasoning-2512", "llama-spm", ToolCallSyntax(
            open: "[TOOL_CALLS]", close: "", separator: "", isList: false, renderedByTemplate: true, name: "Mistral [TOOL_CALLS]",
            nameFirst: .init(idMarker: nil, beforeArguments: "[ARGS]"))),
        ("unsloth-mistral-Devstral-Small-2507", "llama-spm", ToolCallSyntax(
            open: "[TOOL_CALLS]", close: "", separator: "", isList: false, renderedByTemplate: true, name: "Mistral [TOOL_CALLS]",
            nameFirst: .init(idMarker: nil, beforeArguments: "[ARGS]"))),
        ("ibm-granite-granite-3.3-2B-Instruct", "gpt-2", ToolCallSyntax(
            open: "<|tool_call|>", close: "", separator: nil, isList: true, renderedByTemplate: false, name: "<|tool_call|> JSON list",
            templateRendersDefinitions: true)),
        ("meetkai-functionary-medium-v3.1", "llama-bpe", ToolCallSyntax(
            open: "<function=", close: "</function><|eom_id|>", separator: nil, isList: false, renderedByTemplate: true, name: "template's \"<function=\"",
            nameFirst: .init(idMarker: nil, beforeArguments: ">"))),
        ("unsloth-Apriel-1.5", "llama-spm", ToolCallSyntax(
            open: "\n<tool_calls>", close: "</tool_calls>", separator: nil, isList: true, renderedByTemplate: true,
            name: "template's \"\\n<tool_calls>\"")),
    ])
    func otherLayouts(template: String, vocabulary: String, expected: ToolCallSyntax) throws {
        let found = try Self.template(template, vocabulary: vocabulary).toolCalls
        #expect(found == .defined(expected), "\(found)")
    }

    /// Templates without tools (Phi-3.5, Gemma 2), or with tools only in the system prompt's text (SmolLM3): the
    /// architecture's convention, described in the instructions.
    @Test("a template that renders no tool calls gets the architecture's convention", arguments: [
        ("microsoft-Phi-3.5-mini-instruct", "phi-3", "phi3"), ("google-gemma-2-2b-it", "llama-spm", "gemma2"),
        ("HuggingFaceTB-SmolLM3-3B", "llama-bpe", "smollm3"), ("deepseek-ai-DeepSeek-R1-Distill-Llama-8B", "llama-bpe", "llama"),
    ])
    func otherTemplatesFallBack(template: String, vocabulary: String, architecture: String) throws {
        let loaded = try Self.template(template, vocabulary: vocabulary)
        #expect(loaded.toolCalls == .none)
        let arch = try #require(Architecture(named: architecture))
        let syntax = ChatFormat.jinja(loaded).toolCallSyntax(architecture: arch)
        #expect(syntax == ToolCallSyntax(architecture: arch))
        #expect(!syntax.renderedByTemplate)
        #expect(syntax.open == "<tool_call>" && syntax.close == "</tool_call>")
        #expect(ChatFormat.jinja(loaded).toolCalls(architecture: arch).unsupported == nil)
    }

    /// Templates that write calls in a syntax the session does not constrain (XML-like parameters, special-token
    /// calls with the name outside JSON and no probe-able prefix, a reasoning block the generation prompt opens,
    /// Gemma 4's own value syntax), or that refuse a call with object arguments (Functionary 3.2 wants a string):
    /// unsupported, with the call as rendered (or the refusal) to show.
    @Test("a template whose call syntax cannot be constrained is unsupported", arguments: [
        ("Qwen3-Coder", "qwen2", "<function=probe_tool_1>"), ("Qwen-QwQ-32B", "qwen2", "</tool_call>"),
        ("Qwen3.5-4B", "qwen35", "<parameter=probe_arg>"), ("google-gemma-4-31B-it", "gemma-4", "<|tool_call>call:probe_tool_1{"),
        ("deepseek-ai-DeepSeek-V3.1", "deepseek-llm", "<｜tool▁sep｜>"), ("GLM-4.6", "llama-bpe", "<arg_key>probe_arg</arg_key>"),
        ("meetkai-functionary-medium-v3.2", "llama-bpe", "refuses a call with object arguments"),
    ])
    func unconstrainableSyntaxesAreUnsupported(template: String, vocabulary: String, shown: String) throws {
        let loaded = try Self.template(template, vocabulary: vocabulary)
        guard case .unsupported(let excerpt) = loaded.toolCalls else {
            Issue.record("not unsupported: \(loaded.toolCalls)")
            return
        }
        #expect(excerpt.contains(shown), "\(excerpt)")
        #expect(ChatFormat.jinja(loaded).toolCalls(architecture: .llama).unsupported == excerpt)
    }

    /// Mistral's templates refuse ids that are not 9 letters or digits: other ids are mapped to such ids, the same
    /// way for a call and its output.
    @Test func templateIDsAreNineAlphanumericsWhenTheTemplateSaysSo() throws {
        let syntax = try #require(try Self.template("mistralai-Mistral-Nemo-Instruct-2407", vocabulary: "llama-spm").toolCallSyntax)
        #expect(syntax.templateID("a1B2c3D4e") == "a1B2c3D4e")
        let mapped = syntax.templateID("8D0F5C2E-1111-4A5B-9C3D-0123456789AB")
        #expect(mapped.utf8.count == 9 && mapped.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "\(mapped)")
        #expect(syntax.templateID("8D0F5C2E-1111-4A5B-9C3D-0123456789AB") == mapped)
        #expect(syntax.templateID("c1") != syntax.templateID("c2"))
        let qwen = try #require(try Self.template("Qwen-Qwen2.5-7B-Instruct", vocabulary: "qwen2").toolCallSyntax)
        #expect(qwen.templateID("c1") == "c1")
    }
}

/// What each of llama.cpp's 70 templates says about tool calls (the README's family table counts these), read with
/// one vocabulary for all (only the BOS/EOS texts differ between vocabularies, not the class).
@Suite struct ToolCallSupportCensusTests {
    /// Templates whose syntax the session derives and constrains.
    static let defined: Set<String> = [
        "Apertus-8B-Instruct", "Bielik-11B-v3.0-Instruct", "CohereForAI-c4ai-command-r7b-12-2024-tool_use", "GigaChat3-10B-A1.8B",
        "GigaChat3.1-10B-A1.8B", "MiMo-VL", "MiniMax-M1", "Mistral-Small-3.2-24B-Instruct-2506",
        "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "Qwen-Qwen2.5-7B-Instruct",
        "Qwen-Qwen3-0.6B", "Reka-Edge", "ibm-granite-granite-3.3-2B-Instruct", "ibm-granite-granite-4.0", "ibm-granite-granite-4.1",
        "meetkai-functionary-medium-v3.1", "meta-llama-Llama-3.1-8B-Instruct", "meta-llama-Llama-3.2-3B-Instruct",
        "meta-llama-Llama-3.3-70B-Instruct", "mistralai-Ministral-3-14B-Reasoning-2512", "mistralai-Mistral-Nemo-Instruct-2407",
        "openai-gpt-oss-120b", "unsloth-Apriel-1.5", "unsloth-mistral-Devstral-Small-2507",
    ]
    /// Templates that render no tool calls (the architecture's convention applies).
    static let none: Set<String> = [
        "CohereForAI-c4ai-command-r-plus-tool_use", "HuggingFaceTB-SmolLM3-3B", "LFM2-8B-A1B", "LFM2.5-Instruct",
        "deepseek-ai-DeepSeek-R1-Distill-Llama-8B", "fireworks-ai-llama-3-firefunction-v2", "google-gemma-2-2b-it",
        "llama-cpp-deepseek-r1", "llama-cpp-rwkv-world", "microsoft-Phi-3.5-mini-instruct",
    ]

    @Test func everyTemplateIsDefinedUnsupportedOrSilent() throws {
        let tokenizer = try Tokenizer(gguf: GGUFFile(path: LlamaVocabularySuite.vocabularyPath("llama-spm")))
        let directory = try LlamaCppSource.root().appendingPathComponent("models/templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jinja") }.map { String($0.dropLast(6)) }
        #expect(names.count == 70)
        var counts = (defined: 0, unsupported: 0, none: 0)
        for name in names.sorted() {
            let source = try String(contentsOf: directory.appendingPathComponent(name + ".jinja"), encoding: .utf8)
            let support = try JinjaChatTemplate(source: source, tokenizer: tokenizer).toolCalls
            switch support {
            case .defined:
                counts.defined += 1
                #expect(Self.defined.contains(name), "\(name): \(support)")
            case .none:
                counts.none += 1
                #expect(Self.none.contains(name), "\(name): \(support)")
            case .unsupported:
                counts.unsupported += 1
                #expect(!Self.defined.contains(name) && !Self.none.contains(name), "\(name): \(support)")
            }
        }
        #expect(counts == (25, 35, 10))
    }
}
