import Foundation
import LMSession
import Testing
import TestSupport

/// Apple 27 attachments: image segments built in prompts, kept in the transcript and its JSON, sent to models
/// with `.vision` (OpenAI-compatible `image_url` parts, Claude `image` blocks), refused by the others before any work.
@Suite("Attachments", .serialized, .timeLimit(.minutes(2)))
struct AttachmentTests {
    /// A 1×1 PNG (one RGBA pixel), as base64: what every request must carry byte for byte.
    static let pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    static let png = Data(base64Encoded: pngBase64)!

    /// Writes the PNG to a file named `name`, kept by content (``TestFiles``), and returns its URL.
    static func writePNG(named name: String = "pixel.png") throws -> URL {
        try TestFiles.write(png, named: name)
    }

    /// Apple 27's error for a request that needs `.vision` on a model without it; the description counts the
    /// entries that hold attachments.
    static func isUnsupportedVision(_ error: any Error, entries: Int) -> Bool {
        guard case LanguageModelError.unsupportedCapability(let info) = error, info.capability == .vision else { return false }
        return entries == 0 || info.debugDescription.contains(entries == 1 ? "an entry" : "\(entries) entries")
    }

    // MARK: Building

    @Test func `an attachment in a prompt builder becomes a labelled image segment after the text`() throws {
        let prompt = Prompt {
            "Classify this image."
            Attachment(imageData: Self.png).label("pixel")
        }
        let segments = Transcript.Prompt(segments: prompt.segments).segments
        #expect(segments.count == 2)
        guard case .text(let text) = segments[0], case .attachment(let attachment) = segments[1], case .image(let image) = attachment.content else {
            Issue.record("unexpected segments \(segments)"); return
        }
        #expect(text.content == "Classify this image.")
        #expect(attachment.label == "pixel")
        #expect(image.contentType == "image/png")   // from the bytes' signature
        #expect(image.data == Self.png && image.url == nil)
        #expect(attachment.description == #"[image image/png, 70 bytes: "pixel"]"#)
    }

    @Test(arguments: [("cat.JPG", "image/jpeg"), ("a.jpeg", "image/jpeg"), ("b.webp", "image/webp"), ("c.gif", "image/gif"), ("d.png", "image/png")])
    func `an image URL's type comes from its extension`(name: String, type: String) {
        let image = Transcript.ImageAttachment(imageURL: URL(fileURLWithPath: "/tmp/\(name)"))
        #expect(image.contentType == type)
        #expect(image.data == nil)
    }

    @Test func `a given content type wins over the bytes and a file without extension is sniffed when read`() throws {
        #expect(Transcript.ImageAttachment(data: Self.png, contentType: "image/x-custom").contentType == "image/x-custom")
        let url = try Self.writePNG(named: "noextension")
        let image = Transcript.ImageAttachment(imageURL: url)
        #expect(image.contentType == nil)
        let loaded = try image.loaded()
        #expect(loaded.contentType == "image/png" && loaded.data == Self.png && loaded.url == url)
        let missing = URL(fileURLWithPath: "/nonexistent/dir/x.png")
        #expect(throws: Transcript.ImageAttachment.LoadError.self) { try Transcript.ImageAttachment(imageURL: missing).loaded() }
        #expect(throws: Transcript.ImageAttachment.LoadError.unknownContentType(nil)) { try Transcript.ImageAttachment(data: Data([1, 2, 3])).loaded() }
    }

    // MARK: Transcript JSON

    @Test func `a transcript with an attachment round-trips through JSON with its bytes, type, label and URL`() throws {
        let url = URL(fileURLWithPath: "/tmp/pixel.png")
        let image = Transcript.ImageAttachment(imageURL: url)
        var loaded = image
        loaded.data = Self.png
        let transcript = Transcript(entries: [
            .prompt(Transcript.Prompt(id: "p1", segments: [
                .text(Transcript.TextSegment(id: "t1", content: "What is this?")),
                .attachment(Transcript.AttachmentSegment(id: "a1", content: .image(loaded), label: "pixel")),
                .attachment(Transcript.AttachmentSegment(id: "a2", content: .image(Transcript.ImageAttachment(data: Self.png)))),
            ])),
            .response(Transcript.Response(id: "r1", assetIDs: ["m"], segments: [.text(Transcript.TextSegment(id: "t2", content: "A pixel."))])),
        ])
        let data = try JSONEncoder().encode(transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: data)
        #expect(decoded == transcript)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require((json["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
        let contents = try #require(entries[0]["contents"] as? [[String: Any]])
        #expect(contents[1]["type"] as? String == "attachment")
        #expect(contents[1]["label"] as? String == "pixel")
        let body = try #require(contents[1]["attachment"] as? [String: Any])
        #expect(body["type"] as? String == "image")
        #expect(body["contentType"] as? String == "image/png")
        #expect(body["data"] as? String == Self.pngBase64)
        #expect(body["url"] as? String == "file:///tmp/pixel.png")
        #expect(contents[2]["label"] == nil && (contents[2]["attachment"] as? [String: Any])?["url"] == nil)
    }

    @Test func `an attachment segment without an image or with bad base64 names the segment`() {
        func decode(_ attachment: String) throws {
            let json = #"{"type":"FoundationModels.Transcript","version":"1.1","transcript":{"entries":[{"role":"user","id":"p","contents":[{"type":"attachment","id":"a9",\#(attachment)}],"options":{}}]}}"#
            _ = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
        }
        #expect(throws: DecodingError.self) { try decode(#""attachment":{"type":"video"}"#) }
        #expect(throws: DecodingError.self) { try decode(#""attachment":{"type":"image","data":"***"}"#) }
        #expect(throws: Never.self) { try decode(#""attachment":{"type":"image","contentType":"image/png","data":"\#(Self.pngBase64)"}"#) }
    }

    // MARK: OpenAI-compatible

    @Test func `an OpenAI-compatible model with vision sends the image as a data URL part and the transcript keeps the bytes`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["A pixel."])))
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "vlm", contextSize: 4096, timeout: 5,
                                                  capabilities: LanguageModelCapabilities(capabilities: [.vision, .guidedGeneration, .toolCalling]))
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        let url = try Self.writePNG()
        let response = try await session.respond {
            "What is this?"
            Attachment(imageURL: url).label("pixel")
            "One word."
        }
        #expect(response.content == "A pixel.")
        let messages = try #require(proxy.requests.first?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["system", "user"])
        let parts = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(parts.map { $0["type"] as? String } == ["text", "image_url", "text"])
        #expect(parts[0]["text"] as? String == "What is this?")
        #expect((parts[1]["image_url"] as? [String: Any])?["url"] as? String == "data:image/png;base64," + Self.pngBase64)
        #expect(parts[2]["text"] as? String == "One word.")
        guard case .prompt(let prompt) = session.transcript[1], case .attachment(let attachment) = prompt.segments[1],
              case .image(let image) = attachment.content else { Issue.record("no attachment in \(session.transcript)"); return }
        #expect(image.data == Self.png && image.contentType == "image/png" && image.url == url && attachment.label == "pixel")
    }

    @Test func `an OpenAI-compatible model without vision throws unsupportedCapability(.vision) and sends nothing`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        await #expect { _ = try await session.respond(to: Prompt { "x"; Attachment(imageData: Self.png) }) } throws: { Self.isUnsupportedVision($0, entries: 1) }
        #expect(proxy.requests.isEmpty)
        #expect(session.transcript.isEmpty)
    }

    @Test func `a missing image file throws LoadError, sends nothing and leaves the transcript as it was`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "vlm", contextSize: 4096, timeout: 5,
                                                  capabilities: LanguageModelCapabilities(capabilities: [.vision]))
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        let before = session.transcript
        let missing = URL(fileURLWithPath: "/nonexistent/lmsession/cat.png")
        await #expect {
            _ = try await session.respond { "What is this?"; Attachment(imageURL: missing) }
        } throws: { error in
            guard case Transcript.ImageAttachment.LoadError.unreadable(let url, _) = error else { return false }
            return url == missing
        }
        #expect(proxy.requests.isEmpty)
        #expect(session.transcript == before)
    }

    @Test func `an image URL that is not a file, or is a directory, is refused by name`() throws {
        let remote = try #require(URL(string: "https://example.invalid/a.png"))
        let directory = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        for (url, reason) in [(remote, "only file URLs are read"), (directory, "it is a directory")] {
            #expect {
                _ = try Transcript.ImageAttachment(imageURL: url).loaded()
            } throws: { error in
                guard case let Transcript.ImageAttachment.LoadError.unreadable(found, text) = error else { return false }
                return found == url && text.contains(reason) && "\(error)".contains(url.isFileURL ? url.path : url.absoluteString)
            }
        }
    }

    @Test func `a device or an oversized image file is refused by name, reading stopped at the bound`() throws {
        let zero = URL(fileURLWithPath: "/dev/zero")
        #expect {
            _ = try Transcript.ImageAttachment(imageURL: zero).loaded()
        } throws: { error in
            guard case let Transcript.ImageAttachment.LoadError.unreadable(found, text) = error else { return false }
            return found == zero && text.contains("not a regular file")
        }
        // A sparse file one byte over the bound: nothing on disk, refused by its size.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-huge-\(UUID().uuidString).png")
        try Self.png.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(256 << 20) + 1)
        try handle.close()
        #expect {
            _ = try Transcript.ImageAttachment(imageURL: url).loaded()
        } throws: { error in
            guard case let Transcript.ImageAttachment.LoadError.unreadable(found, text) = error else { return false }
            return found == url && text.contains("more than 268435456 bytes")
        }
    }

    // MARK: Claude

    @Test func `a Claude model with image input sends an image block with base64 source`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.llamaServerText)))
        let vision = ClaudeModel(id: "vlm", capabilities: .init(samplingParams: true, imageInput: true), contextSize: 4096)
        let session = LanguageModelSession(model: ClaudeTestServer.model(vision, proxy: proxy))
        let url = try Self.writePNG(named: "pixel.PNG")
        _ = try await session.respond(to: Prompt { "Describe"; Attachment(imageURL: url) }, options: ClaudeTestServer.options(8))
        let messages = try #require(proxy.requests.first?.json?["messages"] as? [[String: Any]])
        #expect(messages.count == 1 && messages[0]["role"] as? String == "user")
        let blocks = try #require(messages[0]["content"] as? [[String: Any]])
        #expect(blocks.map { $0["type"] as? String } == ["text", "image"])
        #expect(blocks[0]["text"] as? String == "Describe")
        let source = try #require(blocks[1]["source"] as? [String: Any])
        #expect(source["type"] as? String == "base64")
        #expect(source["media_type"] as? String == "image/png")
        #expect(source["data"] as? String == Self.pngBase64)
    }

    @Test func `a Claude model without image input throws before sending, and so does an image earlier in the transcript`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let earlier = Transcript(entries: [.prompt(Transcript.Prompt(segments: [.attachment(Transcript.AttachmentSegment(content: .image(.init(data: Self.png))))])),
                                           .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "A pixel."))]))])
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy), transcript: earlier)
        await #expect { _ = try await session.respond(to: "And now?") } throws: { Self.isUnsupportedVision($0, entries: 1) }
        await #expect { _ = try await session.respond(to: Prompt { Attachment(imageData: Self.png) }) } throws: { Self.isUnsupportedVision($0, entries: 2) }
        #expect(proxy.requests.isEmpty)
        #expect(session.transcript == earlier)
    }

    // MARK: Local model

    @Test func `the local text model throws unsupportedCapability(.vision) before evaluating a token`() async throws {
        let session = LanguageModelSession(model: RealModel.model, instructions: "Answer in one word.")
        let before = session.transcript
        let url = try Self.writePNG()
        await #expect {
            _ = try await session.respond(generating: String.self, options: RealModel.greedy(4)) {
                "Classify this image."
                Attachment(imageURL: url)
            }
        } throws: { Self.isUnsupportedVision($0, entries: 1) }
        #expect(session.transcript == before)
        // Nothing was evaluated: the next request finds no cached tokens from the refused one.
        let next = try await session.respond(to: "Say yes.", options: RealModel.greedy(2))
        #expect(next.usage.input.cachedTokenCount == 0)
        #expect(session.transcript.count == 3)
    }

    @Test func `the local model called directly, without a session, refuses an attachment before loading`() async throws {
        let transcript = Transcript(entries: [.prompt(Transcript.Prompt(segments: [
            .text(.init(content: "What is this?")), .attachment(.init(content: .image(.init(data: Self.png)), label: "pixel"))]))])
        let channel = LanguageModelExecutorGenerationChannel()
        let request = LanguageModelExecutorGenerationRequest(transcript: transcript, generationOptions: RealModel.greedy(2))
        await #expect {
            try await LocalModelExecutor(configuration: .init()).respond(to: request, model: RealModel.model, streamingInto: channel)
        } throws: { Self.isUnsupportedVision($0, entries: 0) }
        var events = 0
        channel.finish()
        for await _ in channel { events += 1 }
        #expect(events == 0)
    }

    @Test func `a model without vision is never called: the scripted model sees no request`() async throws {
        let provider = ScriptedProvider([.text(["never"])])
        let session = LanguageModelSession(model: provider)
        await #expect { _ = try await session.respond { "x"; Attachment(imageData: Self.png) } } throws: { Self.isUnsupportedVision($0, entries: 1) }
        #expect(provider.requests.isEmpty)
    }
}
