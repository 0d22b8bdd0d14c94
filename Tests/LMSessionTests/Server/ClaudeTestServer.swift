import Foundation
import LMSession
import TestSupport

/// Where the Claude real-server tests find llama.cpp's llama-server (its `/v1/messages` speaks the Messages API),
/// and the settings they share.
enum ClaudeTestServer {
    /// `LMSESSION_SKIP_LLAMA_SERVER=1` skips the real-server suites; without it a missing server fails them.
    static let skip = ProcessInfo.processInfo.environment["LMSESSION_SKIP_LLAMA_SERVER"] == "1"

    struct NotRunning: Error, CustomStringConvertible {
        var description: String {
            "LMSESSION_LLAMA_SERVER_URL is not set: start llama-server with `Scripts/llama-server serve` and export the base URL it prints as LMSESSION_LLAMA_SERVER_URL (or set LMSESSION_SKIP_LLAMA_SERVER=1 to skip the real-server tests)."
        }
    }

    /// The server's base URL.
    /// - Throws: ``NotRunning`` when `LMSESSION_LLAMA_SERVER_URL` is unset or not a URL.
    static func url() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["LMSESSION_LLAMA_SERVER_URL"], !text.isEmpty, let url = URL(string: text) else {
            throw NotRunning()
        }
        return url
    }

    /// A key that must never show up anywhere but the `x-api-key` header.
    static let key = "sk-ant-api03-TEST-SECRET-5f3a9c"

    /// SmolLM2 as llama-server serves it: takes sampling parameters, nothing else; 4,096 tokens per slot.
    static let smol = ClaudeModel(id: "smollm2-135m", capabilities: .init(samplingParams: true), contextSize: 4096)
    /// The same model declared with structured output (for recorded streams: llama-server ignores `output_config`).
    static let structured = ClaudeModel(id: "smollm2-135m", capabilities: .init(samplingParams: true, structuredOutput: true), contextSize: 4096)

    static func model(_ name: ClaudeModel = smol, proxy: FaultProxy, timeout: TimeInterval = 120, key: String = key) -> ClaudeLanguageModel {
        ClaudeLanguageModel(name: name, auth: .apiKey(key), baseURL: proxy.baseURL, timeout: timeout)
    }

    /// Greedy, short answers.
    static func options(_ tokens: Int) -> GenerationOptions { GenerationOptions(samplingMode: .greedy, maximumResponseTokens: tokens) }

    /// An SSE body as the proxy's chunks, cut in `pieces` parts (so the client reads it in several reads).
    static func chunks(_ body: String, pieces: Int = 3) -> [Data] {
        let bytes = Array(body.utf8)
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        return stride(from: 0, to: bytes.count, by: size).map { Data(bytes[$0..<min($0 + size, bytes.count)]) }
    }
}

/// A structured answer for the structured-output tests.
struct ClaudeTrip: GenerableSchema, Equatable {
    var city: String
    var days: Int
}
