/// What the model should do for a whole session (Apple's `Instructions`): text and structured values, built
/// from any ``InstructionsRepresentable`` or with an ``InstructionsBuilder`` closure. Instructions are the
/// session's first transcript entry and are rendered as the system turn; the model weighs them over prompts.
///
/// Each component becomes one transcript segment, in order; the model sees text segments joined by newlines
/// and structured values as their JSON.
public struct Instructions: Sendable {
    /// The segments these instructions contribute to its transcript entry, in order.
    package var segments: [Transcript.Segment]

    init(segments: [Transcript.Segment] = []) {
        self.segments = segments
    }

    /// Creates instructions from a representable value (a string, an array of them, a structured value...).
    public init(_ content: some InstructionsRepresentable) {
        self = content.instructionsRepresentation
    }

    /// Creates instructions from the components a builder closure lists.
    /// - Throws: whatever `content` throws.
    public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
        self = try content()
    }

    /// The segments of `component`, read directly when it already is an `Instructions` (its
    /// `instructionsRepresentation` goes through the builder, which would come back here).
    static func segments(of component: some InstructionsRepresentable) -> [Transcript.Segment] {
        if let value = component as? Instructions { return value.segments }
        return component.instructionsRepresentation.segments
    }

    /// The instructions' text as the model sees it: segments joined by newlines.
    var text: String { segments.descriptionText }
}

/// A type that can be used as instructions (Apple's `InstructionsRepresentable`).
public protocol InstructionsRepresentable {
    /// This value as instructions.
    @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

extension Instructions: InstructionsRepresentable {
    public var instructionsRepresentation: Instructions {
        return self  // `return` turns off the builder, which would recurse here
    }
}

extension String: InstructionsRepresentable {
    /// One text segment holding the string.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.text(Transcript.TextSegment(content: self))])
    }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
    /// The elements' segments, in order.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: flatMap { Instructions.segments(of: $0) })
    }
}

/// A result builder that makes ``Instructions`` from the components of a closure (Apple's `InstructionsBuilder`).
@resultBuilder
public struct InstructionsBuilder {
    public static func buildBlock<each P: InstructionsRepresentable>(_ components: repeat each P) -> Instructions {
        var segments: [Transcript.Segment] = []
        for component in repeat each components {
            segments += Instructions.segments(of: component)
        }
        return Instructions(segments: segments)
    }

    public static func buildArray(_ instructions: [some InstructionsRepresentable]) -> Instructions {
        Instructions(segments: Instructions.segments(of: instructions))
    }

    public static func buildEither(first component: some InstructionsRepresentable) -> Instructions {
        Instructions(segments: Instructions.segments(of: component))
    }

    public static func buildEither(second component: some InstructionsRepresentable) -> Instructions {
        Instructions(segments: Instructions.segments(of: component))
    }

    /// An `if` without `else` whose condition is false contributes nothing.
    public static func buildOptional(_ component: Instructions?) -> Instructions {
        component ?? Instructions()
    }

    public static func buildLimitedAvailability(_ instructions: some InstructionsRepresentable) -> Instructions {
        Instructions(segments: Instructions.segments(of: instructions))
    }

    @_disfavoredOverload
    public static func buildExpression<P: InstructionsRepresentable>(_ expression: P) -> P {
        expression
    }

    public static func buildExpression(_ expression: Instructions) -> Instructions {
        expression
    }

    @available(*, unavailable, message: "Only `Instructions` and `InstructionsRepresentable` are supported.")
    public static func buildExpression<T>(_ expression: T) -> Instructions {
        Instructions()
    }
}
