import LMGrammar

/// A tool that runs on Anthropic's servers inside one model call (web search, web fetch, code
/// execution): configured on the model, not on the session, and never called by the session
/// (the session's `tools` run on this machine).
public enum ClaudeServerTool: Sendable, Hashable {
    /// Searches the web; `maxUses` caps the searches per request.
    case webSearch(domains: DomainFilter = .unrestricted, maxUses: Int? = nil)
    /// Fetches and reads a URL; `maxUses` caps the fetches per request.
    case webFetch(domains: DomainFilter = .unrestricted, maxUses: Int? = nil)
    /// Runs code in Anthropic's sandbox.
    case codeExecution

    /// Which domains the web tools may reach: an allowlist or a blocklist (the API rejects both at once).
    public enum DomainFilter: Sendable, Hashable {
        case unrestricted
        case allowing([String])
        case blocking([String])
    }

    /// The tool's name on the wire, in the request and in the model's `server_tool_use` blocks.
    var name: String {
        switch self {
        case .webSearch: "web_search"
        case .webFetch: "web_fetch"
        case .codeExecution: "code_execution"
        }
    }

    /// The `anthropic-beta` value the tool needs, if any.
    var betaHeader: String? {
        switch self {
        case .webSearch: nil
        case .webFetch: "web-fetch-2025-09-10"
        case .codeExecution: "code-execution-2025-08-25"
        }
    }

    /// The tool's entry in `tools`, or nil when it cannot be sent: an empty allowlist permits no domain,
    /// and the wire has no way to say so, so the tool is left out rather than sent unrestricted.
    var definition: JSONValue? {
        var members: [JSONMember]
        let filter: DomainFilter
        let maxUses: Int?
        switch self {
        case let .webSearch(domains, uses):
            members = [.init(key: "type", value: .text("web_search_20250305"))]
            (filter, maxUses) = (domains, uses)
        case let .webFetch(domains, uses):
            members = [.init(key: "type", value: .text("web_fetch_20250910"))]
            (filter, maxUses) = (domains, uses)
        case .codeExecution:
            return .members([.init(key: "type", value: .text("code_execution_20250825")), .init(key: "name", value: .text(name))])
        }
        members.append(.init(key: "name", value: .text(name)))
        switch filter {
        case .unrestricted: break
        case .allowing(let domains):
            if domains.isEmpty { return nil }
            members.append(.init(key: "allowed_domains", value: .items(domains.map(JSONValue.text))))
        case .blocking(let domains):
            if !domains.isEmpty { members.append(.init(key: "blocked_domains", value: .items(domains.map(JSONValue.text)))) }
        }
        if let maxUses { members.append(.init(key: "max_uses", value: .integer(maxUses))) }
        return .members(members)
    }
}
