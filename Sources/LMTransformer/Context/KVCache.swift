import LMKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    private let keys: UnsafeMutablePointer<Element>
    private let values: UnsafeMutablePointer<Element>
    /// Per layer: whether an infinity or NaN was ever stored (then attention converts exactly).
    private let nonFinite: UnsafeMutablePointer<Bool>
    /// One token's keys as halves, before they are scattered into the transposed layout.
    private let keyRow: UnsafeMutablePointer<UInt16>
    /// Halves in each of `keys` and `values`.
    private let mappedCount: Int

    /// `count` halves in pages of their own (an anonymous mapping): touched only as positions fill,
    /// and given back to the system when the cache goes. From the heap, many caches freed by many
    /// sessions stayed resident (malloc raises its mmap threshold after the first large free and
    /// then serves such blocks from arenas it does not trim).
    private static func map(_ count: Int) -> UnsafeMutablePointer<Element> {
        let bytes = count * MemoryLayout<Element>.stride
        let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        // Out of address space, as `allocate` would, traps.
        guard let p, p != MAP_FAILED else { preconditionFailure("cannot map \(bytes) bytes for a KV cache") }
        return p.bindMemory(to: Element.self, capacity: count)
    }

    private static func unmap(_ p: UnsafeMutablePointer<Element>, _ count: Int) {
        munmap(p, count * MemoryLayout<Element>.stride)
    }

    /// What one key or value component is stored as: the bit pattern of an IEEE half.
    package typealias Element = UInt16

    /// Elements in each of the keys and the values: positions rounded up to whole key blocks (the
    /// values are mapped the same size). At least 1, so an empty shape still maps a page.
    package static func elementCount(nLayer: Int, contextSize: Int, nKVHead: Int, headDim: Int) -> Int {
        max(nLayer * ((contextSize + block - 1) / block) * block * nKVHead * headDim, 1)
    }

    /// Bytes a cache of this shape maps: keys and values, ``elementCount(nLayer:contextSize:nKVHead:headDim:)``
    /// ``Element``s each (the per-layer flags and one key row besides are a few hundred bytes).
    package static func bytes(nLayer: Int, contextSize: Int, nKVHead: Int, headDim: Int) -> Int {
        2 * elementCount(nLayer: nLayer, contextSize: contextSize, nKVHead: nKVHead, headDim: headDim) * MemoryLayout<Element>.stride
    }

    package init(nLayer: Int, contextSize: Int, nKVHead: Int, headDim: Int) {
        self.nLayer = nLayer
        self.contextSize = contextSize
        self.nKVHead = nKVHead
        self.headDim = headDim
        self.rowSize = nKVHead * headDim
        self.blocksPerLayer = (contextSize + Self.block - 1) / Self.block
        let count = Self.elementCount(nLayer: nLayer, contextSize: contextSize, nKVHead: nKVHead, headDim: headDim)
        keys = Self.map(count)
        values = Self.map(count)
        mappedCount = count
        nonFinite = .allocate(capacity: max(nLayer, 1))
        nonFinite.initialize(repeating: false, count: max(nLayer, 1))
        keyRow = .allocate(capacity: max(rowSize, 1))
    }

    deinit {
        Self.unmap(keys, mappedCount)
        Self.unmap(values, mappedCount)
        nonFinite.deallocate()
        keyRow.deallocate()
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

    /// `layer`'s keys and values as the attention kernels read them.
    package func layerView(_ layer: Int) -> KVLayerView {
        KVLayerView(keys: UnsafePointer(keys + layer * blocksPerLayer * Self.block * rowSize),
                    values: UnsafePointer(values + layer * contextSize * rowSize),
                    nKVHead: nKVHead, headDim: headDim, mayHoldNonFinite: nonFinite[layer])
    }

    /// Value row of `layer` at `position`: `[nKVHead * headDim]`.
    @inline(__always)
    package func value(_ layer: Int, _ position: Int) -> UnsafePointer<UInt16> {
        UnsafePointer(values + (layer * contextSize + position) * rowSize)
    }

    /// Copies positions `0..<count` of every layer from `source` (a cache of the same model shape),
    /// so a context can start from a prefix another context computed (``KVPrefix``). Keys are copied
    /// in whole blocks of 8 positions: the positions of the last block past `count` hold arbitrary
    /// bits, as unfilled positions always do.
    /// - Precondition: same layer count and row size, `count` within both caches (programmer errors).
    package func copyPositions(from source: KVCache, count: Int) {
        precondition(source.nLayer == nLayer && source.rowSize == rowSize && source.headDim == headDim,
                     "KV caches of different shapes")
        precondition(count >= 0 && count <= contextSize && count <= source.contextSize, "\(count) positions do not fit")
        guard count > 0 else { return }
        let blockHalves = Self.block * rowSize, blocks = (count + Self.block - 1) / Self.block
        for layer in 0..<nLayer {
            (keys + layer * blocksPerLayer * blockHalves)
                .update(from: source.keys + layer * source.blocksPerLayer * blockHalves, count: blocks * blockHalves)
            (values + layer * contextSize * rowSize)
                .update(from: source.values + layer * source.contextSize * rowSize, count: count * rowSize)
            if source.nonFinite[layer] { nonFinite[layer] = true }
        }
    }

    /// Stores `nTokens` rows of keys and values (`[nTokens, rowSize]` each) at `position...`,
    /// converted 8 at a time (``floatToHalf(_:)-(SIMD8<Float>)``).
    package func store(layer: Int, position: Int, nTokens: Int, k: UnsafePointer<Float>, v: UnsafePointer<Float>,
                       halves: VectorKernels = KernelSet.active.vectorKernels) {
        var nonFiniteStored = false
        for t in 0..<nTokens {
            let p = position + t
            nonFiniteStored = halves.halves(v + t * rowSize, values + (layer * contextSize + p) * rowSize, rowSize) || nonFiniteStored
            // Keys are stored transposed per block of positions: convert the row, then scatter it.
            nonFiniteStored = halves.halves(k + t * rowSize, keyRow, rowSize) || nonFiniteStored
            for h in 0..<nKVHead {
                let kd = keys + ((layer * blocksPerLayer + p / Self.block) * nKVHead + h) * headDim * Self.block + p % Self.block
                let ks = keyRow + h * headDim
                for d in 0..<headDim { kd[d * Self.block] = ks[d] }
            }
        }
        if nonFiniteStored { nonFinite[layer] = true }
    }
}
