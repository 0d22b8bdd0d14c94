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
                return "[image \(image.contentType ?? "?")\(size)" + (label.map { ": \"\($0)\"" } ?? "") + "]"
            }
        }
    }

    /// What an attachment segment holds (Apple 27).
    public enum Attachment: Sendable, Equatable {
        /// An image.
        case image(ImageAttachment)
    }

    /// An image in a prompt, as an encoded image file (PNG, JPEG, GIF, WebP...).
    ///
    /// Made from a file URL, it holds only the URL until a request reads the file (the session does it when the
    /// prompt joins the transcript, so a stored transcript holds the bytes); made from `Data`, it holds the bytes.
    /// `contentType` is the MIME type: given, from the file's extension, or from the bytes' signature.
    public struct ImageAttachment: Sendable, Equatable {
        /// The file the image was made from; nil for an image made from `Data`.
        public var url: URL?
        /// The encoded image (ours: Apple's holds a decoded image); nil until the file at `url` is read.
        public var data: Data?
        /// The MIME type, such as `image/png` (ours); nil when neither the extension nor the bytes tell.
        public var contentType: String?

        /// An image read from the file at `imageURL` when a request first needs it (Apple 27 spelling, without
        /// `orientation:`, whose `CGImagePropertyOrientation` does not exist on Linux). The type is the extension's.
        public init(imageURL: URL) {
            self.url = imageURL
            self.data = nil
            self.contentType = ImageAttachment.contentType(forExtension: imageURL.pathExtension)
        }

        /// An image from encoded bytes (ours); `contentType` nil means the bytes' signature decides.
        public init(data: Data, contentType: String? = nil) {
            self.url = nil
            self.data = data
            self.contentType = contentType ?? ImageAttachment.contentType(sniffing: data)
        }

        /// Creates an image from all its fields (used when decoding a transcript).
        init(url: URL?, data: Data?, contentType: String?) {
            self.url = url
            self.data = data
            self.contentType = contentType
        }

        /// Why an image could not be made ready to send.
        public enum LoadError: Error, Equatable, CustomStringConvertible {
            /// The file at the URL could not be read; the text is the system's reason.
            case unreadable(URL, String)
            /// Neither the extension nor the bytes say which image format it is.
            case unknownContentType(URL?)

            public var description: String {
                switch self {
                case let .unreadable(url, reason): "cannot read image \(url.path): \(reason)"
                case let .unknownContentType(url): "unknown image type" + (url.map { " for \($0.path)" } ?? "") + " (expected PNG, JPEG, GIF or WebP)"
                }
            }
        }

        /// This image with its bytes read and its type known.
        /// - Throws: ``LoadError/unreadable(_:_:)`` when the file cannot be read, ``LoadError/unknownContentType(_:)``
        ///   when neither extension nor bytes tell the format.
        public func loaded() throws(LoadError) -> ImageAttachment {
            var image = self
            if image.data == nil, let url {
                do { image.data = try Data(contentsOf: url) } catch { throw .unreadable(url, error.localizedDescription) }
            }
            if image.contentType == nil, let data = image.data { image.contentType = Self.contentType(sniffing: data) }
            if image.contentType == nil || image.data == nil { throw .unknownContentType(url) }
            return image
        }

        /// The MIME type for a file extension (case-insensitive); nil for one that is not an image's.
        static func contentType(forExtension ext: String) -> String? {
            switch ext.lowercased() {
            case "png": "image/png"
            case "jpg", "jpeg": "image/jpeg"
            case "gif": "image/gif"
            case "webp": "image/webp"
            case "heic": "image/heic"
            case "bmp": "image/bmp"
            case "tif", "tiff": "image/tiff"
            default: nil
            }
        }

        /// The MIME type from the first bytes' signature (PNG, JPEG, GIF, WebP); nil for others.
        static func contentType(sniffing data: Data) -> String? {
            let head = [UInt8](data.prefix(12))
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
            if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
            if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
            if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
            return nil
        }
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
