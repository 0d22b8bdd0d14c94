import LMGGUF
import LMTokenizer
import TestSupport
import Testing

/// Every case of llama.cpp's tokenizer conformance suite (`ggml-vocab-*.gguf` with `.inp`/`.out`,
/// produced with each family's Hugging Face tokenizer): one vocabulary per family, loaded from the
/// vocabulary-only GGUF (metadata, no tensors).
@Suite("llama.cpp vocabulary suite")
struct LlamaVocabularyTests {
    @Test("Every input tokenizes to the expected ids", arguments: LlamaVocabularySuite.files.map(\.name))
    func tokenizesLikeTheReference(_ name: String) throws {
        let cases = try LlamaVocabularySuite.cases(name)
        let expected = try #require(LlamaVocabularySuite.files.first { $0.name == name }).cases
        #expect(cases.count == expected, "ggml-vocab-\(name): \(cases.count) cases read, expected \(expected)")
        try #require(!cases.isEmpty, "ggml-vocab-\(name): no cases read")
        let tokenizer = try Tokenizer(gguf: GGUFFile(path: LlamaVocabularySuite.vocabularyPath(name)))
        var passed = 0
        for c in cases {
            let ids = tokenizer.encode(c.text, addBOS: false, parseSpecial: false)
            #expect(ids == c.ids, "ggml-vocab-\(name): \(c.text.debugDescription)")
            if ids == c.ids { passed += 1 }
        }
        print("ggml-vocab-\(name): \(passed)/\(cases.count) cases match llama.cpp")
    }

    @Test func theSuiteHolds694Cases() throws {
        let counts = try LlamaVocabularySuite.files.map { try LlamaVocabularySuite.cases($0.name).count }
        #expect(counts.reduce(0, +) == 694)
    }
}
