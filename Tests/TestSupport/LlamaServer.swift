import Foundation

/// The real llama.cpp server the server-model tests run against (started by `Scripts/llama-server serve`,
/// which prints its base URL).
public enum LlamaServer {
    public struct NotRunning: Error, CustomStringConvertible {
        public var description: String {
            "LMSESSION_LLAMA_SERVER_URL is not set. Start the server with `url=$(Scripts/llama-server serve)` and run the tests with "
                + "LMSESSION_LLAMA_SERVER_URL=$url (or set LMSESSION_SKIP_LLAMA_SERVER=1 to skip these tests)."
        }
    }

    /// Whether the real-server suites run: all but `LMSESSION_SKIP_LLAMA_SERVER=1`.
    public static var enabled: Bool { ProcessInfo.processInfo.environment["LMSESSION_SKIP_LLAMA_SERVER"] != "1" }

    /// The server's base URL (e.g. `http://127.0.0.1:8080`), from `LMSESSION_LLAMA_SERVER_URL`.
    /// - Throws: ``NotRunning`` when it is unset, so the suite fails saying how to start the server.
    public static func baseURL() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["LMSESSION_LLAMA_SERVER_URL"], let url = URL(string: text) else {
            throw NotRunning()
        }
        return url
    }
}
