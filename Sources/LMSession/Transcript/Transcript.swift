import Foundation

/// A linear history of the entries of a session: instructions, prompts, tool calls, tool outputs and
/// responses, in the order they happened (Apple's `Transcript`).
///
/// A session's transcript starts with its `.instructions` entry when it has instructions; every successful
/// turn appends `.prompt`, then zero or more `.toolCalls`/`.toolOutput` pairs, then `.response`. A failed or
/// cancelled turn appends nothing (see ``TranscriptErrorHandlingPolicy``). Mutable as in Apple's 27
/// (`Transcript+Mutation.swift`). Codable in Apple's `FoundationModels.Transcript` v1.1 JSON shape
/// (see `Transcript+Codable.swift`).
public struct Transcript: Sendable, Equatable, RandomAccessCollection {
    public typealias Index = Int

    var entries: [Entry]

    /// Creates a transcript from `entries`, in order.
    public init(entries: some Sequence<Entry> = []) {
        self.entries = Array(entries)
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }

    /// The entry at `index`; traps when `index` is out of bounds, as every collection does.
    public subscript(index: Int) -> Entry {
        get { entries[index] }
        set { entries[index] = newValue }
    }
}

extension Transcript {
    /// One step of the interaction.
    public enum Entry: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// What the model is told to do for the whole session, and the tools it may call.
        case instructions(Instructions)
        /// A request from the user, with the options and response format of that turn.
        case prompt(Prompt)
        /// Tools the model decided to call.
        case toolCalls(ToolCalls)
        /// What one tool call returned.
        case toolOutput(ToolOutput)
        /// The model's answer.
        case response(Response)
        /// What the model reasoned before its answer or tool calls (Apple 27; see ``Transcript/Reasoning``).
        case reasoning(Reasoning)

        /// The id of the wrapped payload.
        public var id: String {
            switch self {
            case .instructions(let e): e.id
            case .prompt(let e): e.id
            case .toolCalls(let e): e.id
            case .toolOutput(let e): e.id
            case .response(let e): e.id
            case .reasoning(let e): e.id
            }
        }

        public var description: String {
            switch self {
            case .instructions(let e): e.description
            case .prompt(let e): e.description
            case .toolCalls(let e): e.description
            case .toolOutput(let e): e.description
            case .response(let e): e.description
            case .reasoning(let e): e.description
            }
        }

        /// Whether this entry is tool calls or a tool's output.
        var isToolStep: Bool {
            switch self {
            case .toolCalls, .toolOutput: true
            default: false
            }
        }
    }

    /// A piece of content inside an entry.
    public enum Segment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// Plain text.
        case text(TextSegment)
        /// A structured value (a `Generable` value's `GeneratedContent`).
        case structure(StructuredSegment)
        /// An attachment, such as an image (Apple 27; see ``Transcript/AttachmentSegment``).
        case attachment(AttachmentSegment)

        public var id: String {
            switch self {
            case .text(let s): s.id
            case .structure(let s): s.id
            case .attachment(let s): s.id
            }
        }

        public var description: String {
            switch self {
            case .text(let s): s.description
            case .structure(let s): s.description
            case .attachment(let s): s.description
            }
        }
    }

    /// A text segment.
    public struct TextSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var content: String

        public init(id: String = UUID().uuidString, content: String) {
            self.id = id
            self.content = content
        }

        public var description: String { content }
    }

    /// A structured segment: a value generated for (or given as) the schema named `source`.
    public struct StructuredSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The name of the schema or type the content belongs to (Apple's 27 SDK calls it `schemaName`).
        public var source: String
        public var content: GeneratedContent

        public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
            self.id = id
            self.source = source
            self.content = content
        }

        public var description: String { content.jsonString }
    }
}
