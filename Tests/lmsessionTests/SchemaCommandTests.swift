import Foundation
import TestSupport
import Testing

/// `lmsession generate --schema` as a new user met it: numeric bounds past the plain digits are enforced
/// or refused before the model loads, a schema too large to describe in the prompt is named as the cause
/// with the flag that leaves it out, and a chat template that renders nothing is not a usage error.
@Suite("lmsession generate --schema: bounds, sizes and causes", .serialized)
struct SchemaCommandTests {
    /// Writes `text` to a temporary file and returns its path.
    static func file(_ text: String, name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-\(name)-\(ProcessInfo.processInfo.processIdentifier).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("integer bounds past 2^53 are refused with their keyword and pointer before the model loads")
    func integerBoundsRefused() throws {
        let path = try Self.file(#"{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993,"maximum":9007199254740995}}}"#, name: "bigint")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--schema", path, "--model", "/nonexistent/model.gguf", "Hi"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("/properties/n/minimum"), "\(output)")
        #expect(output.contains("minimum cannot be enforced"), "\(output)")
        #expect(!output.contains("model not found"), "\(output)")
    }

    @Test("a number bound of 1e20 is enforced: the value printed is at least 1e20")
    func hugeMinimumGenerates() throws {
        let path = try Self.file(#"{"type":"number","minimum":1e20}"#, name: "bignum")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--schema", path, "--greedy", "--max-tokens", "40", "A very large number."])
        #expect(status == 0, "\(output)")
        let first = output.split(separator: "\n").first.map(String.init) ?? ""
        let value = try #require(Double(first), "\(output)")
        #expect(value >= 1e20 && value.isFinite, "\(output)")
    }

    @Test("--top-k 0 is off with --schema too (the usage says so): a value is generated")
    func topKZeroIsOff() throws {
        let path = try Self.file(#"{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":9}},"required":["n"]}"#, name: "topk0")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--schema", path, "--top-k", "0", "--seed", "3", "--max-tokens", "20", "A digit."])
        #expect(status == 0, "\(output)")
        let first = output.split(separator: "\n").first.map(String.init) ?? ""
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any], "\(output)")
        let n = try #require(object["n"] as? Int, "\(output)")
        #expect((1...9).contains(n), "\(output)")
    }

    @Test("a schema too large for the context names --no-schema-in-prompt, which then generates")
    func schemaOverTheContext() throws {
        let values = (0..<2000).map { "\"choice \($0)\"" }.joined(separator: ",")
        let path = try Self.file(#"{"enum":["# + values + "]}", name: "bigenum")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--schema", path, "--greedy", "--max-tokens", "16", "Pick one."])
        #expect(status == 1, "\(output)")
        #expect(output.contains("describing the response schema in the prompt takes"), "\(output)")
        #expect(output.contains("--no-schema-in-prompt"), "\(output)")
        let (bareStatus, bare) = try CommandLineVocabularyTests.run(["generate", "--schema", path, "--no-schema-in-prompt", "--greedy", "--max-tokens", "16", "Pick one."])
        #expect(bareStatus == 0, "\(bare)")
        #expect(bare.hasPrefix("\"choice "), "\(bare)")
    }

    @Test("the usage lists --no-schema-in-prompt")
    func usageListsTheFlag() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["--help"])
        #expect(status == 0)
        #expect(output.contains("--no-schema-in-prompt"), "\(output)")
    }

    @Test("a chat template that renders nothing is reported as such, not as an empty prompt")
    func templateRendersNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-tiny-empty-\(ProcessInfo.processInfo.processIdentifier).gguf").path
        let bytes = try TinyChatModel.build(vocabulary: "llama-bpe", template: nil, extraTemplate: "{% if false %}never{% endif %}")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--model", path, "--max-tokens", "2", "Hello"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("chat template rendered nothing"), "\(output)")
        #expect(!output.contains("usage error"), "\(output)")
    }
}
