/// The piece of every token (``Tokenizer/tokenBytes(_:)``: llama.cpp's `llama_token_to_piece` with
/// `special: false`) in one flat byte array, so that detokenizing a token is a lookup, not an
/// allocation.
///
/// Built once per tokenizer (``Tokenizer/pieces``): about 10 bytes per token, 2.6 MB for Gemma 3's
/// 262,144 tokens.
public struct TokenPieces: Sendable {
    /// Every piece, concatenated in id order.
    private let bytes: [UInt8]
    /// `offsets[id] ..< offsets[id + 1]` is token `id`'s piece; `tokenCount + 1` entries.
    private let offsets: [Int32]

    /// Pieces given as bytes, `pieces[i]` for token `i` (tests, vocabularies built by hand).
    public init(_ pieces: [[UInt8]]) {
        var bytes: [UInt8] = []
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(pieces.count + 1)
        for piece in pieces {
            bytes += piece
            offsets.append(Int32(truncatingIfNeeded: bytes.count))
        }
        self.bytes = bytes
        self.offsets = offsets
    }

    /// Number of tokens.
    public var tokenCount: Int { offsets.count - 1 }

    /// Calls `body` with token `id`'s piece (empty for ids outside the vocabulary).
    public func withPiece<R>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = id >= 0 && id < tokenCount ? Int(offsets[id])..<Int(offsets[id + 1]) : 0..<0
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The piece of token `id` as an array (allocates; for tests and one-off use).
    public func piece(_ id: Int) -> [UInt8] {
        withPiece(id) { Array($0) }
    }
}

extension Tokenizer {
    /// Every token's piece (``tokenBytes(_:)``), built on first use and then shared.
    public var pieces: TokenPieces {
        pieceTable.withLock { table in
            if let table { return table }
            let built = TokenPieces((0..<vocabularySize).map { piece($0, special: false) })
            table = built
            return built
        }
    }
}
