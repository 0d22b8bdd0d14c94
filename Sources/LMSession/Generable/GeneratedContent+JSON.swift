import Foundation
import LMGrammar

extension GeneratedContent {
    /// Why text or content could not become the requested value (Apple's 27
    /// `GeneratedContent.ParsingError`).
    ///
    /// Also what a request throws when the model's structured output cannot be decoded (Apple 27's
    /// replacement for the 26 ``LanguageModelSession/GenerationError/decodingFailure(_:)``): a value cut off
    /// before it closed, a value that does not convert to the requested type or does not follow the schema
    /// (a server's), a tool call that does not decode, or a budget too small for the shortest value.
    /// `rawContent` is the model's text so far.
    public struct ParsingError: Error, LocalizedError, CustomDebugStringConvertible, Sendable {
        /// The text or content that could not be read.
        public var rawContent: String
        /// The lower-level error, if any.
        public var underlyingError: (any Error)?
        /// What was wrong and where.
        public var debugDescription: String

        public init(rawContent: String, underlyingError: (any Error)? = nil, debugDescription: String) {
            self.rawContent = rawContent
            self.underlyingError = underlyingError
            self.debugDescription = debugDescription
        }

        public var errorDescription: String? { "The generated content could not be parsed. \(debugDescription)" }
        public var recoverySuggestion: String? { "Retry, or raise maximumResponseTokens." }
    }

    /// Reads JSON text, which may be cut off: a truncated text yields its deepest valid prefix
    /// (a cut string keeps its characters so far, members not yet started are left out) and
    /// `isComplete` is false.
    ///
    /// - Throws: `ParsingError` when the text is not a JSON value or a prefix of one.
    public init(json: String) throws {
        do {
            let value = try JSONValue.parse(json, allowingTruncation: true)
            self.init(value)
        } catch {
            throw ParsingError(rawContent: json, underlyingError: error, debugDescription: "invalid JSON: \(error)")
        }
    }

    init(_ value: JSONValue) {
        switch value {
        case .null:
            self.init(kind: .null)
        case let .bool(b):
            self.init(kind: .bool(b))
        case let .number(text, complete):
            self.init(kind: .number(Double(text) ?? 0), isComplete: complete)
        case let .string(s, complete):
            self.init(kind: .string(s), isComplete: complete)
        case let .array(items, complete):
            self.init(kind: .array(items.map(GeneratedContent.init)), isComplete: complete)
        case let .object(members, complete):
            var properties: [String: GeneratedContent] = [:]
            var order: [String] = []
            for member in members {
                if properties.updateValue(GeneratedContent(member.value), forKey: member.key) == nil { order.append(member.key) }
            }
            self.init(kind: .structure(properties: properties, orderedKeys: order), isComplete: complete)
        }
    }

    /// The content as a JSON value, structure keys in generation order (the inverse of ``init(_:)``).
    var jsonValue: JSONValue {
        switch kind {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let d): .number(GeneratedContent.jsonNumber(d), complete: isComplete)
        case .string(let s): .string(s, complete: isComplete)
        case .array(let items): .array(items.map(\.jsonValue), complete: isComplete)
        case let .structure(properties, orderedKeys):
            .object(orderedKeys.compactMap { key in properties[key].map { JSONMember(key: key, value: $0.jsonValue) } }, complete: isComplete)
        }
    }

    /// The content as compact JSON text, structure keys in generation order.
    public var jsonString: String { jsonValue.compactText }

    /// Integral values print without a fraction; non-finite values (not JSON) print as null.
    static func jsonNumber(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        // Every integer a Double holds exactly (up to 2^53) keeps its integer spelling, which integer grammars accept.
        if n == n.rounded(), abs(n) <= 9_007_199_254_740_992 { return String(Int64(n)) }
        return "\(n)"
    }
}
