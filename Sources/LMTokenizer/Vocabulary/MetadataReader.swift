import LMGGUF

/// Typed reads of `tokenizer.*` metadata that throw ``TokenizerError`` naming the key.
struct MetadataReader {
    let metadata: [String: GGUFValue]

    func string(_ key: String) throws(TokenizerError) -> String? {
        guard let v = metadata[key] else { return nil }
        guard let s = v.string else { throw .wrongType(key: key, expected: "a string") }
        return s
    }

    func bool(_ key: String) throws(TokenizerError) -> Bool? {
        guard let v = metadata[key] else { return nil }
        guard let b = v.bool else { throw .wrongType(key: key, expected: "a bool") }
        return b
    }

    func int(_ key: String) throws(TokenizerError) -> Int? {
        guard let v = metadata[key] else { return nil }
        guard let i = v.int else { throw .wrongType(key: key, expected: "an integer") }
        return i
    }

    func strings(_ key: String) throws(TokenizerError) -> [String]? {
        guard let v = metadata[key] else { return nil }
        guard let a = v.array?.strings else { throw .wrongType(key: key, expected: "an array of strings") }
        return a
    }

    func floats(_ key: String) throws(TokenizerError) -> [Float]? {
        guard let v = metadata[key] else { return nil }
        guard let a = v.array, a.strings == nil, let f = a.floats else {
            throw .wrongType(key: key, expected: "an array of numbers")
        }
        return f
    }

    func ints(_ key: String) throws(TokenizerError) -> [Int]? {
        guard let v = metadata[key] else { return nil }
        guard let a = v.array?.ints else { throw .wrongType(key: key, expected: "an array of integers") }
        return a
    }
}

/// GGUF metadata keys the tokenizer reads (GGUF spec, `tokenizer.ggml.*`).
enum TokenizerKey {
    static let model = "tokenizer.ggml.model"
    static let pre = "tokenizer.ggml.pre"
    static let tokens = "tokenizer.ggml.tokens"
    static let scores = "tokenizer.ggml.scores"
    static let tokenType = "tokenizer.ggml.token_type"
    static let merges = "tokenizer.ggml.merges"
    static let bos = "tokenizer.ggml.bos_token_id"
    static let eos = "tokenizer.ggml.eos_token_id"
    static let eot = "tokenizer.ggml.eot_token_id"
    static let eom = "tokenizer.ggml.eom_token_id"
    static let unknown = "tokenizer.ggml.unknown_token_id"
    static let sep = "tokenizer.ggml.seperator_token_id" // sic, as llama.cpp's LLM_KV_TOKENIZER_SEP_ID
    static let fimPre = "tokenizer.ggml.fim_pre_token_id"
    static let fimSuf = "tokenizer.ggml.fim_suf_token_id"
    static let fimMid = "tokenizer.ggml.fim_mid_token_id"
    static let fimPad = "tokenizer.ggml.fim_pad_token_id"
    static let fimRep = "tokenizer.ggml.fim_rep_token_id"
    static let fimSep = "tokenizer.ggml.fim_sep_token_id"
    static let addBOS = "tokenizer.ggml.add_bos_token"
    static let addEOS = "tokenizer.ggml.add_eos_token"
    static let addSpacePrefix = "tokenizer.ggml.add_space_prefix"
    static let lowercase = "tokenizer.ggml.normalizer.lowercase"
    static let stripAccents = "tokenizer.ggml.normalizer.strip_accents"
    static let chatTemplate = "tokenizer.chat_template"
}
