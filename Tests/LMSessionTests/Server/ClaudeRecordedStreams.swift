import Foundation

/// Messages API event streams for the Claude tests: one recorded from llama.cpp's llama-server (b11312,
/// SmolLM2-135M-Instruct Q4_1, `top_k: 1`), the others written in the API's documented shape with values of
/// our own (tool use, thinking, server tools, refusal), which the small model cannot produce.
enum ClaudeRecordedStreams {
    /// Builds an SSE body from `(event, data)` pairs.
    static func sse(_ events: [(String, String)]) -> String {
        events.map { "event: \($0.0)\ndata: \($0.1)\n\n" }.joined()
    }

    /// llama-server's answer to "What is the capital of France?" with `max_tokens: 4` (first deltas of the
    /// recorded 20-token answer, usage as the server counted it).
    static let llamaServerText = sse([
        ("message_start", #"{"type":"message_start","message":{"id":"chatcmpl-ygr72ddn","type":"message","role":"assistant","content":[],"model":"SmolLM2-135M-Instruct.Q4_1.gguf","stop_reason":null,"stop_sequence":null,"usage":{"cache_read_input_tokens":0,"input_tokens":24,"output_tokens":0}}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"La"}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" fem"}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"me"}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" de"}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":4}}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])

    /// A short preamble, then a call of `get_weather` whose input arrives in three pieces; cached input.
    static let toolUse = sse([
        ("message_start", #"{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":310,"cache_creation_input_tokens":40,"cache_read_input_tokens":1200,"output_tokens":1}}}"#),
        ("ping", #"{"type":"ping"}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking."}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{}}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Os"}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"lo\"}"}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
        ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":57}}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])

    /// A tool-use stream for the session tests: calls `get_weather` for Oslo with no text.
    static func toolCall(id: String = "toolu_01A", city: String = "Oslo") -> String {
        sse([
            ("message_start", #"{"type":"message_start","message":{"id":"msg_02","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":90,"output_tokens":1}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"\#(id)","name":"get_weather","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\":\"\#(city)\"}"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":12}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
    }

    /// Thinking (with its signature) before the answer "Four.".
    static let thinking = sse([
        ("message_start", #"{"type":"message_start","message":{"id":"msg_03","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":20,"output_tokens":1}}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"2 + 2 "}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"is 4."}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2lnLTE="}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Four."}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
        ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":30}}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])

    /// A web search (server tool call, then its result) between two pieces of text.
    static let serverTool = sse([
        ("message_start", #"{"type":"message_start","message":{"id":"msg_04","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":500,"output_tokens":1}}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Let me look. "}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_9","name":"web_search","input":{}}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"swift 6.3\"}"}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
        ("content_block_start", #"{"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_9","content":[{"type":"web_search_result","title":"Swift","url":"https://swift.example/6.3","encrypted_content":"abc"}]}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":2}"#),
        ("content_block_start", #"{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"Swift 6.3 is out."}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":3}"#),
        ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":80}}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])

    /// The model declines after a few words.
    static let refusal = sse([
        ("message_start", #"{"type":"message_start","message":{"id":"msg_05","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":12,"output_tokens":1}}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I can"}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"output_tokens":3}}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])

    /// A structured answer (the JSON text of `{"city":"Oslo","days":3}`) in three deltas.
    static let structured = sse([
        ("message_start", #"{"type":"message_start","message":{"id":"msg_06","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":150,"output_tokens":1}}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"{\"city\":\"Os"}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo\",\"days\":"}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"3}"}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":14}}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])
}
