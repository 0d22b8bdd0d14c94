import Foundation
import TestSupport
import Testing

/// `lmsession info` and `lmsession chat` on tiny models made of a vocabulary from llama.cpp's suite and a
/// chat template of the same family (``TinyChatModel``): info names the template and the tool-call
/// convention; a chat turn with tools renders, tokenizes and decodes through them.
@Suite("lmsession chat and info with each family's template")
struct ChatTemplateCommandTests {
    struct Pair: Sendable, CustomTestStringConvertible {
        var vocabulary: String
        var template: String
        /// The start of the `tool calls:` line.
        var convention: String
        var testDescription: String { "\(vocabulary) + \(template)" }
    }

    static let fallback = "JSON list in <tool_call>"
    static let unsupported = "not supported"
    static let mistral = "Mistral [TOOL_CALLS]"
    static let pairs: [Pair] = [
        Pair(vocabulary: "llama-bpe", template: "meta-llama-Llama-3.1-8B-Instruct", convention: "Llama 3 JSON"),
        Pair(vocabulary: "llama-bpe", template: "meta-llama-Llama-3.2-3B-Instruct", convention: "Llama 3 JSON"),
        Pair(vocabulary: "llama-bpe", template: "meta-llama-Llama-3.3-70B-Instruct", convention: "Llama 3 JSON"),
        Pair(vocabulary: "llama-bpe", template: "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", convention: "Hermes <tool_call>"),
        Pair(vocabulary: "llama-bpe", template: "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", convention: "Hermes <tool_call>"),
        Pair(vocabulary: "llama-bpe", template: "deepseek-ai-DeepSeek-R1-Distill-Llama-8B", convention: fallback),
        Pair(vocabulary: "llama-bpe", template: "meetkai-functionary-medium-v3.1", convention: "template's \"<function=\""),
        Pair(vocabulary: "qwen2", template: "Qwen-Qwen2.5-7B-Instruct", convention: "Hermes <tool_call>"),
        Pair(vocabulary: "qwen2", template: "Qwen-Qwen3-0.6B", convention: "Hermes <tool_call>"),
        Pair(vocabulary: "qwen2", template: "Qwen-QwQ-32B", convention: unsupported),
        Pair(vocabulary: "qwen2", template: "Qwen3-Coder", convention: unsupported),
        Pair(vocabulary: "qwen2", template: "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", convention: unsupported),
        Pair(vocabulary: "qwen35", template: "Qwen3.5-4B", convention: unsupported),
        Pair(vocabulary: "phi-3", template: "microsoft-Phi-3.5-mini-instruct", convention: fallback),
        Pair(vocabulary: "llama-spm", template: "mistralai-Mistral-Nemo-Instruct-2407", convention: mistral),
        Pair(vocabulary: "llama-spm", template: "Mistral-Small-3.2-24B-Instruct-2506", convention: mistral),
        Pair(vocabulary: "llama-spm", template: "mistralai-Ministral-3-14B-Reasoning-2512", convention: mistral),
        Pair(vocabulary: "llama-spm", template: "unsloth-mistral-Devstral-Small-2507", convention: mistral),
        Pair(vocabulary: "gpt-2", template: "ibm-granite-granite-3.3-2B-Instruct", convention: "<|tool_call|> JSON list"),
        Pair(vocabulary: "gpt-2", template: "ibm-granite-granite-4.0", convention: "Hermes <tool_call>"),
        Pair(vocabulary: "gpt-2", template: "ibm-granite-granite-4.1", convention: "Hermes <tool_call>"),
        Pair(vocabulary: "llama-bpe", template: "HuggingFaceTB-SmolLM3-3B", convention: fallback),
        Pair(vocabulary: "llama-spm", template: "Bielik-11B-v3.0-Instruct", convention: "Hermes <tool_call>"),
        Pair(vocabulary: "gemma-4", template: "google-gemma-2-2b-it", convention: fallback),  // no system role: merged into the user turn
        Pair(vocabulary: "gemma-4", template: "google-gemma-4-31B-it", convention: unsupported),
        Pair(vocabulary: "deepseek-llm", template: "deepseek-ai-DeepSeek-V3.1", convention: unsupported),
    ]
    static var supported: [Pair] { pairs.filter { $0.convention != unsupported } }

    static func run(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let result = try Subprocess.run(try CommandLineVocabularyTests.binary(), arguments, input: Data(input.utf8), mergingStandardError: true)
        return (result.status, result.text)
    }

    @Test("info prints the template and its tool-call convention", arguments: pairs)
    func infoNamesTemplateAndConvention(_ pair: Pair) throws {
        let path = try TinyChatModel.write(vocabulary: pair.vocabulary, template: pair.template)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try Self.run(["info", "--model", path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("chat template: the GGUF's own Jinja template (tokenizer.chat_template)"), "\(output)")
        #expect(output.contains("tool calls:    \(pair.convention)"), "\(output)")
    }

    @Test("a chat turn with tools runs on the template", arguments: supported)
    func chatRuns(_ pair: Pair) throws {
        let path = try TinyChatModel.write(vocabulary: pair.vocabulary, template: pair.template)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try Self.run(["chat", "--model", path, "--greedy", "--max-tokens", "4", "--tools", "demo"],
                                            input: "What is the weather in Paris?\nAnd in Oslo?\n")
        #expect(status == 0, "\(output)")
        #expect(output.contains("Chatting with tools"), "\(output)")
        #expect(!output.contains("error:"), "\(output)")
    }

    /// A call forced by `--tool-calling required`: the model (random weights) writes it under the grammar of the
    /// template's syntax, the tool runs, and the next request renders the call and its output back through the
    /// template (which checks them: Mistral's wants 9-character ids, Llama 3.1's one call per turn).
    @Test("a required tool call runs and renders back through the template", arguments: supported)
    func requiredCallRoundTrips(_ pair: Pair) throws {
        let path = try TinyChatModel.write(vocabulary: pair.vocabulary, template: pair.template)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try Self.run(["chat", "--model", path, "--greedy", "--max-tokens", "4", "--tools", "demo",
                                             "--tool-calling", "required"], input: "What is the weather in Paris?\n")
        #expect(status == 0, "\(output)")
        #expect(output.contains("[tool] get_weather(") || output.contains("[tool] FindContacts("), "\(output)")
        #expect(!output.contains("error:"), "\(output)")
    }

    /// A template whose call syntax LMSession does not constrain: chatting works, and a chat with tools says why it cannot.
    @Test("chat without tools works and with tools is refused", arguments: pairs.filter { $0.convention == unsupported })
    func unsupportedSyntaxRefusesTools(_ pair: Pair) throws {
        let path = try TinyChatModel.write(vocabulary: pair.vocabulary, template: pair.template)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = try Self.run(["chat", "--model", path, "--greedy", "--max-tokens", "4"], input: "Hello\n")
        #expect(plain.status == 0, "\(plain.output)")
        #expect(!plain.output.contains("error:"), "\(plain.output)")
        let tools = try Self.run(["chat", "--model", path, "--greedy", "--max-tokens", "4", "--tools", "demo"], input: "Weather in Oslo?\n")
        #expect(tools.output.contains("does not support tool calling: its chat template writes tool calls in a syntax LMSession does not constrain"),
                "\(tools.output)")
    }

    @Test func infoNamesTheUnsupportedConstructAndItsLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-tiny-include-\(ProcessInfo.processInfo.processIdentifier).gguf").path
        let bytes = try TinyChatModel.build(vocabulary: "llama-bpe", template: nil, extraTemplate: "{{ bos_token }}\n{% include 'other.jinja' %}")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try Self.run(["info", "--model", path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("chat template: from the GGUF, does not load: chat template does not load: unsupported template construct at line 2"), "\(output)")
        #expect(output.contains("include"), "\(output)")
        let chat = try Self.run(["chat", "--model", path], input: "Hi\n")
        #expect(chat.status != 0)
        #expect(chat.output.contains("line 2"), "\(chat.output)")
    }
}
