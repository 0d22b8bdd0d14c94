/// Builds ``DynamicInstructions`` from instructions, tools, conditionals and other dynamic instructions
/// (Apple 27's `DynamicInstructionsBuilder`).
@resultBuilder
public enum DynamicInstructionsBuilder {
    public static func buildExpression<T: DynamicInstructions>(_ instructions: T) -> T { instructions }

    /// A tool the model may call while this part is present.
    public static func buildExpression<T: Tool>(_ tool: T) -> ToolDynamicInstructions {
        ToolDynamicInstructions(tools: [tool])
    }

    /// Tools the model may call while this part is present.
    public static func buildExpression(_ tools: [any Tool]) -> ToolDynamicInstructions {
        ToolDynamicInstructions(tools: tools)
    }

    public static func buildBlock() -> EmptyDynamicInstructions { EmptyDynamicInstructions() }

    public static func buildBlock<T: DynamicInstructions>(_ content: T) -> T { content }

    public static func buildBlock<each C: DynamicInstructions>(_ content: repeat each C) -> TupleDynamicInstructions<repeat each C> {
        TupleDynamicInstructions(repeat each content)
    }

    public static func buildOptional<C: DynamicInstructions>(_ content: C?) -> C? { content }

    public static func buildEither<T: DynamicInstructions, F: DynamicInstructions>(first: T) -> ConditionalDynamicInstructions<T, F> {
        ConditionalDynamicInstructions(branch: .first(first))
    }

    public static func buildEither<T: DynamicInstructions, F: DynamicInstructions>(second: F) -> ConditionalDynamicInstructions<T, F> {
        ConditionalDynamicInstructions(branch: .second(second))
    }

    public static func buildLimitedAvailability(_ content: some DynamicInstructions) -> AnyDynamicInstructions {
        AnyDynamicInstructions(content)
    }
}

/// No instructions and no tools.
public struct EmptyDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions {
    public init() {}
    public var body: Never { preconditionFailure("EmptyDynamicInstructions has no body") }
    func resolve(into resolved: inout ResolvedInstructions) {}
}

/// Parts listed one after another; they add their segments and tools in order.
public struct TupleDynamicInstructions<each C: DynamicInstructions>: DynamicInstructions, PrimitiveDynamicInstructions {
    let content: (repeat each C)
    public init(_ content: repeat each C) { self.content = (repeat each content) }
    public var body: Never { preconditionFailure("TupleDynamicInstructions has no body") }
    func resolve(into resolved: inout ResolvedInstructions) {
        for part in repeat each content { resolved.add(part) }
    }
}

/// One of two parts, chosen by an `if`/`else` or `switch` in a builder.
public struct ConditionalDynamicInstructions<T: DynamicInstructions, F: DynamicInstructions>: DynamicInstructions, PrimitiveDynamicInstructions {
    enum Branch { case first(T), second(F) }
    let branch: Branch
    public var body: Never { preconditionFailure("ConditionalDynamicInstructions has no body") }
    func resolve(into resolved: inout ResolvedInstructions) {
        switch branch {
        case .first(let t): resolved.add(t)
        case .second(let f): resolved.add(f)
        }
    }
}

/// Tools placed in a builder. (Apple's builder returns an opaque type for them.)
public struct ToolDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions {
    let tools: [any Tool]
    public var body: Never { preconditionFailure("ToolDynamicInstructions has no body") }
    func resolve(into resolved: inout ResolvedInstructions) { resolved.tools += tools }
}

/// Dynamic instructions of any type.
public struct AnyDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions {
    let resolveInto: (inout ResolvedInstructions) -> Void

    public init(_ instructions: some DynamicInstructions) {
        resolveInto = { $0.add(instructions) }
    }

    public init(erasing instructions: some DynamicInstructions) {
        self.init(instructions)
    }

    public var body: Never { preconditionFailure("AnyDynamicInstructions has no body") }
    func resolve(into resolved: inout ResolvedInstructions) { resolveInto(&resolved) }
}
