import LMKernels
import Synchronization

/// The thread pool and matmul scratch one context computes with. Allocated once per context so a
/// decode step allocates nothing.
final class ComputeResources {
    let pool: ThreadPool
    /// Activations quantized to the 8-bit partner format of the weights (`[maxBatch, maxCols]`).
    let activations: QuantizedActivations
    /// The matrix and vector kernels this context runs (``KernelSet/active`` unless a test compares).
    let kernels: KernelSet
    let vector: VectorKernels
    /// Whether products compute every row as a one-token product would (set by the engine for a
    /// batched decode pass; see ``MatMul/multiply(_:quantized:into:pool:kernels:independentRows:)``).
    var independentRows = false

    var threads: Int { pool.threadCount }

    init(threads: Int, maxBatch: Int, maxCols: Int, kernels: KernelSet = .active) {
        pool = Self.sharedPool(threads: max(1, threads))
        activations = QuantizedActivations(maxTokens: maxBatch, maxCols: maxCols)
        self.kernels = kernels
        vector = kernels.vectorKernels
    }

    private static let pools = Mutex<[Int: ThreadPool]>([:])

    /// One pool per thread count for the whole process. Contexts computing at the same time then
    /// never oversubscribe the cores with spinning workers: a dispatch that finds the pool busy
    /// runs on its caller alone (``ThreadPool/run(_:)``).
    static func sharedPool(threads: Int) -> ThreadPool {
        pools.withLock { pools in
            if let pool = pools[threads] { return pool }
            let pool = ThreadPool(threads: threads)
            pools[threads] = pool
            return pool
        }
    }

    /// Quantizes `x` (`[nTokens, w.cols]`) into the activation format `w` pairs with, in the
    /// shared scratch, for products that read it next.
    func quantize(_ x: UnsafePointer<Float>, nTokens: Int, for w: WeightMatrix) -> QuantizedActivations {
        activations.quantize(x, nTokens: nTokens, cols: w.cols, format: activationFormat(for: w.type), pool: pool)
        return activations
    }

    /// `y[t, :] = W x[t, :]`: x `[nTokens, w.cols]`, y `[nTokens, w.rows]`.
    func multiply(_ w: WeightMatrix, _ x: UnsafePointer<Float>, nTokens: Int, into y: UnsafeMutablePointer<Float>) {
        MatMul.multiply(w, x: x, nTokens: nTokens, into: y, scratch: activations, pool: pool, kernels: kernels,
                        independentRows: independentRows)
    }
}
