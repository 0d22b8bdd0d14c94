/// The projectors LMVision implements, named as llama.cpp's `clip.projector_type` values
/// (`tools/mtmd/clip-impl.h`, `PROJECTOR_TYPE_NAMES`).
public enum ProjectorType: String, Sendable, CaseIterable {
    /// SmolVLM / Idefics3: SigLIP, then a pixel shuffle that stacks `scaleFactor × scaleFactor`
    /// neighbouring patches into one token, then one linear map (`mm.model.fc.weight`, no bias).
    case idefics3
    /// Gemma 3: SigLIP, then an average pool over `scaleFactor × scaleFactor` patches (256 tokens for the
    /// real models), RMSNorm (`mm.soft_emb_norm.weight`), and a linear map (`mm.input_projection.weight`).
    case gemma3
}

/// The activation of the encoder's feed-forward, as llama.cpp chooses it from `clip.use_gelu` /
/// `clip.use_silu` (neither: GELU-quick, CLIP's `x·σ(1.702x)`).
public enum VisionActivation: Sendable, Equatable {
    /// ggml's `gelu`: the tanh approximation (SigLIP's `gelu_pytorch_tanh`).
    case gelu
    case silu
    case geluQuick
}
