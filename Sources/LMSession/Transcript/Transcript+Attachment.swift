import Foundation

// Apple 27's attachment segments (`Transcript.AttachmentSegment`, `.Attachment`, `.ImageAttachment`). Apple's image
// attachment holds a `CGImage`, `CIImage` or `CVPixelBuffer`, which do not exist on Linux; here it holds an encoded
// image file (its bytes and MIME type), made from a file URL or from `Data`. See docs/differences.md, "Attachments".

extension Transcript {
    /// A segment holding an attachment (an image), with an optional label the prompt can refer to (Apple 27).
    public struct AttachmentSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// What is attached.
        public var content: Attachment
        /// A name for the attachment (Apple's `ImageReference` names an image by it); nil when not given.
        public var label: String?

        public init(id: String = UUID().uuidString, content: Attachment, label: String? = nil) {
            self.id = id
            self.content = content
            self.label = label
        }

        /// `[image image/png, 68 bytes: "cat"]`: how the attachment appears in a transcript's text (a text-only
        /// model never sees it: a request with one throws first).
        public var description: String {
            switch content {
            case .image(let image):
                let size = image.data.map { ", \($0.count) bytes" } ?? ""
                let turn = image.orientation == .up ? "" : ", orientation \(image.orientation)"
                return "[image \(image.contentType ?? "?")\(size)\(turn)" + (label.map { ": \"\($0)\"" } ?? "") + "]"
            }
        }
    }

    /// What an attachment segment holds (Apple 27).
    public enum Attachment: Sendable, Equatable {
        /// An image.
        case image(ImageAttachment)
    }
}

extension Transcript.Segment {
    /// Whether this is an attachment.
    var isAttachment: Bool {
        if case .attachment = self { true } else { false }
    }

    /// This segment with its image read (other segments as they are).
    /// - Throws: what ``Transcript/ImageAttachment/loaded()`` throws.
    func loadingAttachment() throws(Transcript.ImageAttachment.LoadError) -> Transcript.Segment {
        guard case .attachment(var segment) = self, case .image(let image) = segment.content else { return self }
        segment.content = .image(try image.loaded())
        return .attachment(segment)
    }
}

extension Transcript.Entry {
    /// The entry's segments (none for tool calls).
    var segments: [Transcript.Segment] {
        switch self {
        case .instructions(let e): e.segments
        case .prompt(let e): e.segments
        case .toolOutput(let e): e.segments
        case .response(let e): e.segments
        case .reasoning(let e): e.segments
        case .toolCalls: []
        }
    }

    /// Whether any of the entry's segments is an attachment.
    var hasAttachment: Bool { segments.contains(where: \.isAttachment) }
}
