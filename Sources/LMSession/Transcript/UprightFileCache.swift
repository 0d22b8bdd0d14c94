import Foundation
import LMImage
import Synchronization

/// Turned images written upright as PNG files for server models (``Transcript/ImageAttachment/uprightFile``),
/// kept so that each request of a conversation does not decode, turn and encode every turned image of its
/// history again, nor a token estimate before it. Keyed by the encoded bytes and the orientation; at most
/// ``byteLimit`` bytes of files are kept, least recently used out, and a file larger than a quarter of that
/// is made every time.
package enum UprightFileCache {
    static let byteLimit = 64 << 20

    private struct Entry {
        let data: Data
        let orientation: ImageOrientation
        let file: Data
        /// Times the file was found here instead of made.
        var hits = 0

        func isFile(of data: Data, _ orientation: ImageOrientation) -> Bool { self.orientation == orientation && self.data == data }
    }

    /// Most recently used last.
    private static let entries = Mutex<[Entry]>([])

    /// How often the kept file of `data` turned by `orientation` was reused; nil when none is kept. For tests.
    package static func hits(for data: Data, orientation: ImageOrientation) -> Int? {
        entries.withLock { entries in entries.last { $0.isFile(of: data, orientation) }?.hits }
    }

    /// The PNG file of `data` turned by `orientation`; nil when the bytes do not decode.
    static func file(for data: Data, orientation: ImageOrientation) -> Data? {
        let found = entries.withLock { entries -> Data? in
            guard let i = entries.lastIndex(where: { $0.isFile(of: data, orientation) }) else { return nil }
            var entry = entries.remove(at: i)
            entry.hits += 1
            entries.append(entry)
            return entry.file
        }
        if let found { return found }
        guard let turned = try? DecodedImage(data: data, turnedBy: orientation) else { return nil }
        let file = Data(PNGEncoder.encode(width: turned.width, height: turned.height, channels: 3, pixels: turned.pixels))
        guard file.count <= byteLimit / 4 else { return file }
        entries.withLock { entries in
            // Another request may have made the same file meanwhile (made outside the lock): keep one.
            guard !entries.contains(where: { $0.isFile(of: data, orientation) }) else { return }
            entries.append(Entry(data: data, orientation: orientation, file: file))
            var total = entries.reduce(0) { $0 + $1.file.count }
            while total > byteLimit, let first = entries.first {
                total -= first.file.count
                entries.removeFirst()
            }
        }
        return file
    }
}
