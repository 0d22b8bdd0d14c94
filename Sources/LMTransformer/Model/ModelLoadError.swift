import LMGGUF
import LMJinja
import LMTokenizer

/// Why a model could not be loaded.
public enum ModelLoadError: Error, Sendable, CustomStringConvertible {
    /// The GGUF file itself is invalid.
    case file(GGUFError)
    /// The tokenizer metadata is invalid.
    case tokenizer(TokenizerError)
    /// `general.architecture` names an architecture this runtime does not implement.
    case unsupportedArchitecture(String)
    /// The file is a vision projector (`general.architecture` `clip`: llama.cpp's `mmproj`), which goes beside a text
    /// model rather than in place of one.
    case visionProjector
    /// A required metadata key is absent or has the wrong type.
    case missingKey(String)
    /// Keys, values or tensors of the file that the runtime does not implement, all of them:
    /// running the file without them would compute something else than it describes.
    case unsupported([Unsupported])
    /// A required tensor is absent.
    case missingTensor(String)
    /// A tensor's shape does not match the hyperparameters: `expected` and `found` are outermost-first.
    case badShape(tensor: String, expected: [Int], found: [Int])
    /// Hyperparameters that cannot describe a working model.
    case invalidHyperparameters(String)
    /// The chat template is not one LMSession can render.
    case unknownChatTemplate(String)
    /// The GGUF's Jinja chat template (`tokenizer.chat_template`) does not load.
    case chatTemplate(JinjaError)

    public var description: String {
        switch self {
        case let .file(e): "invalid GGUF file: \(e)"
        case let .tokenizer(e): "invalid tokenizer: \(e)"
        case let .unsupportedArchitecture(a):
            "unsupported architecture \"\(a)\" (supported: \(Architecture.all.map(\.name).joined(separator: ", ")))"
        case .visionProjector:
            "this is an mmproj file (an image encoder, architecture \"clip\"), not a language model: load it beside its text model (mmprojURL:, --mmproj)"
        case let .unsupported(items): "not implemented: " + items.map(\.description).joined(separator: "; ")
        case let .missingKey(k): "missing or invalid metadata key \"\(k)\""
        case let .missingTensor(t): "missing tensor \"\(t)\""
        case let .badShape(t, e, f): "tensor \"\(t)\": shape \(f), expected \(e)"
        case let .invalidHyperparameters(s): "invalid hyperparameters: \(s)"
        case let .unknownChatTemplate(s): "unknown chat template: \(s)"
        case let .chatTemplate(e): "chat template does not load: \(e)"
        }
    }
}
