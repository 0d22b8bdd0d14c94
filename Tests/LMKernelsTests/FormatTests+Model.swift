import Testing
import Foundation
import LMGGUF
import LMKernels

/// Rows of real model tensors (SmolLM2 Q8_0/Q4_1/F32, Gemma 3 Q8_0/Q5_0/Q4_K/Q6_K) against
/// gguf.quants' dequantization recorded in `Fixtures/model_rows.json`.
struct ModelFormatTests {
    struct RowReference: Decodable { let first: [Double]; let sum: Double; let count: Int }
    struct TensorReference: Decodable { let type: String; let rows: [String: RowReference] }

    static let references: [String: [String: TensorReference]] = {
        guard let data = try? Fixture.data("model_rows.json") else { return [:] }
        return (try? JSONDecoder().decode([String: [String: TensorReference]].self, from: data)) ?? [:]
    }()

    static let cases: [String] = references.flatMap { file, tensors in tensors.keys.map { "\(file) \($0)" } }.sorted()

    /// `Models/` of the worktree (the model files are symlinks there, never committed).
    static func modelPath(_ file: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Models").appendingPathComponent(file).path
    }

    @Test func referenceCoversEveryModelWeightType() {
        let types = Set(Self.references.values.flatMap { $0.values.map(\.type) })
        #expect(types == ["F32", "Q8_0", "Q4_1", "Q5_0", "Q4_K", "Q6_K"])
    }

    @Test("model tensor rows equal gguf.quants", arguments: cases)
    func modelRows(_ name: String) throws {
        let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
        let (fileName, tensorName) = (parts[0], parts[1])
        let reference = try #require(Self.references[fileName]?[tensorName])
        let path = Self.modelPath(fileName)
        try #require(FileManager.default.fileExists(atPath: path), "model missing at \(path): fetch it into Models/")
        let file = try GGUFFile(path: path)
        let info = try #require(file.tensor(named: tensorName))
        #expect(info.type.description == reference.type)
        let matrix = WeightMatrix(type: info.type, data: file.data(for: info), rows: info.rowCount, cols: info.rowLength)
        var row = [Float](repeating: .nan, count: matrix.cols)
        for (r, expected) in reference.rows {
            let index = try #require(Int(r))
            row.withUnsafeMutableBufferPointer { matrix.dequantizeRow(index, into: $0.baseAddress!) }
            #expect(row.count == expected.count)
            #expect(row.prefix(16).map(Double.init) == expected.first, "row \(r)")
            let sum = row.reduce(0.0) { $0 + Double($1) }
            let magnitude = row.reduce(0.0) { $0 + abs(Double($1)) }
            // numpy sums pairwise, we sum left to right: equal up to double rounding.
            #expect(abs(sum - expected.sum) <= magnitude * 1e-12, "row \(r): \(sum) vs \(expected.sum)")
            #expect(row.allSatisfy { $0.isFinite && abs($0) < 64 })
        }
    }
}
