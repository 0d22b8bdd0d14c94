import Foundation
import TestSupport
import Testing

/// `lmsession generate --mmproj MMPROJ --image FILE PROMPT` on the tiny vision pair (TestSupport's ``TinyVisionModel``
/// and the LMVision suite's Idefics3 `mmproj`), against `llama-mtmd-cli -p PROMPT --image FILE`'s answer recorded in
/// `Tests/LMSessionTests/Reference/vision.json`.
@Suite("lmsession generate --image")
struct ImageCommandTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let mmproj = repo.appendingPathComponent("Tests/LMVisionTests/Fixtures/idefics3.mmproj.gguf").path
    static let image = repo.appendingPathComponent("Tests/LMImageTests/Fixtures/rgb8-33x21.png").path

    /// llama-mtmd-cli's answer to the case `name`, as text (invalid UTF-8 replaced, as the command prints it).
    static func reference(_ name: String) throws -> String {
        let data = try Data(contentsOf: repo.appendingPathComponent("Tests/LMSessionTests/Reference/vision.json"))
        let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(record["cases"] as? [[String: Any]])
        let hex = try #require(cases.first { $0["name"] as? String == name }?["answer_hex"] as? String)
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[i..<j], radix: 16)))
            i = j
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("the image goes before the prompt as llama-mtmd-cli puts it: the same greedy answer")
    func answersAsLlamaMtmdCli() throws {
        let model = try TinyVisionModel.write()
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--model", model, "--mmproj", Self.mmproj, "--image", Self.image,
                                                                   "--greedy", "--max-tokens", "16", "--threads", "2", "--context", "512",
                                                                   "Describe this image."])
        #expect(status == 0, "\(output)")
        let answer = output.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        #expect(answer == (try Self.reference("one landscape image")), "\(output)")
        #expect(output.contains("prompt tokens (image included)"), "\(output)")
    }

    @Test("every --image is used, in order, as llama-mtmd-cli uses them")
    func severalImages() throws {
        let model = try TinyVisionModel.write()
        func promptTokens(_ images: [String]) throws -> Int {
            let (status, output) = try CommandLineVocabularyTests.run(["generate", "--model", model, "--mmproj", Self.mmproj]
                + images.flatMap { ["--image", $0] } + ["--greedy", "--max-tokens", "1", "--threads", "2", "--context", "512", "Compare."])
            #expect(status == 0, "\(output)")
            let line = try #require(output.split(separator: "\n").first { $0.contains("prompt tokens (image included)") }, "\(output)")
            return try #require(Int(line.prefix { $0.isNumber }))
        }
        let one = try promptTokens([Self.image]), two = try promptTokens([Self.image, Self.image])
        // One image of 33x21 pixels takes 33 tokens with the tiny Idefics3 mmproj (VisionSessionTests.tokensPerImage).
        #expect(two == one + 33)
    }

    @Test("options that cannot go with --image say so", arguments: [
        (["--raw"], "--raw cannot be combined with --image"),
        (["--schema", "/nonexistent/s.json"], "--schema cannot be combined with --image or --mmproj"),
    ])
    func combinations(extra: [String], message: String) throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--mmproj", Self.mmproj, "--image", Self.image] + extra + ["Hi"])
        #expect(status == 2, "\(output)")
        #expect(output.contains(message), "\(output)")
    }

    @Test("an mmproj file given as the model is named as one")
    func mmprojAsModel() throws {
        for command in [["info"], ["generate", "--max-tokens", "1", "Hi"]] {
            let (status, output) = try CommandLineVocabularyTests.run(command + ["--model", Self.mmproj])
            #expect(status == 1, "\(output)")
            #expect(output.contains("this is an mmproj file (an image encoder"), "\(output)")
        }
    }

    @Test("--image without --mmproj is a usage error (exit 2)")
    func imageNeedsMmproj() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--image", Self.image, "Describe this image."])
        #expect(status == 2, "\(output)")
        #expect(output.contains("--mmproj"), "\(output)")
    }
}
