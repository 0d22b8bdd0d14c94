import Foundation
import Testing

/// The command line's errors say what is wrong: option errors are usage errors (exit 2) found before the model
/// loads, and a missing input file is named.
@Suite("lmsession reports bad options and missing files clearly")
struct CommandLineErrorTests {
    @Test("--threads outside 1...64 is a usage error before anything loads", arguments: [
        ["generate", "--threads", "0", "Hi"], ["generate", "--threads", "65", "Hi"], ["perplexity", "--file", "x.txt", "--threads", "0"],
        ["generate", "--schema", "s.json", "--threads", "0", "Hi"],
    ])
    func threadsOutOfRangeIsAUsageError(_ arguments: [String]) throws {
        // A model path that does not exist: the usage error must come first.
        let (status, output) = try CommandLineVocabularyTests.run(arguments + ["--model", "/nonexistent/model.gguf"])
        #expect(status == 2, "\(output)")
        #expect(output.hasPrefix("error: usage error: --threads must be between 1 and 64"), "\(output)")
        #expect(!output.contains("model not found"))
    }

    @Test func perplexityNamesAMissingFile() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["perplexity", "--file", "/nonexistent/wiki.test.raw", "--model", "/nonexistent/model.gguf"])
        #expect(status == 1, "\(output)")
        #expect(output == "error: file not found: /nonexistent/wiki.test.raw\n")
    }

    @Test func schemaFilesAreCheckedLikeTextFiles() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--schema", NSTemporaryDirectory(), "Hi"])
        #expect(status == 1, "\(output)")
        #expect(output == "error: \(NSTemporaryDirectory()) is a directory, not a JSON Schema file\n")
        let (missingStatus, missing) = try CommandLineVocabularyTests.run(["generate", "--schema", "/nonexistent/s.json", "Hi"])
        #expect(missingStatus == 1)
        #expect(missing == "error: file not found: /nonexistent/s.json\n")
    }

    @Test func perplexityRefusesADirectory() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["perplexity", "--file", NSTemporaryDirectory()])
        #expect(status == 1, "\(output)")
        #expect(output == "error: \(NSTemporaryDirectory()) is a directory, not a text file\n")
    }
}
