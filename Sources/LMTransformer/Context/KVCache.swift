/// Keys and values of every layer for one sequence: per layer two buffers of shape
/// `[contextSize, nKVHead * headDim]`, allocated once when the context is created. Values are
/// rounded to Float16 precision on store, as llama.cpp's default f16 cache does, and kept as Float
/// so attention reads them without conversion.
final class KVCache {
    let nLayer: Int
    let contextSize: Int
    let rowSize: Int
    private let keys: UnsafeMutablePointer<Float>
    private let values: UnsafeMutablePointer<Float>

    init(nLayer: Int, contextSize: Int, nKVHead: Int, headDim: Int) {
        self.nLayer = nLayer
        self.contextSize = contextSize
        self.rowSize = nKVHead * headDim
        let count = nLayer * contextSize * rowSize
        keys = .allocate(capacity: count)
        values = .allocate(capacity: count)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    /// Key row of `layer` at `position`: `[nKVHead * headDim]`.
    @inline(__always)
    func key(_ layer: Int, _ position: Int) -> UnsafeMutablePointer<Float> {
        keys + (layer * contextSize + position) * rowSize
    }

    @inline(__always)
    func value(_ layer: Int, _ position: Int) -> UnsafeMutablePointer<Float> {
        values + (layer * contextSize + position) * rowSize
    }

    /// Stores `nTokens` rows of keys and values (`[nTokens, rowSize]` each) at `position...`.
    func store(layer: Int, position: Int, nTokens: Int, k: UnsafePointer<Float>, v: UnsafePointer<Float>) {
        for t in 0..<nTokens {
            let kd = key(layer, position + t), vd = value(layer, position + t)
            for i in 0..<rowSize {
                kd[i] = Float(Float16(k[t * rowSize + i]))
                vd[i] = Float(Float16(v[t * rowSize + i]))
            }
        }
    }
}
