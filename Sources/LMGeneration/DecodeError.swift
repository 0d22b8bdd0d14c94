import LMGrammar
import LMTransformer

/// Why decoding failed.
public enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The KV cache is full: the next token would need position `needed - 1` of `contextSize`.
    case contextFull(needed: Int, contextSize: Int)
    /// A guided value cannot close within the token budget: `tokensLeft` tokens left, `needed` to close
    /// (nil: it cannot close at all).
    case budgetTooSmall(tokensLeft: Int, needed: Int?)
    /// The guide refused every token.
    case noTokenAllowed
    /// The forward pass failed.
    case forwardPass(InferenceError)
    /// The model's logits for the token at `position` hold a NaN or an infinity (corrupt or mistyped
    /// weights): sampling from them would pick an arbitrary token, so decoding stops.
    case nonFiniteLogits(position: Int)
    /// The guide's grammar cannot be followed at this step (a pattern whose automaton blows up).
    case grammar(GrammarError)

    public var description: String {
        switch self {
        case let .contextFull(needed, contextSize):
            "the context is full: \(needed) tokens needed, \(contextSize) held"
        case let .budgetTooSmall(tokensLeft, needed):
            "The response cannot be completed within maximumResponseTokens: \(tokensLeft) token\(tokensLeft == 1 ? "" : "s") left, "
                + "\(needed.map { "\($0)" } ?? "more") needed to close the value."
        case .noTokenAllowed:
            "no token can continue the response"
        case let .forwardPass(error):
            "\(error)"
        case let .grammar(error):
            "the response's grammar cannot be enforced: \(error)"
        case let .nonFiniteLogits(position):
            "the model's output at position \(position) is not finite (NaN or infinity): its weights are likely corrupt"
        }
    }
}
