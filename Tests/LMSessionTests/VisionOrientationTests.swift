import Foundation
import LMImage
import LMSession
import Testing

/// Apple 27's `orientation:` and raw pixels on the local vision model: the model sees an image turned by its
/// orientation, exactly as if the turned pixels had been given upright, and raw RGB or RGBA pixels exactly as the
/// same pixels in a PNG file (alpha dropped, as llama.cpp's `mtmd` drops it).
@Suite("Vision orientation and pixels", .serialized, .timeLimit(.minutes(2)))
struct VisionOrientationTests {
    static let file = VisionSessionTests.image("rgb8-33x21.png")

    /// The greedy tokens and top-2 gaps (logit differences) after one image and a question.
    static func answer(_ attachment: LMSession.Attachment<ImageAttachmentContent>) throws -> (tokens: [Int], gaps: [Float], promptCount: Int) {
        let prompt = Prompt { attachment; "What is this?" }
        let request = LanguageModelRequest(transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: prompt.segments))]))
        let (tokens, gaps) = try VisionSessionTests.model.local.greedyTokens(for: request, count: 6)
        return (tokens, gaps, try VisionSessionTests.model.local.promptTokens(for: request).count)
    }

    @Test(arguments: [ImageOrientation.right, .down, .leftMirrored])
    func `an image given with an orientation is the turned image given upright`(_ orientation: ImageOrientation) throws {
        let stored = try DecodedImage(contentsOf: Self.file)
        let turned = stored.applyingOrientation(orientation)
        let given = try Self.answer(Attachment(imageURL: Self.file, orientation: orientation))
        let upright = try Self.answer(Attachment(pixels: turned.pixels, width: turned.width, height: turned.height))
        #expect(given.tokens == upright.tokens)
        #expect(given.gaps == upright.gaps)
        #expect(given.promptCount == upright.promptCount)
        // The orientation changes what the model sees: the logits differ from the image's untouched.
        let untouched = try Self.answer(Attachment(imageURL: Self.file))
        #expect(untouched.gaps != given.gaps)
    }

    @Test func `raw RGB and RGBA pixels are read as the same pixels in a PNG file`() throws {
        let stored = try DecodedImage(contentsOf: Self.file)
        var rgba: [UInt8] = []
        for i in stride(from: 0, to: stored.pixels.count, by: 3) {
            rgba += stored.pixels[i..<(i + 3)]
            rgba.append(UInt8(i % 251))  // alpha that varies, which must not matter
        }
        let fromFile = try Self.answer(Attachment(imageURL: Self.file))
        let fromRGB = try Self.answer(Attachment(pixels: stored.pixels, width: stored.width, height: stored.height))
        let fromRGBA = try Self.answer(Attachment(pixels: rgba, width: stored.width, height: stored.height, format: .rgba))
        #expect(fromRGB.gaps == fromFile.gaps && fromRGB.tokens == fromFile.tokens)
        #expect(fromRGBA.gaps == fromFile.gaps && fromRGBA.tokens == fromFile.tokens)
    }

    @Test func `the KV cache keeps an image's turned and untouched forms apart`() async throws {
        let session = LanguageModelSession(model: VisionSessionTests.model)
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 3)
        let first = try await session.respond(options: options) { "Look:"; Attachment(imageURL: Self.file) }
        let second = try await session.respond(options: options) { "And now:"; Attachment(imageURL: Self.file, orientation: .left) }
        // The second turn reuses the first turn's tokens, not the untouched image's rows for the turned one.
        #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
        #expect(second.usage.input.cachedTokenCount < second.usage.input.totalTokenCount - VisionSessionTests.tokensPerImage)
    }
}
