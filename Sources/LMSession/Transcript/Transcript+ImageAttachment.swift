import Foundation
import LMImage

extension Transcript {
    /// An image in a prompt, as an encoded image file (PNG, JPEG, GIF, WebP...) and how it is turned (Apple 27).
    ///
    /// Made from a file URL, it holds only the URL until a request reads the file (the session does it when the
    /// prompt joins the transcript, so a stored transcript holds the bytes); made from `Data`, it holds the bytes;
    /// made from raw pixels, it holds them as a PNG file (lossless). `contentType` is the MIME type: given, from
    /// the file's extension, or from the bytes' signature.
    ///
    /// Apple's image attachment holds a `CGImage`, `CIImage` or `CVPixelBuffer`, which do not exist on Linux; see
    /// docs/differences.md, "Attachments".
    public struct ImageAttachment: Sendable, Equatable {
        /// The file the image was made from; nil for an image made from `Data` or pixels.
        public var url: URL?
        /// The encoded image (ours: Apple's holds a decoded image); nil until the file at `url` is read.
        public var data: Data?
        /// The MIME type, such as `image/png` (ours); nil when neither the extension nor the bytes tell.
        public var contentType: String?
        /// How the stored image is turned for display (Apple 27): a model sees the image turned by it. `.up`
        /// unless given; a JPEG's own EXIF orientation tag is not applied (llama.cpp's `mtmd` ignores it too).
        public var orientation: ImageOrientation

        /// An image read from the file at `imageURL` when a request first needs it, shown turned by
        /// `orientation` (Apple 27). The type is the extension's.
        public init(imageURL: URL, orientation: ImageOrientation = .up) {
            self.init(url: imageURL, data: nil, contentType: ImageAttachment.contentType(forExtension: imageURL.pathExtension),
                      orientation: orientation)
        }

        /// An image from encoded bytes (ours); `contentType` nil means the bytes' signature decides.
        public init(data: Data, contentType: String? = nil, orientation: ImageOrientation = .up) {
            self.init(url: nil, data: data, contentType: contentType ?? ImageAttachment.contentType(sniffing: data), orientation: orientation)
        }

        /// Creates an image from all its fields (used when decoding a transcript).
        init(url: URL?, data: Data?, contentType: String?, orientation: ImageOrientation) {
            self.url = url
            self.data = data
            self.contentType = contentType
            self.orientation = orientation
        }

        /// Why an image could not be made ready to send.
        public enum LoadError: Error, Equatable, CustomStringConvertible {
            /// The file at the URL could not be read; the text is the system's reason.
            case unreadable(URL, String)
            /// Neither the extension nor the bytes say which image format it is.
            case unknownContentType(URL?)
            /// An orientation other than `.up` was given for a format this package cannot turn (it turns PNG and
            /// JPEG); the MIME type is given.
            case orientationUnsupported(contentType: String)
            /// Raw pixels that do not make an image: the text says what is wrong (a size of zero, more than
            /// 64 megapixels, or a pixel count that differs from width times height).
            case invalidPixels(String)
            /// An image with an orientation other than `.up` whose bytes do not decode, so it cannot be turned; the
            /// text is the decoder's reason.
            case undecodable(URL?, String)

            public var description: String {
                switch self {
                case let .unreadable(url, reason): "cannot read image \(url.isFileURL ? url.path : url.absoluteString): \(reason)"
                case let .unknownContentType(url): "unknown image type" + (url.map { " for \($0.path)" } ?? "") + " (expected PNG, JPEG, GIF or WebP)"
                case let .orientationUnsupported(type): "cannot turn an image of type \(type) (orientation is applied to PNG and JPEG images only)"
                case let .invalidPixels(reason): "invalid pixels: \(reason)"
                case let .undecodable(url, reason): "cannot turn image" + (url.map { " \($0.path)" } ?? "") + ": it does not decode (\(reason))"
                }
            }
        }

        /// This image with its bytes read and its type known.
        /// - Throws: ``LoadError/unreadable(_:_:)`` when the file cannot be read (also a directory, a device or FIFO, or a
        ///   file of more than 256 MiB), ``LoadError/unknownContentType(_:)`` when neither extension nor bytes tell the
        ///   format, ``LoadError/orientationUnsupported(contentType:)`` when
        ///   an orientation other than `.up` is given for an image that is neither PNG nor JPEG,
        ///   ``LoadError/undecodable(_:_:)`` when such an image does not decode (it is decoded here to be sure it can be
        ///   turned; an upright image is sent as it is, and a server judges its bytes).
        public func loaded() throws(LoadError) -> ImageAttachment {
            var image = self
            if image.data == nil, url != nil { image.data = try bytes() }
            if image.contentType == nil, let data = image.data { image.contentType = Self.contentType(sniffing: data) }
            guard let data = image.data, let type = image.contentType else { throw .unknownContentType(url) }
            if orientation != .up {
                guard ["image/png", "image/jpeg"].contains(Self.contentType(sniffing: data) ?? type) else {
                    throw .orientationUnsupported(contentType: type)
                }
                do { _ = try DecodedImage(data: data) } catch { throw .undecodable(url, error.description) }
            }
            return image
        }

        /// The image's encoded bytes: ``data``, or the file at ``url`` read now (``ImageFile/read(_:)``; a local model
        /// decodes them itself, so it needs neither ``loaded()``'s type nor its check that a turned image decodes).
        /// - Throws: ``LoadError/unreadable(_:_:)`` when the file cannot be read, is a directory or another kind of
        ///   file than a regular one (a device such as /dev/zero, a FIFO), or holds more than 256 MiB;
        ///   ``LoadError/unknownContentType(_:)`` when there is neither data nor a URL.
        func bytes() throws(LoadError) -> Data {
            if let data { return data }
            guard let url else { throw .unknownContentType(nil) }
            do { return try ImageFile.read(url) } catch {
                throw .unreadable(url, error == .notAFileURL ? "\(error) (give other images as data)" : error.description)
            }
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
