import Foundation
import LMSession
import TestSupport

/// Chat Completions event streams in llama-server's chunk shape (b11312: `choices[0].delta`, a
/// `finish_reason` chunk, then a usage chunk with empty `choices`, then `[DONE]`), for the fault proxy to play.
enum OpenAIStreams {
    static let secret = "sk-test-0123456789abcdef"

    static func event(_ json: String) -> Data { Data("data: \(json)\n\n".utf8) }

    static func delta(_ content: String) -> Data {
        let quoted = String(decoding: try! JSONEncoder().encode(content), as: UTF8.self)
        return event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":\#(quoted)}}],"object":"chat.completion.chunk"}"#)
    }

    static func finish(_ reason: String) -> Data {
        event(#"{"choices":[{"finish_reason":"\#(reason)","index":0,"delta":{}}],"object":"chat.completion.chunk"}"#)
    }

    static func usage(prompt: Int, cached: Int, completion: Int) -> Data {
        event(#"{"choices":[],"object":"chat.completion.chunk","usage":{"completion_tokens":\#(completion),"prompt_tokens":\#(prompt),"total_tokens":\#(prompt + completion),"prompt_tokens_details":{"cached_tokens":\#(cached)}}}"#)
    }

    static let done = Data("data: [DONE]\n\n".utf8)

    /// A complete text answer made of `pieces`.
    static func text(_ pieces: [String], prompt: Int = 11, cached: Int = 3, completion: Int? = nil) -> [Data] {
        pieces.map(delta) + [finish("stop"), usage(prompt: prompt, cached: cached, completion: completion ?? pieces.count), done]
    }

    /// Two parallel tool calls, their arguments split in fragments as servers send them.
    static func twoToolCalls() -> [Data] {
        [
            event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}"#),
            event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": \"Pa"}}]}}]}"#),
            event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_weather","arguments":"{\"city\""}}]}}]}"#),
            event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ris\"}"}}]}}]}"#),
            event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":": \"Oslo\"}"}}]}}]}"#),
            finish("tool_calls"), usage(prompt: 40, cached: 0, completion: 20), done,
        ]
    }

    static func model(_ proxy: FaultProxy, apiKey: String? = secret, timeout: TimeInterval = 5, limit: Int = 1 << 20) -> OpenAICompatibleLanguageModel {
        OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "smollm2", apiKey: apiKey,
                                      contextSize: 4096, timeout: timeout, maximumResponseBytes: limit)
    }
}

extension Transcript {
    /// The transcript as JSON text (what an app would persist).
    var jsonText: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }
}
