/// What a guide wants the next decode step to do.
public enum GuideDecision: Equatable, Sendable {
    /// Sample a token; when `masked`, only among the tokens of the guide's mask (``TokenGuide/withMask(_:)``).
    case sample(masked: Bool)
    /// Append this token without sampling (text a convention fixes, such as a tool call's closing tag).
    case force(Int)
    /// Nothing more may be generated (the grammar's value is complete and closed, or the tool calls are).
    case end
}

/// What a sampled token turned out to be.
public enum TokenKind: Equatable, Sendable {
    /// Response text: show it, with anything held before it.
    case text
    /// Response text that may turn out to be markup (the start of `<tool_call>`): hold it back until
    /// that is decided.
    case held
    /// Not response text (part of a tool call): anything held is dropped.
    case hidden
    /// The end of generation.
    case end
    /// Not allowed here: the step bans it and samples again.
    case rejected
}

/// The rules a sequence's tokens follow: a grammar (structured output), the tool-call protocol, or
/// none (``TextGuide``). The decode step asks it before sampling (``next()``), samples within its mask,
/// and hands it the token (``accept(_:)``).
///
/// A guide owns its mask (a bitset over the vocabulary: bit `i % 64` of word `i / 64` is token `i`), so
/// a step allocates nothing for it.
public protocol TokenGuide {
    /// What to do next. Called once per step, before sampling.
    /// - Throws: whatever the guide reports as a failure (the step passes it on).
    mutating func next() throws -> GuideDecision

    /// Calls `body` with the mask of the last ``GuideDecision/sample(masked:)`` with `masked` true (or
    /// after ``ban(_:)``).
    func withMask<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R

    /// Keeps the guided value closable within the response's token budget: `token` was sampled from
    /// the mask with `tokensLeft` tokens of budget left (this one included). When `token` would leave the
    /// value unable to close in the rest, narrows the mask to the tokens that keep it closable and
    /// returns true (the step samples again); returns false when `token` fits.
    /// - Throws: ``DecodeError/budgetTooSmall(tokensLeft:needed:)`` when no token fits.
    mutating func narrow(after token: Int, tokensLeft: Int) throws -> Bool

    /// Removes `token` from the mask after ``accept(_:)`` rejected it (an unmasked step gets a full mask
    /// first). Returns false when no token is left.
    mutating func ban(_ token: Int) -> Bool

    /// Takes the sampled `token`.
    mutating func accept(_ token: Int) throws -> TokenKind

    /// Whether the tokens generated now count against the response's token budget (false while a tool
    /// call is written: a small answer budget must not cut a call).
    var countsTowardBudget: Bool { get }
}

extension TokenGuide {
    public mutating func narrow(after token: Int, tokensLeft: Int) throws -> Bool { false }
    public var countsTowardBudget: Bool { true }
}

/// A mask of `tokenCount` tokens, every one allowed.
func fullMask(_ mask: inout [UInt64], tokenCount: Int) {
    let words = (tokenCount + 63) / 64
    if mask.count != words { mask = [UInt64](repeating: 0, count: words) }
    mask.withUnsafeMutableBufferPointer { $0.update(repeating: ~0) }
    let spare = words * 64 - tokenCount
    if spare > 0 { mask[words - 1] >>= UInt64(spare) }
}

/// Clears `token`'s bit; returns whether any bit is left.
func clear(_ token: Int, in mask: inout [UInt64]) -> Bool {
    if token >= 0, token >> 6 < mask.count { mask[token >> 6] &= ~(1 << UInt64(token & 63)) }
    return mask.contains { $0 != 0 }
}
