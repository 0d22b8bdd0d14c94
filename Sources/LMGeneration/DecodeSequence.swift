import LMTokenizer
import LMTransformer

/// Why a sequence stopped generating.
public enum StopReason: Equatable, Sendable {
    /// The model (or the guide) ended generation with an end-of-generation token.
    case endOfGeneration
    /// The guide allows nothing more: the grammar's value is closed, or the tool calls are complete.
    case guideEnded
    /// The token budget is spent.
    case maximumTokens
    /// The consumer stopped the sequence.
    case cancelled
}

/// What one decode step decided.
public enum DecodeStep: Equatable, Sendable {
    /// Feed `token` to the forward pass (unless ``DecodeSequence/isFinished``); `text` is the response
    /// text it completes (often empty: a held token, a tool call, a character split across tokens).
    case token(Int, text: String)
    /// The sequence is done; nothing to feed.
    case stop(StopReason)
}

/// One sequence's decoding state, apart from the model: its sampler, its guide (grammar, tool calls or
/// none), its detokenizer, counters and stop rules. ``step(logits:history:)`` is the decode step:
/// sample -> constrain -> accept -> detokenize. The forward pass that produces the next logits is the
/// driver's (``Decoding/run(_:on:from:isCancelled:onText:)`` for one sequence; a batching scheduler
/// steps many sequences, then runs one forward pass for all of them).
///
/// Stop rules, all here: an end-of-generation token (the guide's `.end`), the guide allowing nothing more,
/// `maximumTokens` counted tokens (tokens of a tool call do not count, see ``TokenGuide/countsTowardBudget``),
/// and, in the driver, a full context (``DecodeError/contextFull(needed:contextSize:)``) and cancellation.
///
/// For unguided text (``TextGuide``) a step allocates nothing once warm, apart from texts longer than
/// 15 UTF-8 bytes.
public struct DecodeSequence<Guide: TokenGuide> {
    public var guide: Guide
    public private(set) var sampler: Sampler
    private var detokenizer: StreamingDetokenizer
    /// Counted tokens allowed (`maximumResponseTokens`); nil for no budget.
    public let maximumTokens: Int?
    /// Tokens chosen so far, every kind (usage), the end-of-generation token excluded.
    public private(set) var generatedCount = 0
    /// Tokens chosen so far that count against ``maximumTokens``.
    public private(set) var countedCount = 0
    /// Text held back while it may be markup.
    private var held = ""

    /// - Parameters:
    ///   - guide: the rules the tokens follow.
    ///   - sampler: chooses among the allowed tokens.
    ///   - pieces: each token's text (``Tokenizer/pieces``).
    ///   - maximumTokens: the token budget (negative counts as 0); nil for none.
    public init(guide: Guide, sampler: Sampler, pieces: TokenPieces, maximumTokens: Int?) {
        self.guide = guide
        self.sampler = sampler
        self.detokenizer = StreamingDetokenizer(pieces: pieces)
        self.maximumTokens = maximumTokens.map { max(0, $0) }
    }

    /// True when the budget is spent (and the guide is not inside a tool call): the token just chosen
    /// is the last, and needs no forward pass.
    public var isFinished: Bool {
        guard let maximumTokens else { return false }
        return countedCount >= maximumTokens && guide.countsTowardBudget
    }

    /// Chooses the next token from `logits`, the model's output after the last token fed.
    /// - Parameters:
    ///   - logits: `[vocabSize]`.
    ///   - history: the tokens in the sequence so far (the sampler penalises the recent ones).
    /// - Throws: ``DecodeError`` (`budgetTooSmall`, `noTokenAllowed`) or the guide's error.
    public mutating func step(logits: UnsafeBufferPointer<Float>, history: ArraySlice<Int>) throws -> DecodeStep {
        if isFinished { return .stop(.maximumTokens) }
        switch try guide.next() {
        case .end:
            return .stop(.guideEnded)
        case .force(let token):
            generatedCount += 1
            held = ""
            return .token(token, text: "")
        case .sample(var masked):
            var token = sample(logits, history, masked: masked)
            if masked, let maximumTokens, try guide.narrow(after: token, tokensLeft: maximumTokens - countedCount) {
                token = sample(logits, history, masked: true)
            }
            var kind = try guide.accept(token)
            while kind == .rejected {
                guard guide.ban(token) else { throw DecodeError.noTokenAllowed }
                masked = true
                token = sample(logits, history, masked: true)
                kind = try guide.accept(token)
            }
            switch kind {
            case .end, .rejected:
                return .stop(.endOfGeneration)
            case .text:
                generatedCount += 1
                countedCount += 1
                let piece = detokenizer.append(token)
                if held.isEmpty { return .token(token, text: piece) }
                defer { held = "" }
                return .token(token, text: held + piece)
            case .held:
                generatedCount += 1
                countedCount += 1
                held += detokenizer.append(token)
                return .token(token, text: "")
            case .hidden:
                generatedCount += 1
                held = ""
                return .token(token, text: "")
            }
        }
    }

    /// The text still held back (an unfinished character, text that could have been markup); call once
    /// the sequence stopped without tool calls.
    public mutating func finish() -> String {
        defer { held = "" }
        return held + detokenizer.finish()
    }

    private mutating func sample(_ logits: UnsafeBufferPointer<Float>, _ history: ArraySlice<Int>, masked: Bool) -> Int {
        guard masked else { return sampler.sample(logits, recentTokens: history) }
        return guide.withMask { sampler.sample(logits, recentTokens: history, allowed: $0) }
    }
}
