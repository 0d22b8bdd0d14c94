import LMTransformer

/// The model side of decoding one sequence: append a token to the sequence's KV cache, get the
/// next-token logits.
///
/// The decode step (``DecodeSequence``) never calls the model itself: it chooses a token from logits
/// and says which token to feed next. A driver feeds it through a forward pass: ``Decoding/run(_:on:from:isCancelled:onText:)``
/// for one sequence on an `InferenceContext`, or a scheduler that evaluates the next token of many
/// sequences in one batched pass and hands each its logits.
public protocol ForwardPass: AnyObject {
    /// Tokens in the sequence's KV cache (prompt and generated), positions `0..<tokens.count`.
    var tokens: [Int] { get }
    /// Positions the KV cache holds, in tokens.
    var contextSize: Int { get }
    /// Appends `token` at position `tokens.count` and returns the logits after it, `[vocabSize]`,
    /// valid until the next call.
    /// - Throws: `InferenceError` (`contextFull`, `invalidToken`); the cache is then unchanged.
    func evaluate(token: Int) throws(InferenceError) -> UnsafeBufferPointer<Float>
}

extension InferenceContext: ForwardPass {}
