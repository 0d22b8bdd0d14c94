import LMGeneration
import LMSession
import TestSupport

/// The local model's decode path (`LocalDecoding`, what `LocalConversation` runs after prefill) over
/// ``ToyVocabulary`` with a scripted forward pass instead of a model: the "model" prefers what `logits`
/// says at each step.
enum ScriptedDecoding {
    static let vocabulary = ToyVocabulary()

    static func decodeVocabulary(isList: Bool = false) -> DecodeVocabulary {
        DecodeVocabulary(tokens: vocabulary.tokens, endOfGeneration: [ToyVocabulary.eos], envelope: vocabulary.envelope(isList: isList))
    }

    /// The events of one model call of `request`; `logits(history)` gives the logits after each history
    /// (the prompt is one token). Events emitted before an error are passed to `onEvent` too.
    static func run(_ request: LanguageModelRequest, isList: Bool = false,
                    logits: @escaping ([Int]) -> [Float], onEvent: (LanguageModelEvent) -> Void = { _ in }) throws -> [LanguageModelEvent] {
        let forward = ScriptedForward(prompt: [ToyVocabulary.eos], vocabularySize: vocabulary.tokens.count, script: logits)
        var events: [LanguageModelEvent] = []
        try LocalDecoding.run(request, vocabulary: decodeVocabulary(isList: isList), forward: forward, logits: forward.firstLogits,
                              promptCount: 1, cached: 0, isCancelled: { false }) { event in
            events.append(event)
            onEvent(event)
        }
        return events
    }

    /// The response text of `events`, joined.
    static func text(_ events: [LanguageModelEvent]) -> String {
        events.map { if case .text(let t) = $0 { t } else { "" } }.joined()
    }

    /// The output tokens of `events`' usage.
    static func outputTokens(_ events: [LanguageModelEvent]) -> Int {
        events.compactMap { if case .usage(let u) = $0 { u.outputTokens } else { nil } }.last ?? -1
    }
}
