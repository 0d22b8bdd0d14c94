import Foundation
import LMSession
import Testing

// Apple's 27 examples compiled against LMSession as Apple writes them, `@Generable` replaced by the conformance
// it expands to: the `DynamicInstructions` overview (`PresentationInstructions`), `DynamicInstructionsForEach`,
// the `SessionPropertyValues` overview (`CompactingProfile`), the `ImageReference` overview (`MyTool`), and an
// image classification with `respond(generating:options:) { …; Attachment(…) }`. The reasoning seed
// (`respond(to:contextOptions: ContextOptions(reasoningLevel: .deep))`) runs on a local model in
// `LocalReasoningTests` and below; the `Profile` seeds are in `ProfileSeedTests`.
enum Seed27 {
    /// A tool with no arguments that records its calls.
    struct ListPhotosTool: Tool {
        let description = "Lists the photos in the library."
        var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, properties: []) }
        func call(arguments: GeneratedContent) async throws -> String { "beach.png, dog.png" }
    }

    struct AddPhotoTool: Tool {
        let description = "Adds a photo to the current slide."
        var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, properties: []) }
        func call(arguments: GeneratedContent) async throws -> String { "added" }
    }

    struct CropTool: Tool {
        let description = "Crops the selected image."
        var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, properties: []) }
        func call(arguments: GeneratedContent) async throws -> String { "cropped" }
    }

    struct ImageEditingInstructions: DynamicInstructions {
        var body: some DynamicInstructions {
            Instructions("Help people edit the selected image.")
            CropTool()
        }
    }

    /// Apple's `DynamicInstructions` overview, as written.
    struct PresentationInstructions: DynamicInstructions {
        // The data source for conditional instructions.
        var isEditingImage = true

        var body: some DynamicInstructions {
            // The instructions and tools that remain the same across any use of this type.
            Instructions {
                "Help people improve their presentation."
            }
            ListPhotosTool()
            AddPhotoTool()

            // Depending on the state of the app, include additional instructions
            // that provide the model with more task-specific instructions and tools.
            if isEditingImage {
                ImageEditingInstructions()
            }
        }
    }

    struct Slide: Identifiable {
        let id: Int
        let title: String
    }

    /// `ForEach` in a body: one instruction per slide, after the fixed part.
    struct DeckInstructions: DynamicInstructions {
        var slides: [Slide]
        var body: some DynamicInstructions {
            Instructions("The deck's slides:")
            ForEach(slides) { slide in
                Instructions("\(slide.id). \(slide.title)")
            }
            ForEach(slides, id: \.title) { slide in
                if slide.id == 2 { CropTool() }
            }
        }
    }

    /// The `SessionPropertyValues` overview, as written (the limits made small enough for a test by the history
    /// the session starts with).
    struct CompactingProfile: LanguageModelSession.DynamicProfile {
        @SessionProperty(\.history)
        var history

        var body: some LanguageModelSession.DynamicProfile {
            Profile {
                // Custom instructions and tools that you define.
                Instructions("Answer briefly.")
            }
            .onResponse { _ in
                // Compact the history when the entries exceed a certain limit.
                if history.count > 100 {
                    history = Array(history.suffix(50))
                }
            }
        }
    }

    enum ImageToolError: Error { case imageNotFound(String) }

    /// The `ImageReference` overview's tool, `@Generable` replaced by its expansion.
    struct MyTool: Tool {
        let description = "Describes an image the person attached."
        @SessionProperty(\.history) var history

        struct Arguments: Generable {
            var image: ImageReference

            static var generationSchema: GenerationSchema {
                GenerationSchema(type: Self.self, properties: [GenerationSchema.Property(name: "image", type: ImageReference.self)])
            }
            var generatedContent: GeneratedContent { GeneratedContent(properties: ["image": image]) }
            init(_ content: GeneratedContent) throws { image = try content.value(forProperty: "image") }
        }

        public func call(arguments: Arguments) async throws -> String {
            guard let imageAttachment = arguments.image.resolved(in: history) else {
                throw ImageToolError.imageNotFound(arguments.image.attachmentLabel)
            }
            return "\(imageAttachment.contentType ?? "?"), \(imageAttachment.data?.count ?? 0) bytes"
        }
    }

    /// The image classification's result type, `@Generable` replaced by its expansion.
    enum Category: String, CaseIterable, Generable {
        case cat, dog, other
        static var generationSchema: GenerationSchema { GenerationSchema(type: Self.self, anyOf: allCases.map(\.rawValue)) }
        var generatedContent: GeneratedContent { GeneratedContent(rawValue) }
        init(_ content: GeneratedContent) throws {
            guard let value = Self(rawValue: try content.value(String.self)) else { throw ImageToolError.imageNotFound("category") }
            self = value
        }
    }

    /// A counter key, as `@SessionPropertyEntry` would declare it.
    struct TurnCountKey: SessionPropertyKey { static let defaultValue = 0 }

    /// Counts the session's model calls in a custom session property and says so in its instructions.
    struct CountingInstructions: DynamicInstructions {
        @SessionProperty(\.turnCount) var turnCount
        var body: some DynamicInstructions {
            Instructions("Call number \(turnCount).")
        }
    }

    struct CountingProfile: LanguageModelSession.DynamicProfile {
        @SessionProperty(\.turnCount) var turnCount
        var body: some LanguageModelSession.DynamicProfile {
            Profile { CountingInstructions() }
                .onResponse { _ in turnCount += 1 }
        }
    }
}

extension SessionPropertyValues {
    var turnCount: Int {
        get { self[Seed27.TurnCountKey.self] }
        set { self[Seed27.TurnCountKey.self] = newValue }
    }
}

@Suite("Apple 27 seed examples", .timeLimit(.minutes(2)))
struct Seed27Tests {
    static func toolNames(_ request: LanguageModelRequest) -> [String] { request.toolDefinitions.map(\.name) }

    @Test(arguments: [(true, ["Help people improve their presentation.", "Help people edit the selected image."],
                       ["ListPhotosTool", "AddPhotoTool", "CropTool"]),
                      (false, ["Help people improve their presentation."], ["ListPhotosTool", "AddPhotoTool"])])
    func presentationInstructionsGiveEachCallItsInstructionsAndTools(editing: Bool, instructions: [String], tools: [String]) async throws {
        let model = ScriptedProvider([.text(["Sure."])])
        let session = LanguageModelSession(model: model, dynamicInstructions: Seed27.PresentationInstructions(isEditingImage: editing))
        _ = try await session.respond(to: "Make slide 2 better.")
        let request = try #require(model.requests.first)
        #expect(instructionTexts(request) == instructions)
        #expect(Self.toolNames(request) == tools)
    }

    @Test func forEachAddsEveryElementsInstructionsAndToolsInOrder() async throws {
        let model = ScriptedProvider([.text(["Ok."])])
        let slides = [Seed27.Slide(id: 1, title: "Intro"), Seed27.Slide(id: 2, title: "Numbers"), Seed27.Slide(id: 3, title: "End")]
        let session = LanguageModelSession(model: model, dynamicInstructions: Seed27.DeckInstructions(slides: slides))
        _ = try await session.respond(to: "Summarise the deck.")
        let request = try #require(model.requests.first)
        #expect(instructionTexts(request) == ["The deck's slides:", "1. Intro", "2. Numbers", "3. End"])
        #expect(Self.toolNames(request) == ["CropTool"])
    }

    @Test func compactingProfileTrimsTheHistoryFromItsResponseCallback() async throws {
        let model = ScriptedProvider([.text(["Fine."])])
        // 101 earlier entries: with this request's prompt the history holds 102 when the response arrives.
        let earlier: [Transcript.Entry] = (0..<101).map { i in
            i.isMultiple(of: 2) ? .prompt(Transcript.Prompt(segments: [.text(.init(content: "q\(i)"))]))
                : .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "a\(i)"))]))
        }
        let session = LanguageModelSession(profile: Seed27.CompactingProfile().model(model), history: earlier)
        let response = try await session.respond(to: "And now?")
        // The model saw the whole history; the callback then kept the last 50 (49 earlier ones and the prompt),
        // and the response came after them.
        #expect(model.requests.first.map { Array($0.transcript.history).count } == 102)
        let history = Array(session.transcript.history)
        #expect(history.count == 51)
        #expect(history.first.map(Self.text) == "q52")
        #expect(history.suffix(2).map(Self.text) == ["And now?", "Fine."])
        #expect(response.transcriptEntries.map(\.kindLabel) == ["prompt", "response"])
        #expect(session.properties.history.count == 51)
    }

    @Test func aCustomSessionPropertyIsReadByTheBodyAndWrittenByACallback() async throws {
        let model = ScriptedProvider([.text(["One."]), .text(["Two."])])
        let session = LanguageModelSession(profile: Seed27.CountingProfile().model(model))
        _ = try await session.respond(to: "Hi")
        _ = try await session.respond(to: "Again")
        #expect(model.requests.map(instructionTexts) == [["Call number 0."], ["Call number 1."]])
        #expect(session.properties.turnCount == 2)
        // Outside any session, a wrapper has values of its own.
        let detached = Seed27.CountingInstructions()
        #expect(detached.turnCount == 0)
        detached.turnCount = 7
        #expect(detached.turnCount == 7 && session.properties.turnCount == 2)
    }

    @Test func imageReferenceResolvesTheLabelledAttachmentInsideATool() async throws {
        let arguments = GeneratedContent(properties: ["image": GeneratedContent(properties: ["attachmentLabel": "pixel"])])
        let provider = ScriptedProvider([.toolCalls([Transcript.ToolCall(id: "c1", toolName: "MyTool", arguments: arguments)]),
                                         .text(["A one-pixel PNG."])],
                                        capabilities: LanguageModelCapabilities(capabilities: [.vision, .toolCalling, .guidedGeneration]))
        let session = LanguageModelSession(model: provider, tools: [Seed27.MyTool()])
        let response = try await session.respond {
            "What is in this image?"
            Attachment(imageData: AttachmentTests.png).label("pixel")
        }
        #expect(response.content == "A one-pixel PNG.")
        let outputs = session.transcript.compactMap { if case .toolOutput(let o) = $0 { o.segments.map(\.description).joined() } else { nil } }
        #expect(outputs == ["image/png, 70 bytes"])
        // The reference's own schema and partial form.
        #expect(ImageReference(attachmentLabel: "x").resolved(in: session.transcript) == nil)
        #expect(try ImageReference.PartiallyGenerated(GeneratedContent(json: #"{"attachmentLabel": "pix"#)).attachmentLabel == "pix")
    }

    @Test func imageClassificationSendsTheImageAndDecodesTheCategory() async throws {
        let provider = ScriptedProvider([.text([#""dog""#])],
                                        capabilities: LanguageModelCapabilities(capabilities: [.vision, .guidedGeneration]))
        let session = LanguageModelSession(model: provider)
        let url = try AttachmentTests.writePNG(named: "dog.png")
        let response = try await session.respond(generating: Seed27.Category.self, options: GenerationOptions(sampling: .greedy)) {
            "Classify the animal in this image."
            Attachment(imageURL: url)
        }
        #expect(response.content == .dog)
        let request = try #require(provider.requests.first)
        guard case .prompt(let prompt) = request.transcript.last, case .attachment(let segment) = prompt.segments.last,
              case .image(let image) = segment.content else { Issue.record("no image in \(request.transcript)"); return }
        #expect(image.data == AttachmentTests.png && image.contentType == "image/png")
    }

    @Test func reasoningSeedRunsAsWrittenOnAModelWithAThinkingSwitch() async throws {
        let session = LanguageModelSession(model: try LocalReasoningTests.model())
        let prompt = "Why is the sky blue?"
        let response = try await session.respond(to: prompt, contextOptions: ContextOptions(reasoningLevel: .deep))
        #expect(response.content == "OK")
        #expect(response.usage.output.reasoningTokenCount == 4)
    }

    static func text(_ entry: Transcript.Entry) -> String {
        switch entry {
        case .prompt(let p): p.segments.map(\.description).joined()
        case .response(let r): r.segments.map(\.description).joined()
        default: ""
        }
    }
}
