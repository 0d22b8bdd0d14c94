import Foundation
import LMImage

/// What an ``Attachment`` can hold (Apple 27's `AttachmentContent`); ``ImageAttachmentContent`` is the one kind.
public protocol AttachmentContent: Sendable {
    /// The transcript form of the content.
    var transcriptAttachment: Transcript.Attachment { get }
}

/// An image for an ``Attachment`` (Apple 27's `ImageAttachmentContent`), as an encoded image file.
public struct ImageAttachmentContent: AttachmentContent, Equatable {
    /// The image as the transcript keeps it.
    public var image: Transcript.ImageAttachment

    public var transcriptAttachment: Transcript.Attachment { .image(image) }
}

/// Something attached to a prompt or instructions, such as an image (Apple 27's `Attachment`).
///
/// Use it in a builder like text: `session.respond(generating: Label.self) { "Classify this image."; Attachment(imageURL: url) }`.
/// It becomes one ``Transcript/AttachmentSegment``. A request sends it to models with the `.vision` capability
/// (``OpenAICompatibleLanguageModel`` when configured with it, ``ClaudeLanguageModel`` for models with image input)
/// and the local model loaded with an `mmproj` file (``SystemLanguageModel/init(fileURL:mmprojURL:contextSize:threads:useCase:guardrails:)``),
/// and throws ``LanguageModelError/unsupportedCapability(_:)`` (`.vision`) on the others, the text-only local model included,
/// before any work.
public struct Attachment<Content: AttachmentContent>: Sendable {
    /// What is attached.
    public var content: Content
    /// The name given with ``label(_:)``; nil when none.
    public var attachmentLabel: String?

    /// Attaches `content`.
    public init(_ content: Content) {
        self.content = content
        self.attachmentLabel = nil
    }

    /// This attachment named `label`, so a prompt or a generated `ImageReference` can refer to it.
    public func label(_ label: String) -> Attachment {
        var copy = self
        copy.attachmentLabel = label
        return copy
    }

    /// The attachment as a transcript segment.
    var segment: Transcript.Segment {
        .attachment(Transcript.AttachmentSegment(content: content.transcriptAttachment, label: attachmentLabel))
    }
}

extension Attachment where Content == ImageAttachmentContent {
    /// An image read from the file at `imageURL` when the request runs, shown turned by `orientation` (Apple 27's
    /// `init(imageURL:orientation:)`); the MIME type from its extension, or from its bytes.
    public init(imageURL: URL, orientation: ImageOrientation = .up) {
        self.init(ImageAttachmentContent(image: Transcript.ImageAttachment(imageURL: imageURL, orientation: orientation)))
    }

    /// An image from encoded bytes (PNG, JPEG, GIF, WebP...) with MIME type `contentType`, or the one the bytes'
    /// signature tells when nil, shown turned by `orientation` (ours: Linux has no `CGImage` to take; Apple 27 takes
    /// `orientation:` with a `CGImage`).
    public init(imageData: Data, contentType: String? = nil, orientation: ImageOrientation = .up) {
        self.init(ImageAttachmentContent(image: Transcript.ImageAttachment(data: imageData, contentType: contentType, orientation: orientation)))
    }

    /// An image from raw 8-bit pixels `[height, width, format.channels]`, top row first, shown turned by
    /// `orientation` (ours: Linux has no `CGImage` or `CVPixelBuffer`); see
    /// ``Transcript/ImageAttachment/init(pixels:width:height:format:orientation:)``.
    /// - Throws: ``Transcript/ImageAttachment/LoadError/invalidPixels(_:)`` when the sizes and the bytes disagree.
    public init(pixels: [UInt8], width: Int, height: Int, format: Transcript.ImageAttachment.PixelFormat = .rgb,
                orientation: ImageOrientation = .up) throws(Transcript.ImageAttachment.LoadError) {
        self.init(ImageAttachmentContent(image: try Transcript.ImageAttachment(pixels: pixels, width: width, height: height,
                                                                               format: format, orientation: orientation)))
    }
}

extension Attachment: PromptRepresentable {
    /// One attachment segment.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [segment])
    }
}

extension Attachment: InstructionsRepresentable {
    /// One attachment segment.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [segment])
    }
}
