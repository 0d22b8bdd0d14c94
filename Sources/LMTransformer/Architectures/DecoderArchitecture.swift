import LMGGUF
import LMKernels

/// One decoder-only architecture: how its layers transform the residual stream. The shared parts
/// (embedding lookup, final norm, output head, KV cache, scratch) live in ``InferenceContext``.
protocol DecoderArchitecture: Sendable {
    var config: ModelConfig { get }
    /// Token embedding `[vocabSize, nEmbd]`.
    var embedding: WeightMatrix { get }
    /// Factor applied to embeddings after lookup (Gemma: sqrt(nEmbd); others 1).
    var embeddingScale: Float { get }
    var outputNorm: RMSNorm { get }
    /// Output head `[vocabSize, nEmbd]` (the embedding when tied).
    var output: Linear { get }
    /// RoPE of global and local layers (equal for single-base models).
    var ropeGlobal: RoPE { get }
    var ropeLocal: RoPE { get }

    /// Runs layer `layer` over `s.x` (`[nTokens, nEmbd]`) in place.
    func layer(_ layer: Int, nTokens: Int, firstPosition: Int, _ s: ForwardScratch, _ cache: KVCache, _ compute: ComputeResources)
}

/// Maps `general.architecture` to its loader: one line per architecture.
enum ArchitectureRegistry {
    static func load(_ config: ModelConfig, _ tensors: TensorLookup) throws(ModelLoadError) -> any DecoderArchitecture {
        switch config.architecture {
        case "llama", "mistral", "qwen2", "qwen3": try Llama(config: config, tensors: tensors)
        case "gemma3": try Gemma3(config: config, tensors: tensors)
        default: throw .unsupportedArchitecture(config.architecture)
        }
    }
}
