/// Why a tokenizer could not be built from GGUF metadata. Every case names the key involved.
public enum TokenizerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A required metadata key (`tokenizer.ggml.model`, `tokenizer.ggml.tokens`, or
    /// `tokenizer.ggml.merges` for BPE) is absent.
    case missingKey(String)
    /// A key holds a value of the wrong GGUF type (`expected` names the type wanted).
    case wrongType(key: String, expected: String)
    /// `tokenizer.ggml.model` is not one LMSession implements (`gpt2`, `gemma4`, `llama`, `bert`).
    case unknownModel(String)
    /// `tokenizer.ggml.pre` names a BPE pre-tokenizer LMSession does not implement (there is no
    /// fallback to another pre-tokenizer: the ids would silently differ from the model's).
    case unknownPreTokenizer(String)
    /// `tokenizer.ggml.tokens` has no entries.
    case emptyVocabulary
    /// A per-token array (`tokenizer.ggml.scores`, `tokenizer.ggml.token_type`) is shorter than the
    /// vocabulary.
    case arrayTooShort(key: String, count: Int, needed: Int)
    /// Two vocabulary entries have the same bytes (llama.cpp rejects this too).
    case duplicateToken(text: String, firstID: Int, secondID: Int)
    /// `flagKey` asks for a special token to be added but `idKey` gives no valid id.
    case missingSpecialToken(flagKey: String, idKey: String)
    /// Entry `index` of `tokenizer.ggml.merges` is not two texts separated by a space.
    case malformedMerge(index: Int, text: String)
    /// The token texts together exceed 2 GB.
    case vocabularyTooLarge(bytes: Int)

    public var description: String {
        switch self {
        case let .missingKey(key): "tokenizer: metadata key \"\(key)\" is missing"
        case let .wrongType(key, expected): "tokenizer: metadata key \"\(key)\" is not \(expected)"
        case let .unknownModel(name): "tokenizer: unknown tokenizer model \"\(name)\" (expected gpt2, gemma4, llama or bert)"
        case let .unknownPreTokenizer(name): "tokenizer: unsupported BPE pre-tokenizer \"\(name)\""
        case .emptyVocabulary: "tokenizer: \"tokenizer.ggml.tokens\" is empty"
        case let .arrayTooShort(key, count, needed):
            "tokenizer: \"\(key)\" has \(count) entries, the vocabulary needs \(needed)"
        case let .duplicateToken(text, first, second):
            "tokenizer: token text \(text.debugDescription) appears as ids \(first) and \(second)"
        case let .missingSpecialToken(flagKey, idKey):
            "tokenizer: \"\(flagKey)\" is true but \"\(idKey)\" gives no valid token id"
        case let .malformedMerge(index, text):
            "tokenizer: \"tokenizer.ggml.merges\" entry \(index) \(text.debugDescription) is not two texts separated by a space"
        case let .vocabularyTooLarge(bytes):
            "tokenizer: \"tokenizer.ggml.tokens\" holds \(bytes) bytes of text, more than 2 GB"
        }
    }
}
