import Foundation
import LMImage
import LMSession
import Testing
import TestSupport

/// Apple 27's `orientation:` and raw pixels in attachments: kept in the transcript and its JSON, applied to what a
/// server model is sent (an image file carries no orientation, so a turned image is sent as the turned pixels),
/// refused with a typed error where it cannot be applied, and raw pixels checked before anything is kept.
@Suite("Attachment orientation and pixels", .serialized, .timeLimit(.minutes(2)))
struct AttachmentOrientationTests {
    static let file = VisionSessionTests.image("rgb8-33x21.png")

    @Test func `Apple's spelling takes an orientation, and the segment's description shows it`() {
        let attachment = Attachment(imageURL: Self.file, orientation: CGImagePropertyOrientation.right).label("side")
        let segments = Prompt { attachment }.segments
        guard case .attachment(let segment) = segments.first, case .image(let image) = segment.content else {
            Issue.record("unexpected segments \(segments)"); return
        }
        #expect(image.orientation == .right && image.contentType == "image/png" && image.data == nil)
        #expect(segment.description == #"[image image/png, orientation right: "side"]"#)
        #expect(Transcript.ImageAttachment(imageURL: Self.file).orientation == .up)
    }

    @Test func `the orientation round-trips through transcript JSON and is left out when up`() throws {
        let png = try Data(contentsOf: Self.file)
        let transcript = Transcript(entries: [.prompt(Transcript.Prompt(id: "p", segments: [
            .attachment(.init(id: "a", content: .image(.init(data: png, orientation: .leftMirrored)))),
            .attachment(.init(id: "b", content: .image(.init(data: png)))),
        ]))])
        let data = try JSONEncoder().encode(transcript)
        #expect(try JSONDecoder().decode(Transcript.self, from: data) == transcript)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require((json["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
        let contents = try #require(entries[0]["contents"] as? [[String: Any]])
        #expect((contents[0]["attachment"] as? [String: Any])?["orientation"] as? Int == 5)
        #expect((contents[1]["attachment"] as? [String: Any])?.keys.contains("orientation") == false)
        for value in ["9", "0", "-1", "300"] {
            let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""orientation":5"#, with: #""orientation":\#(value)"#)
            #expect(bad != String(decoding: data, as: UTF8.self))
            do {
                _ = try JSONDecoder().decode(Transcript.self, from: Data(bad.utf8))
                Issue.record("orientation \(value) was accepted")
            } catch {
                #expect("\(error)".contains("\"orientation\" \(value) is not one of 1-8"), "\(error)")
            }
        }
        // An image with neither bytes nor a file is no image.
        let empty = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: #"("data":"[^"]*",?)"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #","}"#, with: "}")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Transcript.self, from: Data(empty.utf8)) }
    }

    @Test(arguments: [ImageOrientation.up, .right, .downMirrored])
    func `a server model is sent the pixels as shown`(_ orientation: ImageOrientation) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["Ok."])))
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "vlm", contextSize: 4096, timeout: 5,
                                                  capabilities: LanguageModelCapabilities(capabilities: [.vision]))
        let session = LanguageModelSession(model: model)
        _ = try await session.respond { "What is this?"; Attachment(imageURL: Self.file, orientation: orientation) }
        let messages = try #require(proxy.requests.first?.json?["messages"] as? [[String: Any]])
        let parts = try #require(messages.last?["content"] as? [[String: Any]])
        let url = try #require((parts.last?["image_url"] as? [String: Any])?["url"] as? String)
        #expect(url.hasPrefix("data:image/png;base64,"))
        let sent = try #require(Data(base64Encoded: String(url.dropFirst("data:image/png;base64,".count))))
        let file = try Data(contentsOf: Self.file)
        if orientation == .up { #expect(sent == file) }  // untouched bytes when there is nothing to turn
        #expect(try DecodedImage(data: sent) == DecodedImage(data: file).applyingOrientation(orientation))
        // The transcript keeps the file and its orientation, not the turned copy.
        guard case .prompt(let prompt) = session.transcript[0], case .attachment(let segment) = prompt.segments[1],
              case .image(let image) = segment.content else { Issue.record("no attachment in \(session.transcript)"); return }
        #expect(image.data == file && image.orientation == orientation)
    }

    @Test func `a turned image is turned once for the requests of a conversation`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["Ok."])), .stream(chunks: OpenAIStreams.text(["Still ok."])))
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "vlm", contextSize: 4096, timeout: 5,
                                                  capabilities: LanguageModelCapabilities(capabilities: [.vision]))
        // Pixels no other test uses, so the cache entry is this test's own.
        let pixels = (0..<(7 * 5 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let attachment = try Attachment(pixels: pixels, width: 7, height: 5, orientation: .left)
        let session = LanguageModelSession(model: model)
        _ = try await session.respond { "What is this?"; attachment }
        _ = try await session.respond(to: "And now?")
        let sent = try proxy.requests.map { request -> String in
            let messages = try #require(request.json?["messages"] as? [[String: Any]])
            let parts = try #require(messages.first { $0["role"] as? String == "user" }?["content"] as? [[String: Any]])
            return try #require((parts.last?["image_url"] as? [String: Any])?["url"] as? String)
        }
        #expect(sent.count == 2 && sent[0] == sent[1])
        guard case .prompt(let prompt) = session.transcript[0], case .attachment(let segment) = prompt.segments[1],
              case .image(let image) = segment.content, let data = image.data else { Issue.record("no image in \(session.transcript)"); return }
        let hits = try #require(UprightFileCache.hits(for: data, orientation: .left), "the turned file is kept")
        #expect(hits >= 1, "the second request reused the first one's file")
    }

    @Test func `an orientation for an image this package cannot turn throws before anything is sent`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "vlm", contextSize: 4096, timeout: 5,
                                                  capabilities: LanguageModelCapabilities(capabilities: [.vision]))
        let session = LanguageModelSession(model: model)
        let gif = Data("GIF89a".utf8) + Data(repeating: 0, count: 20)
        await #expect(throws: Transcript.ImageAttachment.LoadError.orientationUnsupported(contentType: "image/gif")) {
            _ = try await session.respond { "What is this?"; Attachment(imageData: gif, orientation: .left) }
        }
        #expect(proxy.requests.isEmpty && session.transcript.isEmpty)
        // Upright, the same bytes go to the server as they are (it decides whether it reads GIF).
        #expect(throws: Never.self) { _ = try Transcript.ImageAttachment(data: gif).loaded() }
    }

    @Test func `a turned image that does not decode throws before anything is sent`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "vlm", contextSize: 4096, timeout: 5,
                                                  capabilities: LanguageModelCapabilities(capabilities: [.vision]))
        let session = LanguageModelSession(model: model)
        let file = try Data(contentsOf: Self.file)
        let truncated = file.prefix(file.count / 2)
        await #expect {
            _ = try await session.respond { "What is this?"; Attachment(imageData: truncated, orientation: .right) }
        } throws: { error in
            guard case Transcript.ImageAttachment.LoadError.undecodable(nil, let reason) = error else { return false }
            return !reason.isEmpty
        }
        #expect(proxy.requests.isEmpty && session.transcript.isEmpty)
        // Upright, the same bytes are sent as they are: the server judges them.
        #expect(throws: Never.self) { _ = try Transcript.ImageAttachment(data: truncated).loaded() }
    }

    @Test func `raw pixels that do not make an image are refused with what is wrong`() {
        func reason(_ make: () throws -> Void) -> String? {
            do { try make(); return nil } catch let error as Transcript.ImageAttachment.LoadError {
                if case .invalidPixels(let r) = error { return r } else { return "\(error)" }
            } catch { return "\(error)" }
        }
        #expect(reason { _ = try Attachment(pixels: [1, 2, 3], width: 2, height: 1) }?.contains("3 bytes for 2x1 rgb pixels (6 expected)") == true)
        #expect(reason { _ = try Attachment(pixels: [1, 2, 3, 4], width: 1, height: 1, format: .rgba) } == nil)
        #expect(reason { _ = try Attachment(pixels: [], width: 0, height: 5) } != nil)
        // A huge declared size is refused before its byte count is even computed.
        #expect(reason { _ = try Attachment(pixels: [], width: 1 << 40, height: 1 << 40) }?.contains("pixels") == true)
    }

    @Test func `raw pixels become a PNG file that decodes to exactly those pixels`() throws {
        let (width, height) = (130, 190)  // over 64 KiB of rows: more than one stored DEFLATE block
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 301) }
        let image = try Transcript.ImageAttachment(pixels: pixels, width: width, height: height)
        #expect(image.contentType == "image/png")
        let decoded = try DecodedImage(data: try #require(image.data))
        #expect(decoded.width == width && decoded.height == height && decoded.pixels == pixels)
    }
}
