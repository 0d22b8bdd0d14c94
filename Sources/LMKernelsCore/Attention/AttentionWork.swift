/// Causal grouped-query attention over an f16 KV cache, as one kernel set computes it (the plan,
/// the thread split and the merge of splits live in LMTransformer's `Attention`).
///
/// One work unit is one KV head with the query heads of up to `tokensPerUnit` tokens that read it,
/// over one split of the positions, so each cached key and value is converted from f16 once for
/// all of them. Keys and values are read in tiles of `tilePositions` positions with an online
/// softmax (running max and sum per query, as FlashAttention, Dao et al. 2022), so scratch does
/// not grow with the context. With several splits (flash-decoding) a unit writes its partial
/// `(o, max, sum)` per query instead of the finished rows.
public struct AttentionShape: Sendable {
    public let nHead: Int
    public let nKVHead: Int
    public let headDim: Int
    public let scale: Float
    /// Keys at distance `window` or more behind the query are masked (`nil`: all earlier keys).
    public let window: Int?
    /// Scores become `softcap · tanh(score / softcap)` before the softmax (Gemma 2); 0: no cap.
    public let softcap: Float

    public init(nHead: Int, nKVHead: Int, headDim: Int, scale: Float, window: Int?, softcap: Float = 0) {
        self.nHead = nHead
        self.nKVHead = nKVHead
        self.headDim = headDim
        self.scale = scale
        self.window = window
        self.softcap = softcap
    }

    /// Positions per key block of the cache (keys are stored `[headDim, 8]` per block).
    public static let block = 8

    /// Query heads per KV head.
    @inlinable public var group: Int { nHead / nKVHead }
    /// Query tokens attended together per KV head: about 16 queries per unit.
    @inlinable public var tokensPerUnit: Int { max(1, 16 / group) }
    /// Queries per unit at most.
    @inlinable public var maxQueries: Int { tokensPerUnit * group }
    /// Query slots of a unit's workspace: `maxQueries` rounded up to 4, so a last group of two or
    /// three queries (decode under GQA with 3 heads per KV head) still runs the four-query step,
    /// the spare slots holding copies whose results are dropped.
    @inlinable public var querySlots: Int { (maxQueries + 3) / 4 * 4 }
    /// Positions per tile: 2048 converted floats each for keys and values, and at least two key
    /// blocks (so four queries can share pairs of them).
    @inlinable public var tilePositions: Int {
        max(2 * Self.block, 2048 / max(headDim, 1) / Self.block * Self.block)
    }
    /// Scratch floats one thread uses: converted keys and values `[tilePositions, headDim]` each,
    /// scores `[querySlots, tilePositions]`, outputs `[querySlots, headDim]`, max and sum `[querySlots]` each.
    @inlinable public var threadScratch: Int { 2 * tilePositions * headDim + querySlots * (tilePositions + headDim + 2) }
    /// Floats of one split's partial result per KV head: `[maxQueries, headDim + 2]`.
    @inlinable public var partialSize: Int { maxQueries * (headDim + 2) }
}

/// One layer's keys and values in the f16 cache, as attention reads them: keys
/// `[blocks, nKVHead, headDim, 8]`, values `[positions, nKVHead * headDim]`.
public struct KVLayerView: @unchecked Sendable {  // pointers into a cache its owner keeps alive
    public let keys: UnsafePointer<UInt16>
    public let values: UnsafePointer<UInt16>
    public let nKVHead: Int
    public let headDim: Int
    /// Whether an infinity or NaN was ever stored (then conversion keeps them exactly).
    public let mayHoldNonFinite: Bool

    public init(keys: UnsafePointer<UInt16>, values: UnsafePointer<UInt16>, nKVHead: Int, headDim: Int, mayHoldNonFinite: Bool) {
        self.keys = keys
        self.values = values
        self.nKVHead = nKVHead
        self.headDim = headDim
        self.mayHoldNonFinite = mayHoldNonFinite
    }

    /// Keys of positions `8 * block ..< 8 * block + 8` for `kvHead`: `[headDim, 8]`.
    @inlinable @inline(__always)
    public func keyBlock(_ block: Int, _ kvHead: Int) -> UnsafePointer<UInt16> {
        keys + (block * nKVHead + kvHead) * headDim * AttentionShape.block
    }

    /// Value row at `position`: `[nKVHead * headDim]`.
    @inlinable @inline(__always)
    public func value(_ position: Int) -> UnsafePointer<UInt16> { values + position * nKVHead * headDim }
}

/// One attention call's arguments: queries `q` `[nTokens, nHead * headDim]` at positions
/// `firstPosition...`, output `[nTokens, nHead * headDim]`, and scratch laid out for `threads`
/// threads (`threads * threadScratch` floats, then the split partials
/// `[splits, nKVHead, maxQueries, headDim + 2]`). Queries at positions in `bidirectional` also attend to the
/// later positions of that span (an image's rows in Gemma 3, as llama.cpp's `mtmd` decodes them with
/// `llama_set_causal_attn(false)`); the window still applies.
public struct AttentionWork: @unchecked Sendable {  // pointers owned by the caller for the call
    public let shape: AttentionShape
    public let threads: Int
    public let tokenChunks: Int
    public let splits: Int
    public let q: UnsafePointer<Float>
    public let nTokens: Int
    public let firstPosition: Int
    public let kv: KVLayerView
    public let out: UnsafeMutablePointer<Float>
    public let scratch: UnsafeMutablePointer<Float>
    /// Positions whose queries attend to each other in full (empty: causal everywhere).
    public let bidirectional: Range<Int>

    public init(shape: AttentionShape, threads: Int, tokenChunks: Int, splits: Int, q: UnsafePointer<Float>, nTokens: Int,
                firstPosition: Int, kv: KVLayerView, out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                bidirectional: Range<Int> = 0..<0) {
        self.shape = shape
        self.threads = threads
        self.tokenChunks = tokenChunks
        self.splits = splits
        self.q = q
        self.nTokens = nTokens
        self.firstPosition = firstPosition
        self.kv = kv
        self.out = out
        self.scratch = scratch
        self.bidirectional = bidirectional
    }

    /// The last position the query at `position` attends to: itself, or the end of the bidirectional span it is
    /// in. Never decreases with `position`.
    @inlinable @inline(__always)
    public func lastVisible(_ position: Int) -> Int { Self.lastVisible(position, bidirectional: bidirectional) }

    /// ``lastVisible(_:)`` for the span `bidirectional`.
    @inlinable @inline(__always)
    public static func lastVisible(_ position: Int, bidirectional: Range<Int>) -> Int {
        bidirectional.contains(position) ? bidirectional.upperBound - 1 : position
    }

    /// Work units: KV heads × token chunks × splits.
    @inlinable public var units: Int { shape.nKVHead * tokenChunks * splits }

    /// Split `split`'s partial result for query `i` of `kvHead`: `[headDim + 2]` (o, max, sum).
    @inlinable @inline(__always)
    public func partial(split: Int, kvHead: Int, query i: Int) -> UnsafeMutablePointer<Float> {
        scratch + threads * shape.threadScratch + (split * shape.nKVHead + kvHead) * shape.partialSize + i * (shape.headDim + 2)
    }
}
