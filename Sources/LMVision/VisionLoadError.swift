import LMGGUF

/// Why an `mmproj` GGUF (llama.cpp's image encoder and projector file) could not be loaded.
public enum VisionLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The GGUF file itself is invalid.
    case file(GGUFError)
    /// The file is not a CLIP-style vision file: `general.architecture` is not `clip` (the value found, or
    /// nil) or `clip.has_vision_encoder` is false.
    case notVisionEncoder(architecture: String?)
    /// `clip.projector_type` (or `clip.vision.projector_type`) names a projector LMVision does not implement.
    case unsupportedProjector(String)
    /// A required metadata key is absent or has the wrong type.
    case missingKey(String)
    /// A key holds a value that cannot describe a working encoder (`reason` says why).
    case invalidKey(String, reason: String)
    /// A required tensor is absent.
    case missingTensor(String)
    /// A tensor's shape does not match the hyperparameters; `expected` and `found` are outermost-first.
    case badShape(tensor: String, expected: [Int], found: [Int])

    public var description: String {
        switch self {
        case let .file(e): "invalid GGUF file: \(e)"
        case let .notVisionEncoder(a): "not a vision projector file (general.architecture \(a.map { "\"\($0)\"" } ?? "missing"), expected \"clip\" with a vision encoder)"
        case let .unsupportedProjector(p):
            "unsupported projector type \"\(p)\" (supported: \(ProjectorType.allCases.map(\.rawValue).joined(separator: ", ")))"
        case let .missingKey(k): "missing or invalid metadata key \"\(k)\""
        case let .invalidKey(k, reason): "metadata key \"\(k)\": \(reason)"
        case let .missingTensor(t): "missing tensor \"\(t)\""
        case let .badShape(t, e, f): "tensor \"\(t)\": shape \(f), expected \(e)"
        }
    }
}
