import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An image file's bytes, read within a bound: only regular files, at most ``maxBytes``. A device such as
/// /dev/zero never ends and a FIFO can block its open or its reads, so neither is an image.
public enum ImageFile {
    /// The most bytes an image file is read for (256 MiB): more than any image within the decoders' 64-megapixel
    /// bound (``ImageDecodingLimits``) holds compressed; reading stops there.
    public static let maxBytes = 256 << 20

    /// The bytes of the file at `url`.
    /// - Throws: ``ImageFileError``: `.notAFileURL` for another scheme, `.directory`, `.notRegularFile` (a device,
    ///   FIFO or socket), `.tooLarge` past ``maxBytes``, `.unreadable` with the system's reason when it cannot be
    ///   opened or read (missing, no permission, a loop of symbolic links).
    public static func read(_ url: URL) throws(ImageFileError) -> Data {
        guard url.isFileURL else { throw .notAFileURL }
        // O_NONBLOCK: a FIFO must not block the open; its type is then refused from the open descriptor (no window
        // between a check of the path and the open).
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .directory
        default: throw .notRegularFile
        }
        // Refused by its size before reading (a sparse file of gigabytes was read to the bound first); checked
        // again after reading, as the file may grow meanwhile.
        guard status.st_size <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        let data: Data
        do { data = try handle.read(upToCount: maxBytes + 1) ?? Data() } catch { throw .unreadable(error.localizedDescription) }
        guard data.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        return data
    }
}

/// Why ``ImageFile/read(_:)`` read no image bytes; `description` is the reason in words.
public enum ImageFileError: Error, Equatable, CustomStringConvertible {
    /// The URL is not a file URL.
    case notAFileURL
    /// The path is a directory.
    case directory
    /// The path is a device, FIFO or socket.
    case notRegularFile
    /// The file holds more than `limit` bytes.
    case tooLarge(limit: Int)
    /// The file could not be opened or read; the text is the system's reason.
    case unreadable(String)

    public var description: String {
        switch self {
        case .notAFileURL: "only file URLs are read"
        case .directory: "it is a directory"
        case .notRegularFile: "it is not a regular file"
        case let .tooLarge(limit): "it holds more than \(limit) bytes"
        case let .unreadable(reason): reason
        }
    }
}
