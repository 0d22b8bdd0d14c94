import Foundation
import LMTransformer
import TestSupport

/// Models loaded once per test process and shared by the suites (loading maps the file; the
/// model is immutable, so sharing is safe).
enum ReferenceModels {
    static let smolLM2: Result<TransformerModel, any Error> = Result { try TransformerModel(path: TestModels.path(TestModels.smolLM2)) }
    static let gemma3: Result<TransformerModel, any Error> = Result { try TransformerModel(path: TestModels.path(TestModels.gemma3)) }

    /// The model named by a reference file's `model` field.
    static func model(forReferenceName name: String) throws -> TransformerModel {
        try (name.lowercased().contains("gemma") ? gemma3 : smolLM2).get()
    }
}

/// One line of `greedy.jsonl`: a prompt, llama.cpp's greedy continuation and its logits.
struct GreedyReference: CustomStringConvertible, Sendable {
    let model: String
    let promptIDs: [Int]
    let generatedIDs: [Int]
    /// `(token, logit)` of the ten best tokens at the first step.
    let firstStepTop10: [(Int, Float)]
    /// Per step: best token, its logit, runner-up token, its logit.
    let steps: [(Int, Float, Int, Float)]

    var description: String { "\(model): \(promptIDs.count) prompt tokens" }

    static func all() throws -> [GreedyReference] {
        try TestPaths.jsonLines("greedy.jsonl").map { j in
            let top10 = (j["first_step_top10_logits"] as? [[Double]] ?? []).map { (Int($0[0]), Float($0[1])) }
            let steps = (j["steps_top2_logits"] as? [[Double]] ?? []).map { (Int($0[0]), Float($0[1]), Int($0[2]), Float($0[3])) }
            return GreedyReference(model: j["model"] as? String ?? "", promptIDs: j["prompt_ids"] as? [Int] ?? [],
                                   generatedIDs: j["generated_ids"] as? [Int] ?? [], firstStepTop10: top10, steps: steps)
        }
    }
}
