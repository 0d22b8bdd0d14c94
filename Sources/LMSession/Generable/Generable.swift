/// A type that can be built from model output.
///
/// Apple FoundationModels' protocol of the same name; hand-written conformances in the shape of
/// the `@Generable` macro's expansion compile unchanged.
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
    /// Builds a value from generated content.
    /// - Throws: `GeneratedContent.ParsingError` when the content has the wrong kind or misses a
    ///   required property.
    init(_ content: GeneratedContent) throws
}

/// A type that can describe itself as generated content (used to put values into prompts and
/// transcripts).
// Apple declares `InstructionsRepresentable` and `PromptRepresentable` as its parents; the session
// module's `Prompting/ConvertibleToGeneratedContent+Prompt.swift` gives the default representations.
public protocol ConvertibleToGeneratedContent: InstructionsRepresentable, PromptRepresentable {
    /// This value as generated content; structures keep their properties in declaration order.
    var generatedContent: GeneratedContent { get }
}

/// A type the model can generate: it has a schema, converts from and to generated content, and
/// has a partially generated form that streaming fills in.
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
    /// The form of this type while it is being generated; every property of a structure is
    /// optional there. Defaults to `Self`.
    associatedtype PartiallyGenerated: ConvertibleFromGeneratedContent = Self

    /// The schema the model's output is constrained to.
    static var generationSchema: GenerationSchema { get }
}

extension Generable {
    /// This complete value in its partially generated form.
    ///
    /// Traps if `PartiallyGenerated(generatedContent)` throws: a conformance whose partial form
    /// cannot hold its own complete value is a programming error.
    public func asPartiallyGenerated() -> PartiallyGenerated {
        if let same = self as? PartiallyGenerated { return same }
        do {
            return try PartiallyGenerated(generatedContent)
        } catch {
            preconditionFailure("\(Self.self).PartiallyGenerated cannot hold a complete value: \(error)")
        }
    }
}

extension Optional where Wrapped: Generable {
    public typealias PartiallyGenerated = Wrapped.PartiallyGenerated
}

extension Optional: ConvertibleToGeneratedContent where Wrapped: ConvertibleToGeneratedContent {
    /// The wrapped value's content, or `GeneratedContent.null`.
    public var generatedContent: GeneratedContent {
        switch self {
        case .none: GeneratedContent(kind: .null)
        case let .some(value): value.generatedContent
        }
    }
}
