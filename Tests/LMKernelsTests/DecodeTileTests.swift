import LMGGUF
import LMKernels
import TestSupport
import Testing

/// Weights prepared by a kernel set (``KernelSet/prepare(_:)``: AVX2 repacks Q4_0, Q4_1, Q5_0, Q5_1, Q8_0 and the K-quants into
/// tiles of 8 rows for decode) give the portable kernels' results, for every row range a thread
/// may get: ranges that start or end inside a tile, and rows past the last whole tile.
@Suite struct DecodeTileTests {
    @Test("prepared weights decode as the portable kernels", arguments: [GGMLType.q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .q4_K, .q5_K, .q6_K])
    func preparedMatVecMatchesPortable(type: GGMLType) throws {
        let rows = 45, cols = 512  // 5 whole tiles and 5 rows after them
        var rng = SplitMix64(seed: 29)
        let bytes = (0..<rows).flatMap { _ in DotReference.randomRow(type, cols: cols, rng: &rng) }
        let input = DotReference.randomActivations(cols, rng: &rng)
        let x = QuantizedActivations(maxTokens: 1, maxCols: cols)
        x.quantize(input, nTokens: 1, cols: cols, format: activationFormat(for: type))
        try bytes.withUnsafeBytes { raw in
            let w = WeightMatrix(type: type, data: raw.baseAddress!, rows: rows, cols: cols)
            var reference = [Float](repeating: .nan, count: rows)
            MatMul.matVec(w, x, into: &reference, rows: 0..<rows, kernels: .portable)
            let scale = try #require(reference.map { abs($0) }.max())
            #expect(scale > 0 && reference.allSatisfy(\.isFinite))
            for set in KernelSet.supported {
                let prepared = set.prepare(w)
                if set != .portable {
                    #expect(prepared.tiles?.rows == 40, "\(set) should tile \(type)")
                }
                for range in [0..<rows, 3..<45, 8..<16, 5..<7, 13..<41, 40..<45] {
                    var fast = [Float](repeating: .nan, count: rows)
                    MatMul.matVec(prepared, x, into: &fast, rows: range, kernels: set)
                    for r in 0..<rows {
                        if range.contains(r) {
                            #expect(abs(fast[r] - reference[r]) <= 1e-5 * scale, "\(set) \(range) row \(r): \(fast[r]) vs \(reference[r])")
                        } else {
                            #expect(fast[r].isNaN, "\(set) \(range) wrote row \(r) outside its range")
                        }
                    }
                }
            }
        }
    }

    @Test("prepared weights give the portable kernels' prefill", arguments: [3, 12])
    func preparedMatMulMatchesPortable(tokens: Int) throws {
        let rows = 45, cols = 256
        for type in [GGMLType.q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .q4_K, .q5_K, .q6_K] {
            var rng = SplitMix64(seed: 41)
            let bytes = (0..<rows).flatMap { _ in DotReference.randomRow(type, cols: cols, rng: &rng) }
            let input = DotReference.randomActivations(tokens * cols, rng: &rng)
            let x = QuantizedActivations(maxTokens: tokens, maxCols: cols)
            x.quantize(input, nTokens: tokens, cols: cols, format: activationFormat(for: type))
            try bytes.withUnsafeBytes { raw in
                let w = WeightMatrix(type: type, data: raw.baseAddress!, rows: rows, cols: cols)
                var reference = [Float](repeating: .nan, count: tokens * rows)
                MatMul.matMul(w, x, into: &reference, rows: 0..<rows, kernels: .portable)
                let scale = try #require(reference.map { abs($0) }.max())
                for set in KernelSet.supported where set != .portable {
                    for range in [0..<rows, 8..<45, 3..<29] {
                        var fast = [Float](repeating: .nan, count: tokens * rows)
                        MatMul.matMul(set.prepare(w), x, into: &fast, rows: range, kernels: set)
                        for i in 0..<(tokens * rows) where range.contains(i % rows) {
                            #expect(abs(fast[i] - reference[i]) <= 1e-5 * scale, "\(type) \(set) \(range) [\(i / rows), \(i % rows)]")
                        }
                        #expect(fast.enumerated().allSatisfy { range.contains($0.offset % rows) || $0.element.isNaN })
                    }
                }
            }
        }
    }

    @Test("a slice of prepared weights keeps the tiles it starts on")
    func slicesKeepAlignedTiles() throws {
        let rows = 40, cols = 64
        var rng = SplitMix64(seed: 3)
        let bytes = (0..<rows).flatMap { _ in DotReference.randomRow(.q4_1, cols: cols, rng: &rng) }
        try bytes.withUnsafeBytes { raw in
            let w = WeightMatrix(type: .q4_1, data: raw.baseAddress!, rows: rows, cols: cols)
            guard let tiles = KernelSet.active.prepare(w).tiles else { return }  // a set without tiles
            #expect(tiles.slice(rows: 16..<40)?.rows == 24)
            #expect(tiles.slice(rows: 16..<30)?.rows == 8)
            #expect(tiles.slice(rows: 12..<40) == nil)
            let second = try #require(tiles.slice(rows: 8..<16))
            #expect(second.base == tiles.tile(1))
        }
    }
}
