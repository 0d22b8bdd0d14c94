import LMGGUF
import LMTokenizer

/// A loaded model: the memory-mapped GGUF, its tokenizer, hyperparameters and weight views.
/// Immutable after loading, so one instance is shared read-only by every ``InferenceContext``.
public final class TransformerModel: Sendable {
    public let file: GGUFFile
    public let tokenizer: Tokenizer
    public let config: ModelConfig
    /// Path the model was loaded from.
    public let path: String
    let decoder: Decoder

    /// Maps and validates the GGUF at `path`. Weights stay in the mapping; nothing large is copied.
    /// - Throws: ``ModelLoadError`` when the file, its tokenizer, its architecture, a tensor or a
    ///   hyperparameter is invalid, something in it is not implemented (``ModelLoadError/unsupported(_:)``), or it
    ///   is an `mmproj` file (``ModelLoadError/visionProjector``).
    public convenience init(path: String) throws(ModelLoadError) {
        let file: GGUFFile
        do { file = try GGUFFile(path: path) } catch { throw .file(error) }
        try self.init(file: file, path: path)
    }

    /// Validates an already mapped GGUF (`path` only names it).
    /// - Throws: as ``init(path:)``.
    public init(file: GGUFFile, path: String) throws(ModelLoadError) {
        try Self.refuseVisionProjector(file)
        let tokenizer: Tokenizer
        do { tokenizer = try Tokenizer(gguf: file) } catch { throw .tokenizer(error) }
        let config = try ModelConfig(file: file, vocabSize: tokenizer.vocabularySize)
        self.file = file
        self.tokenizer = tokenizer
        self.config = config
        self.path = path
        self.decoder = try Decoder(config: config, tensors: TensorLookup(file: file))
    }

    /// Throws ``ModelLoadError/visionProjector`` when `file` is llama.cpp's `mmproj` (`general.architecture`
    /// `clip`): an image encoder that goes beside a text model, whose loading would otherwise fail on a missing
    /// tokenizer.
    public static func refuseVisionProjector(_ file: GGUFFile) throws(ModelLoadError) {
        if file["general.architecture"]?.string == "clip" { throw .visionProjector }
    }

    /// What the model is (`general.architecture`).
    public var architecture: Architecture { config.architecture }

    /// `general.name`, or the file name.
    public var name: String {
        file["general.name"]?.string ?? String(path.split(separator: "/").last ?? Substring(path))
    }
}
