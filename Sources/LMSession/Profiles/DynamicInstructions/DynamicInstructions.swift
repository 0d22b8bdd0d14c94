/// Instructions and tools worked out again before every model call (Apple 27's `DynamicInstructions`).
///
/// A type lists its parts in ``body`` with the ``DynamicInstructionsBuilder``: ``Instructions``, tools,
/// `if`/`else`, optionals, arrays of tools and other dynamic instructions. Before each model call of a request
/// (the first one and each one after a tool round) the session evaluates `body` and sends what it gives:
/// the instructions' segments in order, and the tools, which are the tools the model may call in that call.
///
/// The rendered prompt is the instructions, then the tool definitions, then the transcript, and a model
/// with a KV cache re-uses it up to the first changed token. Put what changes last in `body`: a
/// condition toggled at the top changes every token after it and the whole prompt is processed again.
public protocol DynamicInstructions {
    /// The parts, as a builder lists them.
    associatedtype Body: DynamicInstructions
    /// Evaluated before every model call.
    @DynamicInstructionsBuilder var body: Body { get }
}

/// What dynamic instructions evaluate to for one model call.
struct ResolvedInstructions {
    var segments: [Transcript.Segment] = []
    var tools: [any Tool] = []

    /// `instructions` evaluated: built-in parts add themselves, others are replaced by their `body`.
    static func resolve(_ instructions: some DynamicInstructions) -> ResolvedInstructions {
        var resolved = ResolvedInstructions()
        resolved.add(instructions)
        return resolved
    }

    mutating func add(_ instructions: some DynamicInstructions) {
        if let primitive = instructions as? any PrimitiveDynamicInstructions {
            primitive.resolve(into: &self)
        } else {
            add(instructions.body)
        }
    }

    /// The transcript entry these instructions become: segments, and the definitions of the tools that show
    /// their schema in the instructions.
    var entry: Transcript.Instructions {
        Transcript.Instructions(segments: segments,
                                toolDefinitions: tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) })
    }
}

/// The built-in parts, which add themselves instead of having a body.
protocol PrimitiveDynamicInstructions {
    func resolve(into resolved: inout ResolvedInstructions)
}

extension Never: DynamicInstructions {
    public var body: Never { self }
}

extension Instructions: DynamicInstructions, PrimitiveDynamicInstructions {
    /// Instructions have no body: they are added as they are.
    public var body: Never { preconditionFailure("Instructions has no body") }
    func resolve(into resolved: inout ResolvedInstructions) { resolved.segments += segments }
}

extension Optional: DynamicInstructions, PrimitiveDynamicInstructions where Wrapped: DynamicInstructions {
    public var body: Never { preconditionFailure("Optional has no body") }
    func resolve(into resolved: inout ResolvedInstructions) {
        if let self { resolved.add(self) }
    }
}
