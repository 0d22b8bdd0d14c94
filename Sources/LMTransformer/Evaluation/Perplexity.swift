#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Perplexity as llama.cpp's `llama-perplexity` computes it: non-overlapping chunks of
/// `chunkSize` tokens (the tail dropped), each evaluated from an empty KV cache with its first
/// token replaced by BOS when the model adds BOS, scoring only the second half of each chunk
/// (logits at position j against token j+1 for j in chunkSize/2 ..< chunkSize-1).
public struct Perplexity: Sendable {
    public struct Result: Sendable, Equatable {
        /// exp(mean negative log-likelihood) over all scored tokens.
        public let ppl: Double
        /// Standard error of the mean NLL times `ppl`, as llama-perplexity prints it.
        public let stderr: Double
        /// Running PPL after each chunk.
        public let perChunk: [Double]
        public let scoredTokens: Int
    }

    public let chunkSize: Int

    public init(chunkSize: Int = 512) { self.chunkSize = chunkSize }

    /// Scores `tokens` (the whole text tokenized at once, with BOS prepended when the model adds it).
    /// - Parameter onChunk: called after each chunk with its index and the running PPL.
    /// - Throws: ``InferenceError`` when a chunk does not fit the context or holds an invalid id.
    public func evaluate(tokens: [Int], model: TransformerModel, threads: Int? = nil,
                         onChunk: (Int, Double) -> Void = { _, _ in }) throws(InferenceError) -> Result {
        let context = try InferenceContext(model: model, contextSize: chunkSize, threads: threads)
        let chunks = tokens.count / chunkSize
        let first = chunkSize / 2
        var nllSum = 0.0, nll2Sum = 0.0, count = 0
        var perChunk: [Double] = []
        for c in 0..<chunks {
            var chunk = Array(tokens[c * chunkSize..<(c + 1) * chunkSize])
            if model.tokenizer.addsBOS, let bos = model.tokenizer.bosID { chunk[0] = bos }
            context.truncate(to: 0)
            try context.evaluate(chunk, logitsFrom: first) { j, logits in
                guard j >= first, j < chunkSize - 1 else { return }
                let nll = Self.negativeLogLikelihood(logits, target: chunk[j + 1])
                nllSum += nll
                nll2Sum += nll * nll
                count += 1
            }
            let running = exp(nllSum / Double(count))
            perChunk.append(running)
            onChunk(c, running)
        }
        guard count > 0 else { return Result(ppl: .nan, stderr: .nan, perChunk: [], scoredTokens: 0) }
        let mean = nllSum / Double(count)
        let variance = nll2Sum / Double(count) - mean * mean
        let stderr = count > 1 ? (max(variance, 0) / Double(count - 1)).squareRoot() : 0
        let ppl = exp(mean)
        return Result(ppl: ppl, stderr: stderr * ppl, perChunk: perChunk, scoredTokens: count)
    }

    /// `-log softmax(logits)[target]` with max subtraction, the sum of exponentials in Double.
    static func negativeLogLikelihood(_ logits: UnsafeBufferPointer<Float>, target: Int) -> Double {
        var m = -Float.infinity
        for l in logits { m = max(m, l) }
        var sum = 0.0
        for l in logits { sum += Double(expf(l - m)) }
        return log(sum) - Double(logits[target] - m)
    }
}
