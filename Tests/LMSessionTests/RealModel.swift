import Foundation
import LMSession
import TestSupport

/// The real SmolLM2 model, loaded once for every real-model test (set explicitly, not through the
/// environment), with greedy options capped to keep tests short.
enum RealModel {
    static let path: String = (try? TestModels.path(TestModels.smolLM2)) ?? "Models/\(TestModels.smolLM2.file)"

    /// One loaded model shared by the tests that use the default 4096-token context.
    static let model = SystemLanguageModel(path: path)

    /// Greedy, at most `tokens` tokens.
    static func greedy(_ tokens: Int) -> GenerationOptions {
        GenerationOptions(samplingMode: .greedy, maximumResponseTokens: tokens)
    }
}
