/// Where a piece of rendered text came from.
public enum JinjaOrigin: Sendable, Hashable {
    /// Written in the template: its literal text and the string literals in its expressions
    /// (and the variables the caller marked as trusted, such as `bos_token`). Only template text
    /// may be tokenized with control-token parsing.
    case template
    /// Taken from the variables: message contents, role names, tool definitions and arguments,
    /// including anything a filter or method derived from them.
    case data
}

/// A maximal piece of rendered text with one origin.
public struct JinjaSegment: Sendable, Hashable {
    public var text: String
    public var origin: JinjaOrigin
    public init(text: String, origin: JinjaOrigin) {
        self.text = text
        self.origin = origin
    }
}

/// The result of ``JinjaTemplate/render(_:options:)``: the text and the same text cut by origin.
public struct JinjaRendering: Sendable, Hashable {
    /// The rendered string, as jinja2 returns it.
    public var text: String
    /// `text` split into consecutive segments of alternating origin; joined they equal `text`.
    public var segments: [JinjaSegment]
}
