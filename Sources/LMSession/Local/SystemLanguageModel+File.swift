import Foundation

extension SystemLanguageModel {
    /// A handle to the GGUF model at `fileURL`, loaded now. (Not in Apple's API.)
    ///
    /// - Parameters:
    ///   - contextSize: tokens per session (default 4096), capped by the model's trained context length.
    ///   - threads: threads per forward pass, 1...64 (default: the runtime's choice).
    /// - Throws: ``LocalModelError`` when the file is missing, is not a model we can run, has an unsupported chat
    ///   template, `contextSize` is below 1 or `threads` is outside 1...64.
    public convenience init(fileURL: URL, contextSize: Int = 4096, threads: Int? = nil,
                            useCase: UseCase = .general, guardrails: Guardrails = .default) throws(LocalModelError) {
        let provider = LocalTransformerProvider(path: fileURL.path, contextSize: contextSize, threads: threads)
        _ = try provider.loaded()
        self.init(provider: provider, useCase: useCase, guardrails: guardrails)
    }
}
