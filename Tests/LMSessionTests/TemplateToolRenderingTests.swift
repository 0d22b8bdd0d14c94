import Foundation
import LMGGUF
import LMJinja
import LMSession
import LMTokenizer
import LMTransformer
import Testing
import TestSupport

/// Sessions render a model's prompt with the GGUF's own template: tool definitions, calls and results go
/// through the template when it renders them (llama.cpp's real templates, with a vocabulary of the family).
@Suite struct TemplateToolRenderingTests {
    static func renderer(_ template: String, vocabulary: String, architecture: Architecture) throws -> TranscriptRenderer {
        let tokenizer = try Tokenizer(gguf: GGUFFile(path: LlamaVocabularySuite.vocabularyPath(vocabulary)))
        let url = try LlamaCppSource.root().appendingPathComponent("models/templates/\(template).jinja")
        let format = ChatFormat.jinja(try JinjaChatTemplate(source: String(contentsOf: url, encoding: .utf8), tokenizer: tokenizer))
        return TranscriptRenderer(format: format, tokenizer: tokenizer, toolSyntax: format.toolCallSyntax(architecture: architecture))
    }

    static let weather = Transcript.ToolDefinition(tool: GetWeather())
    static let call = Transcript.ToolCall(id: "c1", toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "Moscow"]))

    /// The turns of a tool round, growing: prompt; + call and output; + answer and a new prompt.
    static let turns: [[Transcript.Entry]] = {
        let first: [Transcript.Entry] = [
            .instructions(.init(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [weather])),
            .prompt(.init(segments: [.text(.init(content: "Weather in Moscow?"))])),
        ]
        let second = first + [
            .toolCalls(.init([call])),
            .toolOutput(.init(id: "c1", toolName: "get_weather", segments: [.text(.init(content: "snow, -3 C"))])),
        ]
        let third = second + [
            .response(.init(assetIDs: [], segments: [.text(.init(content: "Snowy, -3 C."))])),
            .prompt(.init(segments: [.text(.init(content: "And tomorrow?"))])),
        ]
        return [first, second, third]
    }()

    static func text(_ renderer: TranscriptRenderer, _ entries: [Transcript.Entry]) throws -> String {
        let (messages, tools) = renderer.messages(for: LanguageModelRequest(transcript: Transcript(entries: entries)))
        guard case .jinja(let rendering) = try renderer.render(messages, tools: tools, addGenerationPrompt: true) else {
            Issue.record("not rendered by the template")
            return ""
        }
        return rendering.text
    }

    @Test func qwenRendersTheToolRoundItself() throws {
        let renderer = try Self.renderer("Qwen-Qwen2.5-7B-Instruct", vocabulary: "qwen2", architecture: .qwen2)
        let text = try Self.text(renderer, Self.turns[2])
        #expect(text.hasPrefix("<|im_start|>system\nBe brief.\n\n# Tools\n\nYou may call one or more functions"))
        // `tojson` as Hugging Face's chat templates have it: keys in order, no HTML escaping.
        #expect(text.contains("<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"description\": \"Gets today's weather in a city.\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\", \"description\": \"The city's name\"}}, \"required\": [\"city\"]}}}\n</tools>"))
        let conversation = try #require(text.range(of: "<|im_start|>user\n"))
        #expect(String(text[conversation.lowerBound...]) == """
            <|im_start|>user
            Weather in Moscow?<|im_end|>
            <|im_start|>assistant
            <tool_call>
            {"name": "get_weather", "arguments": {"city": "Moscow"}}
            </tool_call><|im_end|>
            <|im_start|>user
            <tool_response>
            snow, -3 C
            </tool_response><|im_end|>
            <|im_start|>assistant
            Snowy, -3 C.<|im_end|>
            <|im_start|>user
            And tomorrow?<|im_end|>
            <|im_start|>assistant

            """)
    }

    @Test func llamaRendersTheCallAsJSONWithParameters() throws {
        let renderer = try Self.renderer("meta-llama-Llama-3.1-8B-Instruct", vocabulary: "llama-bpe", architecture: .llama)
        let text = try Self.text(renderer, Self.turns[2])
        #expect(text.hasPrefix("<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\n"))
        #expect(text.contains("Given the following functions, please respond with a JSON for a function call"))
        // A string is iterable, so the template writes the tool's output as JSON (as llama.cpp's rendering does).
        #expect(text.contains("""
            <|start_header_id|>assistant<|end_header_id|>

            {"name": "get_weather", "parameters": {"city": "Moscow"}}<|eot_id|><|start_header_id|>ipython<|end_header_id|>

            "snow, -3 C"<|eot_id|><|start_header_id|>assistant<|end_header_id|>

            Snowy, -3 C.<|eot_id|><|start_header_id|>user<|end_header_id|>

            And tomorrow?<|eot_id|><|start_header_id|>assistant<|end_header_id|>


            """))
    }

    /// Mistral Nemo: the call as a `[TOOL_CALLS]` list whose calls carry a 9-character id, which the template checks;
    /// the transcript's id `c1` is mapped to such an id, the same for the call and its result.
    @Test func mistralNemoRendersTheCallWithNineCharacterIDs() throws {
        let renderer = try Self.renderer("mistralai-Mistral-Nemo-Instruct-2407", vocabulary: "llama-spm", architecture: .llama)
        let id = renderer.toolSyntax.templateID("c1")
        #expect(id.utf8.count == 9 && id != "c1")
        let text = try Self.text(renderer, Self.turns[2])
        #expect(text.contains("[INST]Weather in Moscow?[/INST][TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Moscow\"}, "
            + "\"id\": \"\(id)\"}]</s>[TOOL_RESULTS]{\"content\": snow, -3 C, \"call_id\": \"\(id)\"}[/TOOL_RESULTS]Snowy, -3 C.</s>"), "\(text)")
        #expect(text.contains("[AVAILABLE_TOOLS][{\"type\": \"function\", \"function\": {\"name\": \"get_weather\""), "\(text)")
    }

    /// Ministral 3 / Devstral: the name before the arguments, `[TOOL_CALLS]NAME[ARGS]{…}`, the result in `[TOOL_RESULTS]`.
    @Test(arguments: ["mistralai-Ministral-3-14B-Reasoning-2512", "unsloth-mistral-Devstral-Small-2507"])
    func mistralRendersTheNameBeforeTheArguments(template: String) throws {
        let renderer = try Self.renderer(template, vocabulary: "llama-spm", architecture: .llama)
        let text = try Self.text(renderer, Self.turns[2])
        #expect(text.contains("[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Moscow\"}</s>[TOOL_RESULTS]snow, -3 C[/TOOL_RESULTS]Snowy, -3 C.</s>"), "\(text)")
    }

    /// Granite 3.3's template renders the tools but writes calls only as the assistant's text: the call goes back as
    /// `<|tool_call|>[…]` text and the output as a plain `tool` turn.
    @Test func granite33RendersTheToolsAndTheCallAsText() throws {
        let renderer = try Self.renderer("ibm-granite-granite-3.3-2B-Instruct", vocabulary: "gpt-2", architecture: .granite)
        let text = try Self.text(renderer, Self.turns[2])
        #expect(text.hasPrefix("<|start_of_role|>system<|end_of_role|>Be brief.<|end_of_text|>\n<|start_of_role|>available_tools<|end_of_role|>[\n    {\n        \"type\": \"function\","), "\(text)")
        #expect(text.contains("""
            <|start_of_role|>assistant<|end_of_role|><|tool_call|>[{"name": "get_weather", "arguments": {"city":"Moscow"}}]<|end_of_text|>
            <|start_of_role|>tool<|end_of_role|>snow, -3 C<|end_of_text|>
            """), "\(text)")
    }

    /// The KV cache keeps the longest common prefix of two requests: each turn's prompt must be a prefix of
    /// the next one's. (Not for Mistral's templates, which write the tool definitions, and Nemo's the system
    /// message, before the last user turn wherever it is; nor with the Mistral and Granite 3.3 templates on these
    /// suite vocabularies, where `[TOOL_CALLS]` and `<|tool_call|>` are text that merges with the text before it.)
    @Test("each turn's prompt tokens start the next turn's", arguments: [
        ("Qwen-Qwen2.5-7B-Instruct", "qwen2"), ("meta-llama-Llama-3.2-3B-Instruct", "llama-bpe"),
        ("meta-llama-Llama-3.1-8B-Instruct", "llama-bpe"), ("meta-llama-Llama-3.3-70B-Instruct", "llama-bpe"),
        ("microsoft-Phi-3.5-mini-instruct", "phi-3"),
    ])
    func promptsGrowByAppending(template: String, vocabulary: String) throws {
        let renderer = try Self.renderer(template, vocabulary: vocabulary, architecture: .llama)
        let prompts = try Self.turns.map { try renderer.promptTokens(for: LanguageModelRequest(transcript: Transcript(entries: $0))) }
        for (a, b) in zip(prompts, prompts.dropFirst()) {
            #expect(b.starts(with: a), "\(a.count) tokens are not a prefix of \(b.count)")
        }
    }

    /// Hermes 2 Pro's and 3's templates close the last tool output without the newline they write between
    /// outputs, so a conversation that goes on re-renders it: the cache keeps the prompt up to there. (Qwen 3's
    /// drops the empty reasoning block of earlier turns likewise.)
    @Test(arguments: ["NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use"])
    func hermesRewritesItsLastToolOutput(template: String) throws {
        let renderer = try Self.renderer(template, vocabulary: "llama-bpe", architecture: .llama)
        let text = try Self.turns.map { try Self.text(renderer, $0) }
        #expect(text[1].contains("\n</tool_response><|im_end|><|im_start|>assistant\n"))
        #expect(text[2].contains("\n</tool_response>\n<|im_end|>"))
        #expect(!text[2].hasPrefix(text[1]))
    }

    @Test func aTemplateThatRefusesTheConversationIsAnUnsupportedTranscript() throws {
        let renderer = try Self.renderer("meta-llama-Llama-3.1-8B-Instruct", vocabulary: "llama-bpe", architecture: .llama)
        let two = Self.turns[0] + [.toolCalls(.init([Self.call, Transcript.ToolCall(id: "c2", toolName: "get_weather",
                                                                                       arguments: GeneratedContent(properties: ["city": "Oslo"]))]))]
        // (A Result: Swift 6.3.1 crashes on `catch LanguageModelError.unsupportedTranscriptContent(let c)` here.)
        let result = Result { () throws(LanguageModelError) -> [Int] in
            try renderer.promptTokens(for: LanguageModelRequest(transcript: Transcript(entries: two)))
        }
        guard case .failure(let error) = result, case .unsupportedTranscriptContent(let context) = error else {
            Issue.record("not refused: \(result)")
            return
        }
        #expect(context.debugDescription.contains("This model only supports single tool-calls at once!"))
    }
}
