/// Per-token attributes, as llama.cpp's `llama_token_attr` (only the ones tokenizing and
/// detokenizing read). They start from `tokenizer.ggml.token_type` (1 normal, 2 unknown,
/// 3 control, 4 user-defined, 5 unused, 6 byte; any other value: none) and llama.cpp's load-time
/// fix-ups then add `control` to end-of-generation and fill-in-the-middle tokens found by text,
/// and `lstrip`/`rstrip` to some models' special tokens (``TokenAttributes/stripRules``).
struct TokenAttributes: OptionSet, Sendable {
    let rawValue: UInt8
    static let unknown = TokenAttributes(rawValue: 1 << 0)
    static let unused = TokenAttributes(rawValue: 1 << 1)
    static let normal = TokenAttributes(rawValue: 1 << 2)
    static let control = TokenAttributes(rawValue: 1 << 3)
    static let userDefined = TokenAttributes(rawValue: 1 << 4)
    static let byte = TokenAttributes(rawValue: 1 << 5)
    /// When matched as a special token, whitespace before it is dropped from the text.
    static let lstrip = TokenAttributes(rawValue: 1 << 6)
    /// When matched as a special token, whitespace after it is dropped from the text.
    static let rstrip = TokenAttributes(rawValue: 1 << 7)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// From a GGUF `tokenizer.ggml.token_type` value.
    init(tokenType: Int) {
        switch tokenType {
        case 1: self = .normal
        case 2: self = .unknown
        case 3: self = .control
        case 4: self = .userDefined
        case 5: self = .unused
        case 6: self = .byte
        default: self = []
        }
    }
}
