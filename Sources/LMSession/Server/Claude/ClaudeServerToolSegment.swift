import LMGrammar

/// A server tool's call or result (`server_tool_use`, `web_search_tool_result`, `web_fetch_tool_result`,
/// `code_execution_tool_result`, ...) as a segment of a response entry: a structured segment whose source is
/// `claude.<block type>` and whose content is the block as the API sent it. It sits between the response's text
/// segments where the model used the tool, survives the transcript's JSON, and is sent back verbatim on
/// later turns (results carry encrypted content the API checks).
enum ClaudeServerToolSegment {
    static let sourcePrefix = "claude."

    /// The segment for `block`, if it is server tool activity.
    static func segment(for block: JSONValue) -> Transcript.Segment? {
        guard let type = block["type"]?.stringValue, type == "server_tool_use" || type.hasSuffix("_tool_result"),
              let content = try? GeneratedContent(json: block.compactText) else { return nil }
        return .structure(Transcript.StructuredSegment(source: sourcePrefix + type, content: content))
    }

    /// The block a segment holds, if it is one of these segments.
    static func block(of segment: Transcript.StructuredSegment) -> JSONValue? {
        guard segment.source.hasPrefix(sourcePrefix) else { return nil }
        return try? JSONValue.parse(segment.content.jsonString)
    }
}

extension Transcript.StructuredSegment {
    /// For a segment that records Claude's server tool activity (``ClaudeServerTool``): the API's block type
    /// (`server_tool_use`, `web_search_tool_result`, ...); its ``content`` is the block. Nil for other segments.
    public var claudeServerToolBlockType: String? {
        source.hasPrefix(ClaudeServerToolSegment.sourcePrefix) ? String(source.dropFirst(ClaudeServerToolSegment.sourcePrefix.count)) : nil
    }
}
