import LMGeneration
import LMTokenizer

/// A ``TokenGuide`` that splits a `<think>…</think>` block off the front of a response and hands the rest to
/// `inner` (text, a schema's grammar or the tool-call protocol).
///
/// The block's tokens are `.hidden` (never response text); their text is collected in ``reasoning``. They count
/// in ``reasoningTokenCount`` (both markers included) and in the sequence's generated tokens, so they fill the
/// context window like any output, but not against `maximumResponseTokens` (``countsTowardBudget`` is false
/// inside the block), which bounds the answer. Whitespace-only tokens right after `</think>` (Qwen3 writes
/// `"\n\n"`) are hidden too when the inner guide does not mask them. A block is recognised only as the first
/// token of the response, or, when the prompt already opened it (``ReasoningPromptEnd/open``), from the first
/// token on. A prompt that already holds a closed block (``ReasoningPromptEnd/closed``, Qwen3's empty block for
/// `enable_thinking=false`) gets no second one: `<think>` is refused as with ``ReasoningSwitch/off``, never forced.
/// A prompt that opened a block the level turns off (DeepSeek R1's templates always open one) gets `</think>`
/// forced as its first token, so the answer starts at once.
package struct ReasoningGuide<Inner: TokenGuide>: TokenGuide {
    package private(set) var inner: Inner
    let markers: ReasoningMarkers?
    let mode: ReasoningSwitch
    private let isWhitespace: (Int) -> Bool
    private let endOfGeneration: Set<Int>
    private var detokenizer: StreamingDetokenizer

    private enum Phase { case start, reasoning, afterReasoning, answer }
    private var phase: Phase
    private var lastMasked = false
    /// Whether the block the prompt opened is closed at once (``ReasoningSwitch/off`` with ``ReasoningPromptEnd/open``).
    private var closesAtOnce = false

    /// The reasoning text, once a block was opened (nil when the model answered directly).
    package private(set) var reasoning: String?
    /// Tokens of the block, `<think>` and `</think>` included.
    package private(set) var reasoningTokenCount = 0

    /// - Parameters:
    ///   - markers: the vocabulary's markers; nil for a model that cannot reason (then this guide is `inner`).
    ///   - pieces: each token's text, for the reasoning text.
    ///   - isWhitespace: whether a token's text is only whitespace.
    ///   - promptEnd: what the prompt already wrote of a block (its `<think>` is not one of the block's tokens here).
    package init(_ inner: Inner, markers: ReasoningMarkers?, mode: ReasoningSwitch, pieces: TokenPieces,
                 endOfGeneration: Set<Int>, isWhitespace: @escaping (Int) -> Bool, promptEnd: ReasoningPromptEnd = .none) {
        self.inner = inner
        self.markers = markers
        self.mode = markers != nil && promptEnd == .closed ? .off : mode
        self.detokenizer = StreamingDetokenizer(pieces: pieces)
        self.endOfGeneration = endOfGeneration
        self.isWhitespace = isWhitespace
        self.phase = markers == nil ? .answer : .start
        if markers != nil, promptEnd == .open {
            phase = .reasoning
            reasoning = ""
            closesAtOnce = mode == .off
        }
    }

    package mutating func next() throws -> GuideDecision {
        switch phase {
        case .start where mode == .on:
            openBlock()
            return .force(markers?.open ?? -1)  // .start only when markers exist
        case .reasoning where closesAtOnce:
            // A forced token is not passed to accept: the block closes here.
            closesAtOnce = false
            reasoningTokenCount += 1
            closeBlock()
            phase = .afterReasoning
            return .force(markers?.close ?? -1)  // markers exist in .reasoning
        case .reasoning:
            lastMasked = false
            return .sample(masked: false)
        default:
            let decision = try inner.next()
            if case .sample(let masked) = decision { lastMasked = masked } else { lastMasked = true }
            return decision
        }
    }

    package func withMask<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        try inner.withMask(body)
    }

    package mutating func narrow(after token: Int, tokensLeft: Int) throws -> Bool {
        phase == .reasoning ? false : try inner.narrow(after: token, tokensLeft: tokensLeft)
    }

    package mutating func ban(_ token: Int) -> Bool {
        lastMasked = true
        return inner.ban(token)
    }

    package mutating func accept(_ token: Int) throws -> TokenKind {
        switch phase {
        case .start:
            if token == markers?.open ?? -1 {
                if mode == .off { return .rejected }
                openBlock()
                return .hidden
            }
            phase = .answer
            return try inner.accept(token)
        case .reasoning:
            if endOfGeneration.contains(token) {
                closeBlock()
                return .end
            }
            reasoningTokenCount += 1
            if token == markers?.close ?? -1 {
                closeBlock()
                phase = .afterReasoning
            } else {
                reasoning = (reasoning ?? "") + detokenizer.append(token)
            }
            return .hidden
        case .afterReasoning:
            if !lastMasked, isWhitespace(token) { return .hidden }
            phase = .answer
            return try inner.accept(token)
        case .answer:
            return try inner.accept(token)
        }
    }

    package var countsTowardBudget: Bool {
        phase == .reasoning ? false : inner.countsTowardBudget
    }

    private mutating func openBlock() {
        phase = .reasoning
        reasoning = ""
        reasoningTokenCount += 1
    }

    private mutating func closeBlock() {
        reasoning = (reasoning ?? "") + detokenizer.finish()
    }
}
