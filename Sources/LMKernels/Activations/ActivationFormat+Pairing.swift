import LMGGUF
import LMKernelsCore

/// The activation format the fast kernels pair with weights of `type` (ggml's pairing; types
/// without an integer kernel use floats).
public func activationFormat(for type: GGMLType) -> ActivationFormat {
    DotKernels.kernel(for: type).activationFormat
}
