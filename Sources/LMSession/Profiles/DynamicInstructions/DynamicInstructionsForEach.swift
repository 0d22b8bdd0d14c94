/// Dynamic instructions made for each element of a collection (Apple 27's `DynamicInstructionsForEach`,
/// written `ForEach` in the `body` of a ``DynamicInstructions`` type):
///
/// ```swift
/// var body: some DynamicInstructions {
///     Instructions("You help with these projects:")
///     ForEach(projects) { project in
///         Instructions("- \(project.name): \(project.summary)")
///         if project.hasTracker { TrackerTool(project: project) }
///     }
/// }
/// ```
///
/// Each element's content adds its instructions and tools in the collection's order, every time `body` is
/// evaluated. `id` identifies elements as in Apple's signature; nothing here keeps per-element state, so it is
/// not used.
public struct DynamicInstructionsForEach<Data: RandomAccessCollection, ID: Hashable, Content: DynamicInstructions>:
    DynamicInstructions, PrimitiveDynamicInstructions {
    let data: Data
    let content: (Data.Element) -> Content

    /// Content for each element of `data`, elements told apart by the property at `id`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>,
                @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }

    /// Content for each element of `data`, elements told apart by their `id`.
    public init(_ data: Data, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content)
        where Data.Element: Identifiable, ID == Data.Element.ID {
        self.init(data, id: \.id, content: content)
    }

    public var body: Never { preconditionFailure("DynamicInstructionsForEach has no body") }

    func resolve(into resolved: inout ResolvedInstructions) {
        for element in data { resolved.add(content(element)) }
    }
}

extension DynamicInstructions {
    /// ``DynamicInstructionsForEach``, as Apple spells it in a `body`.
    public typealias ForEach = DynamicInstructionsForEach
}
