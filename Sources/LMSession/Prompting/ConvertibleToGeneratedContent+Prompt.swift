extension ConvertibleToGeneratedContent {
    /// This value as one structured segment named after its type.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.structure(Transcript.StructuredSegment(source: String(describing: Self.self), content: generatedContent))])
    }

    /// This value as one structured segment named after its type.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.structure(Transcript.StructuredSegment(source: String(describing: Self.self), content: generatedContent))])
    }
}

/// An optional value is its wrapped value's content, or `null` (Apple's conformance).
extension Optional: InstructionsRepresentable, PromptRepresentable where Wrapped: ConvertibleToGeneratedContent {}
