import Testing
import LMTransformer
import TestSupport

/// Feeds llama.cpp's greedy tokens back into our model (teacher forcing) and compares logits.
/// Greedy output itself has near-ties, so only steps with a clear reference margin are compared.
@Suite("Teacher-forced greedy decoding matches llama.cpp")
struct TeacherForcedTests {
    static let references = (try? GreedyReference.all()) ?? []

    @Test("the reference top-10 logits at the first step agree within 0.1", arguments: references)
    func firstStepLogitsAgree(_ ref: GreedyReference) throws {
        let model = try ReferenceModels.model(forReferenceName: ref.model)
        let context = try InferenceContext(model: model, contextSize: 512)
        let logits = try context.evaluate(ref.promptIDs)
        #expect(!ref.firstStepTop10.isEmpty)
        for (token, expected) in ref.firstStepTop10 {
            #expect(abs(logits[token] - expected) < 0.1, "token \(token): ours \(logits[token]), llama.cpp \(expected)")
        }
    }

    @Test("our top-1 token equals llama.cpp's wherever its top-2 margin exceeds 0.1", arguments: references)
    func topTokenMatchesWhereClear(_ ref: GreedyReference) throws {
        let model = try ReferenceModels.model(forReferenceName: ref.model)
        let context = try InferenceContext(model: model, contextSize: 512)
        var logits = try context.evaluate(ref.promptIDs)
        var compared = 0
        for (step, (best, bestLogit, _, secondLogit)) in ref.steps.enumerated() {
            if bestLogit - secondLogit > 0.1 {
                #expect(Sampler.argmax(logits) == best, "step \(step): ours \(Sampler.argmax(logits)), llama.cpp \(best)")
                compared += 1
            }
            guard step < ref.generatedIDs.count else { break }
            logits = try context.evaluate([ref.generatedIDs[step]])
        }
        #expect(compared > ref.steps.count / 2)
    }
}
