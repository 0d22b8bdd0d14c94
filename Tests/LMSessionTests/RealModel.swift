import Foundation
import LMSession
import TestSupport

/// The real SmolLM2 model, loaded once for every real-model test (set explicitly, not through the
/// environment), with greedy options capped to keep tests short.
enum RealModel {
    static let path: String = (try? TestModels.path(TestModels.smolLM2)) ?? "Models/\(TestModels.smolLM2.file)"

    /// One provider (one loaded model) shared by the tests that use the default 4096-token context.
    static let provider = LocalTransformerProvider(path: path)
    static let model = SystemLanguageModel(provider: provider)

    /// Greedy, at most `tokens` tokens.
    static func greedy(_ tokens: Int) -> GenerationOptions {
        GenerationOptions(samplingMode: .greedy, maximumResponseTokens: tokens)
    }
}
