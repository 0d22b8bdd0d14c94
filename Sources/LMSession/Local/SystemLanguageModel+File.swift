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
        try self.init(fileURL: fileURL, mmprojURL: nil, contextSize: contextSize, threads: threads, useCase: useCase, guardrails: guardrails)
    }

    /// A handle to the GGUF model at `fileURL` with the image encoder and projector at `mmprojURL` (llama.cpp's
    /// `mmproj` GGUF; Idefics3, as SmolVLM's, or Gemma 3's), loaded now: the model reads images (``Attachment``) and
    /// its capabilities include `.vision`. (Not in Apple's API.)
    ///
    /// - Parameters: as ``init(fileURL:contextSize:threads:useCase:guardrails:)``; `mmprojURL` nil for text only.
    /// - Throws: ``LocalModelError`` as ``init(fileURL:contextSize:threads:useCase:guardrails:)``, and
    ///   ``LocalModelError/loadFailed(path:reason:)`` when the `mmproj` file is not one LMVision reads, its
    ///   embeddings are not the text model's width, its images take more rows than one forward pass attends over in
    ///   full (Gemma 3), or the text model's vocabulary lacks the projector's image tokens.
    public convenience init(fileURL: URL, mmprojURL: URL?, contextSize: Int = 4096, threads: Int? = nil,
                            useCase: UseCase = .general, guardrails: Guardrails = .default) throws(LocalModelError) {
        let local = LocalModel(path: fileURL.path, mmprojPath: mmprojURL?.path, contextSize: contextSize, threads: threads)
        _ = try local.loaded()
        self.init(local: local, useCase: useCase, guardrails: guardrails)
    }
}
