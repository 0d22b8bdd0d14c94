import Foundation
import TestSupport
import Testing

/// `lmsession tokenize` and `lmsession info` on llama.cpp's vocabulary-only GGUFs (metadata, no
/// tensors), run as the built binary.
@Suite("lmsession tokenize and info read only the vocabulary")
struct CommandLineVocabularyTests {
    /// The `lmsession` binary `swift build` / `swift test` put beside the test bundle.
    static func binary() throws -> URL {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [dir, dir.deletingLastPathComponent()].map { $0.appendingPathComponent("lmsession") }
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                            "no lmsession binary beside \(dir.path); build the package first")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Subprocess.run(try binary(), arguments, mergingStandardError: true)
        return (result.status, result.text)
    }

    @Test("tokenize prints the suite's ids", arguments: ["bert-bge", "gemma-4", "gpt-2", "llama-spm", "qwen35"])
    func tokenizePrintsTheReferenceIDs(_ name: String) throws {
        let cases = try LlamaVocabularySuite.cases(name)
        let c = try #require(cases.first { $0.text == "Hello, y'all! How are you 😁 ?我想在apple工作1314151天～" })
        let (status, output) = try Self.run(["tokenize", "--model", LlamaVocabularySuite.vocabularyPath(name), "--no-add-bos", c.text])
        #expect(status == 0, "\(output)")
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "[" + c.ids.map(String.init).joined(separator: ", ") + "]")
    }

    @Test("--add-bos and --no-add-bos together are a usage error (exit 2), in either order",
          arguments: [["--add-bos", "--no-add-bos"], ["--no-add-bos", "--add-bos"]])
    func contradictoryBOSSwitchesAreRefused(_ switches: [String]) throws {
        let (status, output) = try Self.run(["tokenize", "--model", LlamaVocabularySuite.vocabularyPath("gpt-2")] + switches + ["hi"])
        #expect(status == 2, "\(output)")
        #expect(output.contains("--add-bos and --no-add-bos are alternatives"))
    }

    @Test func infoDescribesTheTokenizerOfAVocabularyOnlyFile() throws {
        let (status, output) = try Self.run(["info", "--model", LlamaVocabularySuite.vocabularyPath("qwen35")])
        #expect(status == 0, "\(output)")
        #expect(output.contains("architecture:  qwen2"))
        #expect(output.contains("weights:       not loadable"))
        #expect(output.contains("vocabulary:    151936 tokens, tokenizer gpt2, pre-tokenizer qwen35"))
        #expect(output.contains("EOS:           151643 \"<|endoftext|>\""))
    }

    @Test func infoStillDescribesTheArchitectureOfARealModel() throws {
        let (status, output) = try Self.run(["info", "--model", TestModels.path(TestModels.smolLM2)])
        #expect(status == 0, "\(output)")
        #expect(output.contains("layers:        30"))
        #expect(output.contains("vocabulary:    49152 tokens, tokenizer gpt2, pre-tokenizer smollm"))
        #expect(!output.contains("not loadable"))
    }
}
