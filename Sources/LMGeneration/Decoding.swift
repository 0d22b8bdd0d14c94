import LMTransformer

/// Drives one sequence on its own forward pass: step, feed, repeat.
public enum Decoding {
    /// Decodes `sequence` on `forward`, from `logits` (the model's output after the prompt's last token),
    /// until it stops. Each chosen token is fed with `evaluate(token:)`, except the last one when the
    /// budget ends the sequence (its logits are not needed).
    /// - Parameters:
    ///   - isCancelled: checked before every step: generation stops within one token.
    ///   - onText: response text as it is decided (deltas).
    /// - Returns: why the sequence stopped.
    /// - Throws: ``DecodeError/contextFull(needed:contextSize:)`` when another token is needed and the
    ///   context is full; ``DecodeError/forwardPass(_:)``; what ``DecodeSequence/step(logits:history:)`` throws.
    public static func run<Guide: TokenGuide>(_ sequence: inout DecodeSequence<Guide>, on forward: some ForwardPass,
                                              from logits: UnsafeBufferPointer<Float>, isCancelled: () -> Bool,
                                              onText: (String) -> Void) throws -> StopReason {
        var logits = logits
        while true {
            if isCancelled() { return .cancelled }
            guard allFinite(logits) else { throw DecodeError.nonFiniteLogits(position: forward.tokens.count) }
            switch try sequence.step(logits: logits, history: forward.tokens[...]) {
            case .stop(let reason):
                return reason
            case let .token(token, text):
                if !text.isEmpty { onText(text) }
                if sequence.isFinished { return .maximumTokens }
                let position = forward.tokens.count
                guard position < forward.contextSize else {
                    throw DecodeError.contextFull(needed: position + 1, contextSize: forward.contextSize)
                }
                do {
                    logits = try forward.evaluate(token: token)
                } catch {
                    throw DecodeError.forwardPass(error)
                }
            }
        }
    }

    /// Whether every logit is finite: `x · 0` is 0 for finite `x` and NaN otherwise, so one sum tells
    /// (a few microseconds over a 49,152-token vocabulary, against milliseconds per forward pass).
    package static func allFinite(_ logits: UnsafeBufferPointer<Float>) -> Bool {
        var acc = SIMD8<Float>()
        var i = 0
        let n = logits.count
        if let base = logits.baseAddress {
            while i + 8 <= n {
                acc += UnsafeRawPointer(base + i).loadUnaligned(as: SIMD8<Float>.self) * 0
                i += 8
            }
        }
        var tail: Float = 0
        while i < n { tail += logits[i] * 0; i += 1 }
        return (acc.sum() + tail) == 0
    }
}
