/// Why an ``InferenceContext`` could not evaluate tokens. Nothing is appended to the cache when
/// one of these is thrown.
public enum InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `needed` tokens do not fit: only `available` positions are left in the context.
    case contextFull(needed: Int, available: Int)
    /// A token id outside `0..<vocabSize`.
    case invalidToken(Int)
    /// A context size that is not positive.
    case invalidContextSize(Int)
    /// A thread count outside ``InferenceContext/supportedThreadCounts``.
    case invalidThreadCount(Int)
    /// Input embeddings of `found` floats where `expected` (rows × `nEmbd`) were needed.
    case embeddingShape(expected: Int, found: Int)
    /// `count` rows that must attend to each other in full do not fit in one forward pass of at most `limit` rows.
    case bidirectionalSpanTooLong(count: Int, limit: Int)

    public var description: String {
        switch self {
        case let .contextFull(needed, available): "context full: \(needed) tokens needed, \(available) positions left"
        case let .invalidToken(id): "token id \(id) is outside the vocabulary"
        case let .invalidContextSize(n): "invalid context size \(n)"
        case let .embeddingShape(expected, found): "input embeddings of \(found) floats where \(expected) were needed"
        case let .bidirectionalSpanTooLong(count, limit):
            "\(count) rows attending to each other in full are more than one forward pass takes (\(limit))"
        case let .invalidThreadCount(n):
            "invalid thread count \(n): it must be in \(InferenceContext.supportedThreadCounts.lowerBound)...\(InferenceContext.supportedThreadCounts.upperBound)"
        }
    }
}
