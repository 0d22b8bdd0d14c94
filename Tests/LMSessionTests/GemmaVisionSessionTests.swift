import Foundation
import LMSession
import Testing
import TestSupport

/// Images on a Gemma 3 vision pair: TestSupport's tiny `gemma3` text model (``TinyVisionModel/buildGemma3(seed:)``)
/// with the LMVision suite's seeded Gemma 3 `mmproj` answers as llama.cpp's `llama-mtmd-cli` does
/// (`Reference/vision-gemma3.json`, from `Reference/make_vision_reference.py --projector gemma3`). llama.cpp decodes
/// a Gemma 3 image's rows with non-causal attention among themselves, so matching its answers checks that the
/// session prefills them that way.
@Suite("Gemma 3 vision sessions", .serialized, .timeLimit(.minutes(2)))
struct GemmaVisionSessionTests {
    static let mmproj = VisionReference.mmproj("gemma3")
    static let record = VisionReference.record("vision-gemma3.json")

    /// The text model, written once per test process (and to `LMSESSION_WRITE_VISION_MODEL` when set, for the
    /// reference script).
    static let textModelPath: String = {
        if let out = ProcessInfo.processInfo.environment["LMSESSION_WRITE_VISION_MODEL"] {
            try? Data(TinyVisionModel.buildGemma3()).write(to: URL(fileURLWithPath: out))
        }
        return (try? TinyVisionModel.write(gemma: true)) ?? ""
    }()

    static let model = SystemLanguageModel(path: textModelPath, mmprojPath: mmproj.path, contextSize: 512, threads: 2)

    /// The top-2 logit gap below which greedy answers may part from llama.cpp's: the Gemma 3 embeddings differ from
    /// llama.cpp's by up to 2e-3 (the LMVision suite), which this model's sharp attention carries to the logits.
    static let closeCall: Float = 0.1

    /// One image of the tiny Gemma 3 mmproj: `<start_of_image>`, 4 embeddings (a 32-pixel image of 16 patches,
    /// pooled 2 × 2), `<end_of_image>`.
    static let tokensPerImage = 1 + 4 + 1

    @Test func `the recorded cases were read and the inputs are the ones they were recorded for`() throws {
        let record = try #require(Self.record, "Tests/LMSessionTests/Reference/vision-gemma3.json does not load")
        try VisionReference.checkInputs(record, textModel: TinyVisionModel.buildGemma3(), projector: "gemma3")
    }

    @Test(arguments: record?.cases ?? [])
    func `greedy tokens after images and a prompt are llama-mtmd-cli's`(_ testCase: VisionReference.Case) throws {
        try VisionReference.checkGreedy(testCase, local: Self.model.local, textModelPath: Self.textModelPath, closeCall: Self.closeCall)
    }

    @Test func `llama.cpp's answer depends on the image, so matching it checks the image's rows`() throws {
        let record = try #require(Self.record)
        let answers = Dictionary(record.cases.map { ($0.name, $0.answer_hex) }, uniquingKeysWith: { a, _ in a })
        let first = try #require(answers["one landscape image"]), other = try #require(answers["another landscape image"])
        #expect(first != other)
    }

    @Test func `a prompt with an image counts its rows between the start and end of image tokens`() throws {
        let prompt = Prompt { Attachment(imageURL: VisionReference.image("rgb8-33x21.png")); "Describe this image." }
        let request = LanguageModelRequest(transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: prompt.segments))]))
        // BOS, <|im_start|>, "user\n", the image, the text, <|im_end|>, "\n", <|im_start|>, "assistant\n": one token per byte.
        let tokens = try Self.model.local.promptTokens(for: request)
        #expect(tokens.count == 1 + 1 + 5 + Self.tokensPerImage + 20 + 1 + 1 + 1 + 10)
        let start = try #require(tokens.firstIndex { $0 < 0 })
        #expect(tokens[start..<start + 4].allSatisfy { $0 < 0 })
        let vocabulary = 256 + TinyVisionModel.added.count
        #expect(tokens[start - 1] == vocabulary && tokens[start + 4] == vocabulary + 1, "<start_of_image> and <end_of_image> around the rows")
    }

    @Test func `a Gemma 3 mmproj beside a text model without its image tokens is refused, naming the token`() throws {
        let ideficsText = try TinyVisionModel.write()
        #expect {
            _ = try SystemLanguageModel(fileURL: URL(fileURLWithPath: ideficsText), mmprojURL: Self.mmproj, contextSize: 512)
        } throws: { error in
            guard case LocalModelError.loadFailed(_, let reason) = error else { return false }
            return reason.contains("<start_of_image>")
        }
    }

    @Test func `the vision capability is declared with a Gemma 3 mmproj`() {
        #expect(Self.model.capabilities.contains(.vision))
    }

    @Test func `comparing two images answers, and the next turn reuses both images from the KV cache`() async throws {
        let session = LanguageModelSession(model: Self.model)
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8)
        let first = try await session.respond(options: options) {
            "Compare these:"
            Attachment(imageURL: VisionReference.image("rgb8-33x21.png"))
            Attachment(imageData: try Data(contentsOf: VisionReference.image("rgba8-17x13.png")), orientation: .right)
        }
        #expect(first.usage.input.totalTokenCount >= 2 * Self.tokensPerImage)
        let second = try await session.respond(to: "Which one is brighter?", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4))
        #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
        #expect(session.transcript.count == 4)
    }
}
