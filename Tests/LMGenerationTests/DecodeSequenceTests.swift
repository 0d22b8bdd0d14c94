import LMGeneration
import LMGrammar
import LMTokenizer
import Foundation
import LMTransformer
import Testing
import TestSupport

/// The decode step and its driver on a scripted forward pass: what is sampled, shown, fed, and why
/// decoding stops.
@Suite("Decode step")
struct DecodeSequenceTests {
    typealias V = TinyVocabulary

    /// A forward pass whose greedy choice after the prompt is `script[i]` at step `i` (then end of generation).
    static func scripted(_ script: [Int], prompt: [Int] = [1, 2, 3], contextSize: Int = 1000) -> ScriptedForward {
        ScriptedForward(prompt: prompt, contextSize: contextSize, vocabularySize: V.size) { history in
            let step = history.count - prompt.count
            return ScriptedForward.ranking([step < script.count ? script[step] : V.eos], vocabularySize: V.size)
        }
    }

    static func textSequence(maximumTokens: Int? = nil) -> DecodeSequence<TextGuide> {
        DecodeSequence(guide: TextGuide(endOfGeneration: [V.eos], vocabularySize: V.size),
                       sampler: Sampler(.greedy, seed: 1), pieces: V.pieces, maximumTokens: maximumTokens)
    }

    /// Runs `sequence` to its end, returning the reason and the text shown (deltas joined with "|").
    static func run<Guide>(_ sequence: inout DecodeSequence<Guide>, _ forward: ScriptedForward,
                           cancelAfter: Int = .max) throws -> (StopReason, String) {
        var deltas: [String] = []
        var steps = 0
        let reason = try Decoding.run(&sequence, on: forward, from: forward.firstLogits, isCancelled: {
            defer { steps += 1 }
            return steps >= cancelAfter
        }) { deltas.append($0) }
        let rest = sequence.finish()
        if !rest.isEmpty { deltas.append(rest) }
        return (reason, deltas.joined(separator: "|"))
    }

    @Test func textStopsAtEndOfGenerationWhichIsNeitherShownNorFedNorCounted() throws {
        let forward = Self.scripted(V.ids(["Hello", " world", "!"]))
        var sequence = Self.textSequence()
        let (reason, text) = try Self.run(&sequence, forward)
        #expect(reason == .endOfGeneration)
        #expect(text == "Hello| world|!")
        #expect(forward.tokens == [1, 2, 3] + V.ids(["Hello", " world", "!"]))
        #expect(sequence.generatedCount == 3)
    }

    @Test(arguments: [0, 1, 2, 5])
    func theBudgetStopsAfterThatManyTokensAndTheLastIsNotFed(budget: Int) throws {
        let script = V.ids(["a", "b", "c", "d", "e", "f", "g"])
        let forward = Self.scripted(script)
        var sequence = Self.textSequence(maximumTokens: budget)
        let (reason, text) = try Self.run(&sequence, forward)
        #expect(reason == .maximumTokens)
        #expect(text == ["a", "b", "c", "d", "e"].prefix(budget).joined(separator: "|"))
        #expect(sequence.generatedCount == budget)
        #expect(forward.evaluations == max(0, budget - 1))
    }

    @Test func aFullContextThrowsWithThePositionNeeded() throws {
        let forward = Self.scripted(V.ids(["a", "b", "c", "d"]), contextSize: 5)
        var sequence = Self.textSequence()
        #expect(throws: DecodeError.contextFull(needed: 6, contextSize: 5)) { try Self.run(&sequence, forward) }
        #expect(forward.tokens.count == 5)
    }

    /// Corrupt weights give NaN or infinite logits: decoding stops with a typed error at that position
    /// instead of sampling an arbitrary token (an empty or garbage answer), whichever lane holds it.
    @Test(arguments: [Float.nan, .infinity, -.infinity])
    func nonFiniteLogitsStopDecodingWithTheirPosition(bad: Float) throws {
        for lane in [0, 5, V.size - 1] {
            let prompt = [1, 2, 3]
            let forward = ScriptedForward(prompt: prompt, vocabularySize: V.size) { history in
                var logits = ScriptedForward.ranking([V.id("a")], vocabularySize: V.size)
                if history.count == prompt.count + 2 { logits[lane] = bad }   // after two tokens
                return logits
            }
            var sequence = Self.textSequence()
            #expect(throws: DecodeError.nonFiniteLogits(position: 5)) { try Self.run(&sequence, forward) }
            #expect(forward.tokens == prompt + V.ids(["a", "a"]))
        }
        let finite = [Float](repeating: -3.4e38, count: 13) + [0, 1e-45, 3.4e38]
        #expect(finite.withUnsafeBufferPointer(Decoding.allFinite))
    }

    @Test(arguments: [0, 1, 3])
    func cancellationStopsWithinOneToken(after steps: Int) throws {
        let forward = Self.scripted(Array(repeating: V.id("x"), count: 20))
        var sequence = Self.textSequence()
        let (reason, text) = try Self.run(&sequence, forward, cancelAfter: steps)
        #expect(reason == .cancelled)
        #expect(sequence.generatedCount == steps)
        #expect(text == Array(repeating: "x", count: steps).joined(separator: "|"))
    }

    @Test func aGrammarKeepsTheOutputValidAndEndsWhenTheValueCloses() throws {
        // The "model" wants to write prose; the grammar only allows {"ok":true} or {"ok":false}.
        let grammar = try Grammar(jsonSchema: #"{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}"#)
        let index = TokenIndex(ArrayVocabulary(tokens: V.tokens, endOfGeneration: [V.eos]))
        let guide = GrammarGuide(matcher: GrammarMatcher(grammar: try CompiledGrammar(grammar), index: index), tokenCount: V.size)
        let prose = V.ids(["Hello", " world", "f", "a", "l", "s", "e"])
        let forward = ScriptedForward(prompt: [1], vocabularySize: V.size) { _ in ScriptedForward.ranking(prose + [V.eos], vocabularySize: V.size) }
        var sequence = DecodeSequence(guide: guide, sampler: Sampler(.greedy, seed: 1), pieces: V.pieces, maximumTokens: 100)
        let (reason, text) = try Self.run(&sequence, forward)
        #expect(text.replacingOccurrences(of: "|", with: "") == #"{"ok":false}"#)
        #expect(reason == .endOfGeneration)
    }

    @Test func aGrammarValueClosesWithinTheBudget() throws {
        let grammar = try Grammar(jsonSchema: #"{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}"#)
        let index = TokenIndex(ArrayVocabulary(tokens: V.tokens, endOfGeneration: [V.eos]))
        let guide = GrammarGuide(matcher: GrammarMatcher(grammar: try CompiledGrammar(grammar), index: index), tokenCount: V.size)
        // The model would write "aaaa..." forever.
        let forward = ScriptedForward(prompt: [1], vocabularySize: V.size) { _ in ScriptedForward.ranking(V.ids(["a"]), vocabularySize: V.size) }
        var sequence = DecodeSequence(guide: guide, sampler: Sampler(.greedy, seed: 1), pieces: V.pieces, maximumTokens: 12)
        let (_, text) = try Self.run(&sequence, forward)
        let json = text.replacingOccurrences(of: "|", with: "")
        // Twelve tokens (the "model" ranks high ids first, so `":` and `{"` also serve inside the string),
        // the last two closing the string and the object.
        #expect(json == #"{"s":":aaaaaa{"}"#)
        #expect(sequence.countedCount == 12)
    }

    @Test func aBudgetBelowTheShortestValueThrows() throws {
        let grammar = try Grammar(jsonSchema: #"{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}"#)
        let index = TokenIndex(ArrayVocabulary(tokens: V.tokens, endOfGeneration: [V.eos]))
        let guide = GrammarGuide(matcher: GrammarMatcher(grammar: try CompiledGrammar(grammar), index: index), tokenCount: V.size)
        let forward = ScriptedForward(prompt: [1], vocabularySize: V.size) { _ in ScriptedForward.ranking([], vocabularySize: V.size) }
        var sequence = DecodeSequence(guide: guide, sampler: Sampler(.greedy, seed: 1), pieces: V.pieces, maximumTokens: 4)
        // The shortest value `{"s":""}` is 8 bytes but 6 tokens of this vocabulary (`{"`, `s`, `":`, `"`, `"`, `}`).
        #expect(throws: DecodeError.budgetTooSmall(tokensLeft: 4, needed: 6)) { try Self.run(&sequence, forward) }
    }

    /// A guide that rejects `banned`, holds `<` and the token after it, hides tokens after `#`.
    struct MarkupGuide: TokenGuide {
        var banned: Set<Int>
        var mask: [UInt64] = []
        var masked = false
        var afterHash = false
        var holding = 0

        mutating func next() -> GuideDecision {
            masked = false
            return .sample(masked: false)
        }

        func withMask<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R { try mask.withUnsafeBufferPointer(body) }

        mutating func ban(_ token: Int) -> Bool {
            if !masked { mask = [UInt64](repeating: ~0, count: (V.size + 63) / 64) }
            masked = true
            mask[token >> 6] &= ~(1 << UInt64(token & 63))
            return true
        }

        mutating func accept(_ token: Int) -> TokenKind {
            if token == V.eos { return .end }
            if banned.contains(token) { return .rejected }
            if afterHash || token == V.id("#") { afterHash = true; return .hidden }
            if token == V.id("<") { holding = 2; return .held }
            if holding > 0 { holding -= 1; return holding > 0 ? .held : .text }
            return .text
        }

        var countsTowardBudget: Bool { !afterHash }
    }

    @Test func rejectedTokensAreBannedAndSampledAgainAmongTheRest() throws {
        // The model prefers "x", then "y", then "z"; "x" and "y" are rejected.
        let forward = ScriptedForward(prompt: [1], vocabularySize: V.size) { history in
            history.count >= 4 ? ScriptedForward.ranking([V.eos], vocabularySize: V.size)
                : ScriptedForward.ranking(V.ids(["x", "y", "z"]), vocabularySize: V.size)
        }
        var sequence = DecodeSequence(guide: MarkupGuide(banned: Set(V.ids(["x", "y"]))), sampler: Sampler(.greedy, seed: 1),
                                      pieces: V.pieces, maximumTokens: nil)
        let (_, text) = try Self.run(&sequence, forward)
        #expect(text == "z|z|z")
    }

    @Test func heldTextIsShownOnceDecidedAndHiddenTokensDropIt() throws {
        let shown = Self.scripted(V.ids(["a", "<", "b", "c", "d"]))
        var sequence = DecodeSequence(guide: MarkupGuide(banned: []), sampler: Sampler(.greedy, seed: 1), pieces: V.pieces, maximumTokens: nil)
        #expect(try Self.run(&sequence, shown).1 == "a|<bc|d")

        let hidden = Self.scripted(V.ids(["a", "<", "#", "c", "d"]))
        sequence = DecodeSequence(guide: MarkupGuide(banned: []), sampler: Sampler(.greedy, seed: 1), pieces: V.pieces, maximumTokens: 3)
        let (reason, text) = try Self.run(&sequence, hidden)
        #expect(text == "a")
        // Hidden tokens do not count against the budget: all five were generated.
        #expect(sequence.generatedCount == 5)
        #expect(reason == .endOfGeneration)
    }
}
