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

    /// Templates without tools (Phi-3.5, Gemma 2), with tools only as text (SmolLM3), or with a list of calls
    /// carrying ids (Mistral Nemo's `[TOOL_CALLS]`, which wants 9-character ids; Granite 3.3's `<|tool_call|>`).
    @Test("a template that does not define a usable syntax gets the architecture's", arguments: [
        ("microsoft-Phi-3.5-mini-instruct", "phi-3", "phi3"), ("google-gemma-2-2b-it", "llama-spm", "gemma2"),
        ("HuggingFaceTB-SmolLM3-3B", "llama-bpe", "smollm3"), ("mistralai-Mistral-Nemo-Instruct-2407", "llama-spm", "llama"),
        ("ibm-granite-granite-3.3-2B-Instruct", "gpt-2", "granite"),
    ])
    func otherTemplatesFallBack(template: String, vocabulary: String, architecture: String) throws {
        let loaded = try Self.template(template, vocabulary: vocabulary)
        #expect(loaded.toolCallSyntax == nil)
        let arch = try #require(Architecture(named: architecture))
        let syntax = ChatFormat.jinja(loaded).toolCallSyntax(architecture: arch)
        #expect(syntax == ToolCallSyntax(architecture: arch))
        #expect(!syntax.renderedByTemplate)
        #expect(syntax.open == "<tool_call>" && syntax.close == "</tool_call>")
    }
}
