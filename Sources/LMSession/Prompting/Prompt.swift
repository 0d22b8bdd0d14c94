/// A prompt from the user to the model (Apple's `Prompt`): text and structured values, built from any
/// ``PromptRepresentable`` or with a ``PromptBuilder`` closure.
///
/// Each component becomes one transcript segment, in order; the model sees text segments joined by newlines
/// and structured values as their JSON.
public struct Prompt: Sendable {
    /// The segments this prompt contributes to its transcript entry, in order.
    package var segments: [Transcript.Segment]

    init(segments: [Transcript.Segment] = []) {
        self.segments = segments
    }

    /// Creates a prompt from a representable value (a string, an array of them, a structured value...).
    public init(_ content: some PromptRepresentable) {
        self = content.promptRepresentation
    }

    /// Creates a prompt from the components a builder closure lists.
    /// - Throws: whatever `content` throws.
    public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
        self = try content()
    }

    /// The segments of `component`, read directly when it already is a `Prompt` (its `promptRepresentation` goes through
    /// the builder, which would come back here).
    static func segments(of component: some PromptRepresentable) -> [Transcript.Segment] {
        if let value = component as? Prompt { return value.segments }
        return component.promptRepresentation.segments
    }

    /// The prompt's text as the model sees it: segments joined by newlines.
    var text: String { segments.descriptionText }
}

/// A type that can be used as a prompt (Apple's `PromptRepresentable`).
public protocol PromptRepresentable {
    /// This value as a prompt.
    @PromptBuilder var promptRepresentation: Prompt { get }
}

extension Prompt: PromptRepresentable {
    public var promptRepresentation: Prompt {
        return self  // `return` turns off the builder, which would recurse here
    }
}

extension String: PromptRepresentable {
    /// One text segment holding the string.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.text(Transcript.TextSegment(content: self))])
    }
}

extension Array: PromptRepresentable where Element: PromptRepresentable {
    /// The elements' segments, in order.
    public var promptRepresentation: Prompt {
        return Prompt(segments: flatMap { Prompt.segments(of: $0) })
    }
}

/// A `Result` whose success and failure are both representable is represented by the one it holds (26.4).
extension Result: PromptRepresentable where Success: PromptRepresentable, Failure: PromptRepresentable {
    public var promptRepresentation: Prompt {
        switch self {
        case .success(let value): return Prompt(segments: Prompt.segments(of: value))
        case .failure(let error): return Prompt(segments: Prompt.segments(of: error))
        }
    }
}

/// A result builder that makes a ``Prompt`` from the components of a closure (Apple's `PromptBuilder`).
@resultBuilder
public struct PromptBuilder {
    public static func buildBlock<each P: PromptRepresentable>(_ components: repeat each P) -> Prompt {
        var segments: [Transcript.Segment] = []
        for component in repeat each components {
            segments += Prompt.segments(of: component)
        }
        return Prompt(segments: segments)
    }

    public static func buildArray(_ prompts: [some PromptRepresentable]) -> Prompt {
        Prompt(segments: prompts.flatMap { Prompt.segments(of: $0) })
    }

    public static func buildEither(first component: some PromptRepresentable) -> Prompt {
        Prompt(segments: Prompt.segments(of: component))
    }

    public static func buildEither(second component: some PromptRepresentable) -> Prompt {
        Prompt(segments: Prompt.segments(of: component))
    }

    /// An `if` without `else` whose condition is false contributes nothing.
    public static func buildOptional(_ component: Prompt?) -> Prompt {
        component ?? Prompt()
    }

    public static func buildLimitedAvailability(_ prompt: some PromptRepresentable) -> Prompt {
        Prompt(segments: Prompt.segments(of: prompt))
    }

    @_disfavoredOverload
    public static func buildExpression<P: PromptRepresentable>(_ expression: P) -> P {
        expression
    }

    public static func buildExpression(_ expression: Prompt) -> Prompt {
        expression
    }

    @available(*, unavailable, message: "Only `Prompt` and `PromptRepresentable` are supported.")
    public static func buildExpression<T>(_ expression: T) -> Prompt {
        Prompt()
    }
}
