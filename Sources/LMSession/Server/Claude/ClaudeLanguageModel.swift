import Foundation

/// Claude, through the Anthropic Messages API (`POST {baseURL}/v1/messages`, streamed), as a
/// ``LanguageModel`` for ``LanguageModelSession`` (the published "Claude for Foundation Models" package's
/// `ClaudeLanguageModel`, on Linux).
///
/// ```swift
/// let model = ClaudeLanguageModel(name: .sonnet4_6, auth: .apiKey(key))
/// let session = LanguageModelSession(model: model)
/// let answer = try await session.respond(to: "Name three moons of Jupiter.")
/// ```
///
/// Streaming, tools (the session runs them between model calls), structured output (`output_config.format`,
/// when the model has it) and server tools work as with any model. Thinking blocks become
/// ``Transcript/Reasoning`` entries, never part of the response; server tool calls and results become
/// segments of the response entry (``Transcript/StructuredSegment/claudeServerToolBlockType``).
///
/// Differs from the published package: no App Attest (an Apple-only service: ``AuthMode`` has no
/// `.appAttest`), no fallback models or user profiles, the auth type is nested (``AuthMode``; a top-level
/// `AuthMode` would be ambiguous next to other providers), ``ClaudeModel`` carries a context size, and
/// adaptive thinking is requested only when a request names a reasoning level (``ContextOptions``).
///
/// The API key is sent only as the `x-api-key` header; it never appears in errors, descriptions, `dump`
/// output or the transcript.
public struct ClaudeLanguageModel: Sendable {
    /// The model and what its requests may carry.
    public let model: ClaudeModel
    /// Where requests go: `{baseURL}/v1/messages`.
    public let baseURL: URL
    /// Seconds one model call may take in all: connecting, the first byte and the whole stream (each request
    /// of a paused turn has its own). Past it the call fails with ``LanguageModelError/timeout(_:)``. Raise it
    /// for long answers: a large `maximumResponseTokens` streams for minutes.
    public let timeout: TimeInterval
    /// Tools that run on Anthropic's servers, sent with every request.
    public let serverTools: Set<ClaudeServerTool>
    /// The effort sent as `output_config.effort` on every request; nil sends none (the API's default).
    public let fixedEffort: ClaudeModel.Effort?
    /// How requests authenticate.
    let auth: AuthMode
    /// Whether the server was reachable at the last request (drives ``availability``); shared by copies.
    let reachability = ServerReachability()

    /// The Anthropic API.
    public static let defaultBaseURL = URL(string: "https://api.anthropic.com")!

    /// How requests authenticate.
    public enum AuthMode: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// Sends `key` as the `x-api-key` header. Fine for development and servers; a key shipped in an app
        /// can be extracted from it.
        case apiKey(String)
        /// Sends no key, only `headers`, to a relay at `baseURL` that adds the credential itself.
        case proxied(headers: [String: String])

        public var description: String {
            switch self {
            case .apiKey(let key): key.isEmpty ? "apiKey(<empty>)" : "apiKey(<redacted>)"
            case .proxied(let headers): "proxied(headers: \(headers.keys.sorted()))"
            }
        }
        public var debugDescription: String { description }
        /// What `dump` and `Mirror` show: the case, never the key or header values.
        public var customMirror: Mirror { Mirror(self, children: ["auth": description], displayStyle: .enum) }
    }

    /// - Parameters:
    ///   - name: the model (a constant such as `.sonnet4_6`, or ``ClaudeModel/init(id:capabilities:contextSize:)``).
    ///   - auth: ``AuthMode/apiKey(_:)``, or ``AuthMode/proxied(headers:)`` with a relay's `baseURL`.
    ///   - fixedEffort: sent as `output_config.effort` on every request. Precondition: one of the model's
    ///     ``ClaudeModel/Capabilities/effortLevels`` (a programmer error traps).
    ///   - serverTools: tools run by Anthropic's servers (web search, web fetch, code execution).
    ///   - baseURL: the API's origin; requests go to `{baseURL}/v1/messages`.
    ///   - timeout: seconds one model call may take in all; 60 by default.
    public init(name: ClaudeModel, auth: AuthMode, fixedEffort: ClaudeModel.Effort? = nil,
                serverTools: Set<ClaudeServerTool> = [], baseURL: URL = ClaudeLanguageModel.defaultBaseURL,
                timeout: TimeInterval = 60) {
        if let fixedEffort {
            precondition(name.capabilities.effortLevels.contains(fixedEffort),
                         "\(name.id) does not accept effort '\(fixedEffort.rawValue)'; it accepts \(name.capabilities.effortLevels.map(\.rawValue).sorted())")
        }
        self.model = name
        self.auth = auth
        self.fixedEffort = fixedEffort
        self.serverTools = serverTools
        self.baseURL = baseURL
        self.timeout = timeout
    }
}

extension ClaudeLanguageModel {
    /// Does nothing and never throws: kept so code written for the published package compiles. There it runs
    /// App Attest's first-run device attestation, an Apple-only service that ``AuthMode`` does not offer here.
    public func authenticateIfNeeded() async throws {}
}

extension ClaudeLanguageModel: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "ClaudeLanguageModel(\(model.id), auth: \(auth), baseURL: \(baseURL.absoluteString), timeout: \(timeout)s)"
    }

    /// What `dump` shows: every setting, with the credential redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["model": model, "auth": auth.description, "fixedEffort": fixedEffort as Any,
                                "serverTools": serverTools, "baseURL": baseURL, "timeout": timeout], displayStyle: .struct)
    }
}
