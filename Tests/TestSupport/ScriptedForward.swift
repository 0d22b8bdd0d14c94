import LMGeneration
import LMTransformer

/// A forward pass without a model: the logits after each token come from `logits(history)`, so a test
/// decides what the "model" prefers at every step. Records every token fed.
public final class ScriptedForward: ForwardPass {
    public private(set) var tokens: [Int]
    public let contextSize: Int
    public let vocabularySize: Int
    private let script: ([Int]) -> [Float]
    /// The current logits, rewritten in place by each pass (as a context's scratch is).
    private let buffer: UnsafeMutableBufferPointer<Float>
    /// Forward passes run (tokens fed one by one).
    public private(set) var evaluations = 0

    /// - Parameters:
    ///   - prompt: the tokens already in the cache.
    ///   - script: the logits after the given history, `[vocabularySize]`.
    public init(prompt: [Int], contextSize: Int = 1000, vocabularySize: Int, script: @escaping ([Int]) -> [Float]) {
        self.tokens = prompt
        self.contextSize = contextSize
        self.vocabularySize = vocabularySize
        self.script = script
        self.buffer = .allocate(capacity: vocabularySize)
        _ = buffer.initialize(from: script(prompt))
    }

    deinit { buffer.deallocate() }

    /// The logits after the prompt.
    public var firstLogits: UnsafeBufferPointer<Float> { UnsafeBufferPointer(buffer) }

    public func evaluate(token: Int) throws(InferenceError) -> UnsafeBufferPointer<Float> {
        guard tokens.count < contextSize else { throw .contextFull(needed: 1, available: 0) }
        guard token >= 0, token < vocabularySize else { throw .invalidToken(token) }
        tokens.append(token)
        evaluations += 1
        _ = buffer.update(fromContentsOf: script(tokens))
        return UnsafeBufferPointer(buffer)
    }

    /// Logits that rank `preferred` first (in that order), then every other token by id (descending, or
    /// ascending), then `last`; greedy sampling under a mask then picks the first allowed token of that order.
    public static func ranking(_ preferred: [Int], vocabularySize: Int, ascending: Bool = false, last: [Int] = []) -> [Float] {
        var logits = (0..<vocabularySize).map { id in
            -1 - Float(ascending ? id + 1 : vocabularySize - id) / Float(vocabularySize + 1)
        }
        for token in last where token >= 0 && token < vocabularySize { logits[token] = -3 }
        for (rank, token) in preferred.enumerated() where token >= 0 && token < vocabularySize {
            logits[token] = Float(preferred.count - rank)
        }
        return logits
    }
}
