import LMKernels

/// Keys and values of every layer for one sequence, stored as IEEE half-precision bit patterns
/// (rounded to nearest even on store, as llama.cpp's default f16 cache), allocated once when the
/// context is created and touched only as positions are filled.
///
/// Layouts, outermost first:
/// - keys `[nLayer, contextSize / 8 (rounded up), nKVHead, headDim, 8]`: blocks of 8 positions
///   with the position innermost, so attention scores 8 positions with one vector per dimension;
/// - values `[nLayer, contextSize, nKVHead * headDim]`: one row per position.
///
/// At SmolLM2's 30 layers, 3 KV heads of 64 and 4096 positions this is 94 MB (half of Float).
package final class KVCache {
    /// Positions per key block.
    package static let block = 8

    let nLayer: Int
    let contextSize: Int
    let nKVHead: Int
    let headDim: Int
    /// `nKVHead * headDim`.
    let rowSize: Int
    let blocksPerLayer: Int
    private let keys: UnsafeMutablePointer<UInt16>
    private let values: UnsafeMutablePointer<UInt16>
    /// Per layer: whether an infinity or NaN was ever stored (then attention converts exactly).
    private let nonFinite: UnsafeMutablePointer<Bool>

    package init(nLayer: Int, contextSize: Int, nKVHead: Int, headDim: Int) {
        self.nLayer = nLayer
        self.contextSize = contextSize
        self.nKVHead = nKVHead
        self.headDim = headDim
        self.rowSize = nKVHead * headDim
        self.blocksPerLayer = (contextSize + Self.block - 1) / Self.block
        let count = nLayer * blocksPerLayer * Self.block * rowSize
        keys = .allocate(capacity: max(count, 1))
        values = .allocate(capacity: max(count, 1))
        nonFinite = .allocate(capacity: max(nLayer, 1))
        nonFinite.initialize(repeating: false, count: max(nLayer, 1))
    }

    deinit {
        keys.deallocate()
        values.deallocate()
        nonFinite.deallocate()
    }

    /// Whether `layer` may hold an infinity or NaN (one was stored since the cache was created).
    @inline(__always)
    package func mayHoldNonFinite(_ layer: Int) -> Bool { nonFinite[layer] }

    /// Keys of positions `8 * block ..< 8 * block + 8` of `layer` for `kvHead`: `[headDim, 8]`.
    /// Positions not stored yet hold arbitrary bits.
    @inline(__always)
    package func keyBlock(_ layer: Int, _ block: Int, _ kvHead: Int) -> UnsafePointer<UInt16> {
        UnsafePointer(keys + ((layer * blocksPerLayer + block) * nKVHead + kvHead) * headDim * Self.block)
    }

    /// Value row of `layer` at `position`: `[nKVHead * headDim]`.
    @inline(__always)
    package func value(_ layer: Int, _ position: Int) -> UnsafePointer<UInt16> {
        UnsafePointer(values + (layer * contextSize + position) * rowSize)
    }

    /// Stores `nTokens` rows of keys and values (`[nTokens, rowSize]` each) at `position...`.
    package func store(layer: Int, position: Int, nTokens: Int, k: UnsafePointer<Float>, v: UnsafePointer<Float>) {
        var exponents: UInt16 = 0
        defer { if exponents & 0x7C00 == 0x7C00 { nonFinite[layer] = true } }
        for t in 0..<nTokens {
            let p = position + t
            let vd = values + (layer * contextSize + p) * rowSize
            for i in 0..<rowSize {
                vd[i] = floatToHalf(v[t * rowSize + i])
                if vd[i] & 0x7C00 == 0x7C00 { exponents = 0x7C00 }
            }
            for h in 0..<nKVHead {
                let kd = keys + ((layer * blocksPerLayer + p / Self.block) * nKVHead + h) * headDim * Self.block + p % Self.block
                let ks = k + t * rowSize + h * headDim
                for d in 0..<headDim {
                    let h = floatToHalf(ks[d])
                    kd[d * Self.block] = h
                    if h & 0x7C00 == 0x7C00 { exponents = 0x7C00 }
                }
            }
        }
    }
}
