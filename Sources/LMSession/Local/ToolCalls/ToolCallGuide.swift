import LMGeneration
import LMGrammar

/// ``ToolCallDecoder`` as the decode step's guide: its masks, forced envelope tokens (one per step) and
/// acceptances in LMGeneration's terms. Once the sequence stopped (other than cancelled), ``calls`` holds
/// the calls, if the model made any.
struct ToolCallGuide: TokenGuide {
    private(set) var decoder: ToolCallDecoder
    private let tokenCount: Int
    /// The mask of the current step (nil: any token).
    private var mask: [UInt64]?
    /// Envelope tokens the decoder fixed, fed one per step.
    private var forced: [Int] = []
    private var nextForced = 0

    init(_ decoder: ToolCallDecoder, tokenCount: Int) {
        self.decoder = decoder
        self.tokenCount = tokenCount
    }

    /// The calls, once the guide ended.
    var calls: [Transcript.ToolCall] { decoder.calls }

    mutating func next() -> GuideDecision {
        if nextForced < forced.count {
            defer { nextForced += 1 }
            return .force(forced[nextForced])
        }
        // Let go of the last mask first, so the decoder rewrites its buffer in place instead of copying it.
        mask = nil
        switch decoder.next() {
        case .sample(let allowed):
            mask = allowed
            return .sample(masked: allowed != nil)
        case .force(let tokens):
            guard let first = tokens.first else { return next() }
            forced = tokens
            nextForced = 1
            return .force(first)
        case .call, .end:
            return .end
        }
    }

    func withMask<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        try (mask ?? []).withUnsafeBufferPointer(body)
    }

    mutating func narrow(after token: Int, tokensLeft: Int) throws(GeneratedContent.ParsingError) -> Bool {
        guard let narrowed = try decoder.budgetMask(after: token, allowed: mask, tokensLeft: tokensLeft) else { return false }
        mask = narrowed
        return true
    }

    mutating func ban(_ token: Int) -> Bool {
        var words = mask ?? Self.allTokens(tokenCount)
        if token >= 0, token >> 6 < words.count { words[token >> 6] &= ~(1 << UInt64(token & 63)) }
        mask = words
        return words.contains { $0 != 0 }
    }

    mutating func accept(_ token: Int) throws(GeneratedContent.ParsingError) -> TokenKind {
        switch try decoder.accept(token) {
        case .text: .text
        case .held: .held
        case .call: .hidden
        case .end: .end
        case .rejected: .rejected
        }
    }

    var countsTowardBudget: Bool { !decoder.isCallingTools }

    /// A mask allowing every token of the vocabulary.
    private static func allTokens(_ tokenCount: Int) -> [UInt64] {
        let words = (tokenCount + 63) / 64
        var mask = [UInt64](repeating: ~0, count: words)
        let spare = words * 64 - tokenCount
        if spare > 0 { mask[words - 1] >>= UInt64(spare) }
        return mask
    }
}
