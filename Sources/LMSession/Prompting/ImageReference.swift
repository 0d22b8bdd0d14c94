import Foundation

/// A reference to an image attachment of the session's transcript, by its label (Apple 27's `ImageReference`).
///
/// Use it as a property of a tool's `Arguments` (or of any ``Generable`` value) so the model can name an image the
/// user attached; the tool resolves it against the history:
///
/// ```swift
/// struct DescribeImage: Tool {
///     @SessionProperty(\.history) var history
///     struct Arguments: Generable { var image: ImageReference /* … */ }
///     func call(arguments: Arguments) async throws -> String {
///         guard let image = arguments.image.resolved(in: history) else { return "No such image." }
///         …
///     }
/// }
/// ```
///
/// The model generates `{"attachmentLabel": "<label>"}`; the schema does not restrict the label to the labels in
/// the transcript. Resolution finds the most recent attachment segment with that label. `Codable` (not in
/// Apple's API) so that a ``GenerableSchema`` type can hold one.
public struct ImageReference: Generable, Sendable, Equatable, Codable {
    /// The label of the referenced image (``Attachment/label(_:)``).
    public let attachmentLabel: String

    public init(attachmentLabel: String) {
        self.attachmentLabel = attachmentLabel
    }

    /// The image attachment labelled ``attachmentLabel`` in `entries` (the latest when several are), or nil
    /// (27.1's spelling).
    public func resolved(in entries: some Sequence<Transcript.Entry>) -> Transcript.ImageAttachment? {
        var found: Transcript.ImageAttachment?
        for entry in entries {
            for case .attachment(let segment) in entry.segments where segment.label == attachmentLabel {
                if case .image(let image) = segment.content { found = image }
            }
        }
        return found
    }

    /// The image attachment labelled ``attachmentLabel`` in `transcript`, or nil (the 27.0 beta's spelling).
    public func resolve(in transcript: Transcript) -> Transcript.ImageAttachment? {
        resolved(in: transcript)
    }

    // MARK: Generable (what `@Generable` would write)

    public static var generationSchema: GenerationSchema {
        GenerationSchema(type: Self.self, description: "A reference to an image attached to the conversation, by its label.", properties: [
            GenerationSchema.Property(name: "attachmentLabel", description: "The label of the image.", type: String.self),
        ])
    }

    public var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["attachmentLabel": attachmentLabel])
    }

    public init(_ content: GeneratedContent) throws {
        attachmentLabel = try content.value(forProperty: "attachmentLabel")
    }

    /// An image reference being generated.
    public struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent, Equatable, Sendable {
        public var id: GenerationID
        public var attachmentLabel: String?

        public init(_ content: GeneratedContent) throws {
            id = content.id ?? GenerationID()
            attachmentLabel = try content.value(forProperty: "attachmentLabel")
        }
    }
}
