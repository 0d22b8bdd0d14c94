import LMGeneration
import LMTokenizer

/// The tokens that open and close a reasoning block in a model's output (Qwen3's `<think>` and `</think>`),
/// found in the vocabulary. Recognised on the output side only: how the prompt was rendered (a native
/// template or the GGUF's Jinja one, with or without `enable_thinking`) does not matter here.
package struct ReasoningMarkers: Sendable, Equatable {
    /// `<think>`.
    package let open: Int
    /// `</think>`.
    package let close: Int

    package init(open: Int, close: Int) {
        self.open = open
        self.close = close
    }

    /// The markers of `tokenizer`: both texts must be single vocabulary entries. nil for a model without them
    /// (SmolLM2, Gemma 3), which cannot reason separately.
    package init?(_ tokenizer: Tokenizer) {
        guard let open = tokenizer.tokenID(forText: "<think>"), let close = tokenizer.tokenID(forText: "</think>") else { return nil }
        self.init(open: open, close: close)
    }
}

/// How a request's ``ContextOptions/reasoningLevel`` drives a model with a thinking switch (Qwen3's
/// `enable_thinking`). The switch is binary: any level turns it on, so `.light`, `.moderate`, `.deep` and
/// `.custom` levels other than the "off" spellings behave alike.
package enum ReasoningSwitch: Sendable, Equatable {
    /// No level: the model decides (Qwen3's template default is to think; under a schema or tool-call mask the
    /// model cannot open the block unless forced, so it answers directly).
    case modelDefault
    /// A level was given: the response starts with the open marker (forced), so the model always reasons first.
    case on
    /// `.custom("none")`, `.custom("off")` or `.custom("disabled")`: the open marker is refused, as
    /// `enable_thinking=false` does in Qwen3's template (which writes an empty block into the prompt).
    case off

    package init(_ level: ContextOptions.ReasoningLevel?) {
        switch level {
        case nil: self = .modelDefault
        case .custom(let name) where ["none", "off", "disabled"].contains(name.lowercased()): self = .off
        default: self = .on
        }
    }

    /// The value for a chat template's `enable_thinking` variable: nil leaves the template's default.
    package var enableThinking: Bool? {
        switch self {
        case .modelDefault: nil
        case .on: true
        case .off: false
        }
    }
}

/// A ``TokenGuide`` that splits a `<think>…</think>` block off the front of a response and hands the rest to
/// `inner` (text, a schema's grammar or the tool-call protocol).
///
/// The block's tokens are `.hidden` (never response text); their text is collected in ``reasoning``. They count
/// in ``reasoningTokenCount`` (both markers included) and in the sequence's generated tokens, so they fill the
/// context window like any output, but not against `maximumResponseTokens` (``countsTowardBudget`` is false
/// inside the block), which bounds the answer. Whitespace-only tokens right after `</think>` (Qwen3 writes
/// `"\n\n"`) are hidden too when the inner guide does not mask them. A block is recognised only as the first
/// token of the response.
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

    /// The reasoning text, once a block was opened (nil when the model answered directly).
    package private(set) var reasoning: String?
    /// Tokens of the block, `<think>` and `</think>` included.
    package private(set) var reasoningTokenCount = 0

    /// - Parameters:
    ///   - markers: the vocabulary's markers; nil for a model that cannot reason (then this guide is `inner`).
    ///   - pieces: each token's text, for the reasoning text.
    ///   - isWhitespace: whether a token's text is only whitespace.
    package init(_ inner: Inner, markers: ReasoningMarkers?, mode: ReasoningSwitch, pieces: TokenPieces,
                 endOfGeneration: Set<Int>, isWhitespace: @escaping (Int) -> Bool) {
        self.inner = inner
        self.markers = markers
        self.mode = mode
        self.detokenizer = StreamingDetokenizer(pieces: pieces)
        self.endOfGeneration = endOfGeneration
        self.isWhitespace = isWhitespace
        self.phase = markers == nil ? .answer : .start
    }

    package mutating func next() throws -> GuideDecision {
        switch phase {
        case .start where mode == .on:
            openBlock()
            return .force(markers?.open ?? -1)  // .start only when markers exist
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
