import Foundation
import Testing

/// One entry of Fixtures/manifest.json, written by Scripts/image-fixtures: an image file and the RGB pixels
/// Pillow decodes from it (or, with `applyOrientation`, Pillow's `exif_transpose` of them).
struct Fixture: Decodable, Sendable, CustomTestStringConvertible {
    var file: String
    var reference: String
    var width: Int
    var height: Int
    var orientation: Int?
    var applyOrientation: Int?

    var testDescription: String { applyOrientation.map { "\(file) turned to orientation \($0)" } ?? file }
    var isJPEG: Bool { file.hasSuffix(".jpg") }

    static let directory: URL? = Bundle.module.url(forResource: "Fixtures", withExtension: nil)

    /// Every manifest entry (empty if the manifest cannot be read, which the catalog test reports).
    static let all: [Fixture] = {
        struct Manifest: Decodable { var images: [Fixture] }
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else { return [] }
        return manifest.images
    }()

    static let png = all.filter { !$0.isJPEG && $0.applyOrientation == nil }
    static let jpeg = all.filter { $0.isJPEG }
    static let orientations = all.filter { $0.applyOrientation != nil }

    func imageData() throws -> Data { try Data(contentsOf: #require(Self.directory).appendingPathComponent(file)) }
    func referencePixels() throws -> [UInt8] { try [UInt8](Data(contentsOf: #require(Self.directory).appendingPathComponent(reference))) }
}
