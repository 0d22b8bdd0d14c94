import LMGGUF
import LMTokenizer
import TestSupport
import Testing

/// `vocab-cases.jsonl`: this project's texts (Unicode edges, the `default` pre-tokenizer of the
/// gpt-neox and aquila vocabularies, special-token text, BOS/EOS/[SEP] adding) tokenized by
/// llama.cpp's `llama_tokenize` on the vocabulary-only GGUFs of llama.cpp's tree (see
/// `Tests/Reference/README.md`).
@Suite("More texts on every llama.cpp vocabulary")
struct VocabularyCaseTests {
    struct Case: Sendable {
        let vocab: String, mode: String, text: String, ids: [Int]
    }

    static let all: [Case] = {
        guard let lines = try? TestPaths.jsonLines("vocab-cases.jsonl") else { return [] }
        return lines.map {
            Case(vocab: $0["vocab"] as? String ?? "", mode: $0["mode"] as? String ?? "",
                 text: $0["text"] as? String ?? "", ids: $0["ids"] as? [Int] ?? [])
        }
    }()

    static let vocabularies = ["aquila", "bert-bge", "command-r", "deepseek-coder", "deepseek-llm", "falcon", "gemma-4",
                               "gpt-2", "gpt-neox", "llama-bpe", "llama-spm", "mpt", "phi-3", "qwen2", "qwen35", "refact", "starcoder"]

    @Test func theReferenceFileHoldsEveryCase() {
        #expect(Self.all.count == 952)
        #expect(Set(Self.all.map(\.vocab)) == Set(Self.vocabularies))
    }

    @Test("Each text tokenizes to llama.cpp's ids", arguments: vocabularies)
    func tokenizesLikeLlamaCpp(_ vocab: String) throws {
        let cases = Self.all.filter { $0.vocab == vocab }
        try #require(!cases.isEmpty, "no cases for \(vocab)")
        let t = try Tokenizer(gguf: GGUFFile(path: LlamaVocabularySuite.vocabularyPath(vocab)))
        for c in cases {
            // llama-tokenize adds special tokens exactly when the model adds BOS.
            let ids = c.mode == "plain"
                ? t.encode(c.text, addBOS: false, parseSpecial: false)
                : t.encode(c.text, addBOS: t.addsBOS ? nil : false, parseSpecial: true)
            #expect(ids == c.ids, "\(vocab) \(c.mode) \(c.text.debugDescription)")
        }
    }
}
