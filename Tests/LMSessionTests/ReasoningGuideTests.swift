import Foundation
import LMSession
import Testing
import TestSupport

/// The local decode path's reasoning split (`ReasoningGuide` inside `LocalDecoding`) with a teacher-forced
/// "model": ``ToyVocabulary`` plus `<think>` and `</think>` tokens, and a script of the tokens it wants, in order.
@Suite struct ReasoningGuideTests {
    static let toy = ToyVocabulary()
    static let open = toy.tokens.count, close = toy.tokens.count + 1
    static let tokens = toy.tokens + [Array("<think>".utf8), Array("</think>".utf8)]

    /// Each character of `text` as a token.
    static func chars(_ text: String) -> [Int] { toy.characters(text) }

    /// Runs one model call of `request` whose "model" wants `script[i]` at step `i` (then to end), and at the
    /// first step `runnerUp` next.
    static func run(_ request: LanguageModelRequest, script: [Int], runnerUp: Int? = nil, markers: Bool = true,
                    promptEnd: ReasoningPromptEnd = .none) throws -> [LanguageModelEvent] {
        let vocabulary = DecodeVocabulary(tokens: tokens, endOfGeneration: [ToyVocabulary.eos], envelope: toy.envelope(isList: false),
                                          reasoningMarkers: markers ? ReasoningMarkers(open: open, close: close) : nil)
        let forward = ScriptedForward(prompt: [ToyVocabulary.eos], vocabularySize: tokens.count) { history in
            let step = history.count - 1
            let wanted = step < script.count ? script[step] : ToyVocabulary.eos
            return ScriptedForward.ranking(step == 0 ? [wanted] + (runnerUp.map { [$0] } ?? []) : [wanted], vocabularySize: tokens.count)
        }
        var events: [LanguageModelEvent] = []
        try LocalDecoding.run(request, vocabulary: vocabulary, forward: forward, logits: forward.firstLogits,
                              promptCount: 1, cached: 0, promptEnd: promptEnd, isCancelled: { false }) { events.append($0) }
        return events
    }

    static func request(_ level: ContextOptions.ReasoningLevel?, schema: GenerationSchema? = nil,
                        tools: [Transcript.ToolDefinition] = []) -> LanguageModelRequest {
        LanguageModelRequest(transcript: Transcript(), options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 100),
                             schema: schema, toolDefinitions: tools, contextOptions: ContextOptions(reasoningLevel: level))
    }

    static func reasoning(_ events: [LanguageModelEvent]) -> [String] {
        events.compactMap { if case .reasoning(let text, _) = $0 { text } else { nil } }
    }

    static func usage(_ events: [LanguageModelEvent]) -> LanguageModelUsage? {
        events.compactMap { if case .usage(let u) = $0 { u } else { nil } }.last
    }

    @Test func theBlockAndTheLineBreaksAfterItNeverReachTheText() throws {
        let events = try Self.run(Self.request(nil), script: [Self.open] + Self.chars("\nHm\n") + [Self.close] + Self.chars("\n\nOK"))
        #expect(ScriptedDecoding.text(events) == "OK")
        #expect(Self.reasoning(events) == ["Hm"])
        // <think>, "\n", "H", "m", "\n", </think>; then 2 hidden line breaks and "O", "K".
        #expect(Self.usage(events) == LanguageModelUsage(inputTokens: 1, outputTokens: 10, reasoningTokens: 6))
    }

    @Test func aModelWithoutMarkersWritesThemAsText() throws {
        let events = try Self.run(Self.request(.deep), script: [Self.open] + Self.chars("Hm") + [Self.close] + Self.chars("OK"), markers: false)
        #expect(ScriptedDecoding.text(events) == "<think>Hm</think>OK")
        #expect(Self.reasoning(events).isEmpty)
        #expect(Self.usage(events)?.reasoningTokens == 0)
    }

    @Test func aLevelOpensTheBlockBeforeAStructuredAnswer() throws {
        // Under the schema's mask the model could not open the block itself; the level forces it.
        let script = [Self.open] + Self.chars("Hm") + [Self.close] + Self.chars("42")
        let events = try Self.run(Self.request(.deep, schema: Int.generationSchema), script: script)
        #expect(ScriptedDecoding.text(events) == "42")
        #expect(Self.reasoning(events) == ["Hm"])
        #expect(Self.usage(events)?.reasoningTokens == 4)
        #expect(Self.usage(events)?.outputTokens == 6)
    }

    /// With a level the block is forced; without one the model opens it itself (text is unmasked before a call).
    @Test(arguments: [ContextOptions.ReasoningLevel.moderate, nil])
    func reasoningComesBeforeTheToolCallsOfItsStep(_ level: ContextOptions.ReasoningLevel?) throws {
        let call = #"<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}"#
        let events = try Self.run(Self.request(level, tools: ToolCallDecoderTests.tools),
                                  script: [Self.open] + Self.chars("Rain?") + [Self.close] + Self.chars(call))
        let kinds = events.map { event -> String in
            switch event {
            case .reasoning: "reasoning"
            case .toolCalls: "toolCalls"
            case .usage: "usage"
            case .text(let t): "text(\(t))"
            default: "other"
            }
        }
        #expect(kinds == ["reasoning", "toolCalls", "usage"])
        #expect(Self.reasoning(events) == ["Rain?"])
        let calls = events.compactMap { if case .toolCalls(let calls) = $0 { calls } else { nil } }.first
        #expect(calls?.map(\.toolName) == ["get_weather"])
        #expect(Self.usage(events)?.reasoningTokens == 7)
    }

    @Test(arguments: ["none", "off", "Disabled"])
    func theOffSpellingsRefuseTheBlock(_ name: String) throws {
        // The model wants <think> first; refused, its runner-up "N" starts the answer, and no reasoning is recorded.
        let events = try Self.run(Self.request(.custom(name)), script: [Self.open] + Self.chars("o"), runnerUp: Self.toy.id("N"))
        #expect(ScriptedDecoding.text(events) == "No")
        #expect(Self.reasoning(events).isEmpty)
        #expect(Self.usage(events) == LanguageModelUsage(inputTokens: 1, outputTokens: 2, reasoningTokens: 0))
    }

    /// The template already wrote an empty block (Qwen3 with `enable_thinking=false`): `<think>` is refused, never
    /// forced, whatever the level, so the prompt never holds two blocks.
    @Test(arguments: [ContextOptions.ReasoningLevel.deep, nil])
    func aPromptThatClosedABlockGetsNoSecondOne(_ level: ContextOptions.ReasoningLevel?) throws {
        let events = try Self.run(Self.request(level), script: [Self.open] + Self.chars("o"), runnerUp: Self.toy.id("N"), promptEnd: .closed)
        #expect(ScriptedDecoding.text(events) == "No")
        #expect(Self.reasoning(events).isEmpty)
        #expect(Self.usage(events) == LanguageModelUsage(inputTokens: 1, outputTokens: 2, reasoningTokens: 0))
    }

    /// The template already wrote `<think>`: the response starts inside the block (its `<think>` is the prompt's, not
    /// a reasoning token), and a level does not force a second one.
    @Test(arguments: [ContextOptions.ReasoningLevel.deep, nil])
    func aPromptThatOpenedABlockStartsInsideIt(_ level: ContextOptions.ReasoningLevel?) throws {
        let events = try Self.run(Self.request(level), script: Self.chars("Hm") + [Self.close] + Self.chars("\nOK"), promptEnd: .open)
        #expect(ScriptedDecoding.text(events) == "OK")
        #expect(Self.reasoning(events) == ["Hm"])
        #expect(Self.usage(events) == LanguageModelUsage(inputTokens: 1, outputTokens: 6, reasoningTokens: 3))
    }

    /// The prompt opened a block (R1's templates always do) and the level turns reasoning off: `</think>` is forced
    /// first, so the model answers at once instead of reasoning anyway.
    @Test func aPromptThatOpenedABlockClosesItWhenReasoningIsOff() throws {
        let events = try Self.run(Self.request(.custom("off")), script: [Self.toy.id("N")] + Self.chars("OK"), promptEnd: .open)
        #expect(ScriptedDecoding.text(events) == "OK")
        #expect(Self.reasoning(events).isEmpty)
        #expect(Self.usage(events) == LanguageModelUsage(inputTokens: 1, outputTokens: 3, reasoningTokens: 1))
    }

    /// (prompt's last tokens, end): whitespace after a marker is skipped.
    @Test(arguments: [([5, open], ReasoningPromptEnd.open), ([open, 10, 10], .open), ([open, 10, close, 10, 10], .closed),
                      ([close], .closed), ([5, 6], .none), ([], .none), ([close, 5], .none)])
    func thePromptsEndIsReadFromItsLastToken(_ prompt: [Int], _ end: ReasoningPromptEnd) {
        let newline = Self.toy.id("\n")
        let tokens = prompt.map { $0 == 10 ? newline : $0 }
        #expect(ReasoningPromptEnd(tokens, markers: ReasoningMarkers(open: Self.open, close: Self.close),
                                   isWhitespace: { $0 == newline }) == end)
        #expect(ReasoningPromptEnd(tokens, markers: nil, isWhitespace: { $0 == newline }) == .none)
    }

    @Test(arguments: [(ContextOptions.ReasoningLevel?.none, Bool?.none), (.light, true), (.deep, true), (.custom("high"), true),
                      (.custom("none"), false), (.custom("OFF"), false)])
    func levelsMapToTheTemplatesSwitch(_ level: ContextOptions.ReasoningLevel?, _ enableThinking: Bool?) {
        #expect(ReasoningSwitch(level).enableThinking == enableThinking)
    }
}
