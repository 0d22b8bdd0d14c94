import Foundation
import LMGGUF

/// Loads the files written by `Fixtures/make_fixtures.py` from the test bundle.
enum Fixture {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture \(path) is missing; run Models/fetch --all (it writes them with Fixtures/make_fixtures.py)" }
    }

    static func data(_ path: String) throws -> Data {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw Missing(path: "Fixtures/")
        }
        let url = root.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw Missing(path: path) }
        return data
    }

    /// Little-endian float32 values of a fixture file.
    static func floats(_ path: String) throws -> [Float] {
        let bytes = try data(path)
        return bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)))
            }
        }
    }

    /// Raw GGUF blocks of `type` and gguf.quants' dequantization of them.
    static func dequantized(_ type: GGMLType) throws -> (blocks: [UInt8], floats: [Float]) {
        (Array(try data("dequantize/\(type).blocks.bin")), try floats("dequantize/\(type).floats.bin"))
    }
}

/// Indices where two float arrays differ, NaN matching any NaN (NaN payloads are platform-defined
/// in numpy's half conversion); everything else must match bit for bit.
func bitMismatches(_ ours: [Float], _ reference: [Float]) -> [Int] {
    ours.indices.filter { i in
        let a = ours[i], b = reference[i]
        return !(a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN))
    }
}
