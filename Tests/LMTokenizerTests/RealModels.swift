import Foundation
import LMGGUF
import LMTokenizer
import TestSupport

/// The two real tokenizers, loaded once per test process.
enum RealModels {
    static let smolLM2: Result<Tokenizer, any Error> = Result {
        try Tokenizer(gguf: GGUFFile(path: TestModels.path(TestModels.smolLM2)))
    }
    static let gemma3: Result<Tokenizer, any Error> = Result {
        try Tokenizer(gguf: GGUFFile(path: TestModels.path(TestModels.gemma3)))
    }

    /// The tokenizer of a model file named in the references.
    static func tokenizer(forFile file: String) throws -> Tokenizer {
        switch file {
        case TestModels.smolLM2.file: try smolLM2.get()
        case TestModels.gemma3.file: try gemma3.get()
        default: throw UnknownModel(file: file)
        }
    }

    struct UnknownModel: Error { let file: String }

    /// `ppl_text_1.txt` with one trailing newline dropped, as llama-perplexity reads it.
    static func perplexityText() throws -> String {
        var text = try String(contentsOf: TestPaths.ref("ppl_text_1.txt"), encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Field `ids` of a reference token stream.
    static func referenceIDs(_ name: String) throws -> [Int] {
        let data = try Data(contentsOf: TestPaths.ref(name))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["ids"] as? [Int] ?? []
    }
}
