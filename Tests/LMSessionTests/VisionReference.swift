import Foundation
import LMSession
import LMTransformer
import Testing
import TestSupport

/// llama.cpp's greedy answers for a tiny vision pair (`Reference/vision*.json`, written by
/// `Reference/make_vision_reference.py`) and the check of a local model's greedy tokens against one of them.
struct VisionReference: Sendable {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func image(_ name: String) -> URL { repo.appendingPathComponent("Tests/LMImageTests/Fixtures/\(name)") }
    static func mmproj(_ projector: String) -> URL { repo.appendingPathComponent("Tests/LMVisionTests/Fixtures/\(projector).mmproj.gguf") }

    struct Case: Decodable, Sendable, CustomStringConvertible {
        let name: String
        let images: [String]
        let prompt: String
        let steps: Int
        let answer_hex: String
        var description: String { name }
    }

    struct Record: Decodable, Sendable {
        let text_model_sha256: String
        let mmproj_sha256: String
        let image_sha256: [String: String]
        let cases: [Case]
    }

    /// The record in `Reference/file`, nil when it does not load.
    static func record(_ file: String) -> Record? {
        guard let data = try? Data(contentsOf: repo.appendingPathComponent("Tests/LMSessionTests/Reference/\(file)")) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// Checks that `record` holds cases and was made from `textModel`'s bytes, the `projector`'s mmproj and the
    /// committed images.
    static func checkInputs(_ record: Record, textModel: [UInt8], projector: String) throws {
        #expect(!record.cases.isEmpty)
        #expect(SHA256.hex(textModel) == record.text_model_sha256, "the text model generator changed: run make_vision_reference.py")
        let mmproj = try #require(try? Data(contentsOf: mmproj(projector)), "no \(mmproj(projector).path): run Models/fetch --all")
        #expect(SHA256.hex(mmproj) == record.mmproj_sha256)
        for (name, digest) in record.image_sha256 {
            #expect(SHA256.hex(try Data(contentsOf: image(name))) == digest, "\(name)")
        }
    }

    /// Checks `local`'s greedy tokens for `testCase` against llama.cpp's answer: equal, or parting from it at a
    /// step whose top-2 logit gap is below `closeCall` after at least 4 equal tokens.
    static func checkGreedy(_ testCase: Case, local: LocalModel, textModelPath: String, closeCall: Float) throws {
        let segments: [Transcript.Segment] = testCase.images.map { .attachment(.init(content: .image(.init(imageURL: image($0))))) }
            + [.text(.init(content: testCase.prompt))]
        let request = LanguageModelRequest(transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: segments))]))
        let (tokens, gaps) = try local.greedyTokens(for: request, count: testCase.steps)
        let tokenizer = try TransformerModel(path: textModelPath).tokenizer
        let reference = testCase.answer_hex
        #expect(!reference.isEmpty)
        // The CLI prints each piece as a C string, so a NUL byte never reaches the reference.
        func hex(_ n: Int, trimmingNewlines: Bool) -> String {
            var bytes = tokens[..<n].flatMap { tokenizer.tokenBytes($0, includeSpecial: true) }.filter { $0 != 0 }
            while trimmingNewlines, bytes.last == 0x0A { bytes.removeLast() } // the reference leaves trailing newlines out
            return bytes.map { String(format: "%02x", $0) }.joined()
        }
        guard hex(tokens.count, trimmingNewlines: true) != reference else { return }
        var equal = 0
        while equal < tokens.count, reference.hasPrefix(hex(equal + 1, trimmingNewlines: false)) { equal += 1 }
        #expect(equal < tokens.count && equal >= 4 && gaps[equal] < closeCall,
                "parts from llama.cpp's answer \(reference) after \(equal) tokens (\(hex(tokens.count, trimmingNewlines: false))); logit gaps: \(gaps)")
    }
}
