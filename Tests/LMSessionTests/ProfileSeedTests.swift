import Foundation
import LMSession
import Synchronization
import Testing

// Apple's 27 profile examples (LanguageModelSession.Profile, "Composing dynamic sessions with instructions and
// profiles"), compiled against LMSession as written. Substitutions: `PrivateCloudComputeLanguageModel()` (not on
// Linux) is a scripted model that records its calls, and the app state the examples read is held in a class so
// that it can change between calls; `print` in the debug modifier appends to a log.

/// App state that profiles read when the session evaluates them.
final class Flags: Sendable {
    private let bits = Mutex<Set<String>>([])
    subscript(_ name: String) -> Bool {
        get { bits.withLock { $0.contains(name) } }
        set { bits.withLock { bits in if newValue { bits.insert(name) } else { bits.remove(name) } } }
    }
}

/// The text of a request's instructions entry.
func instructionTexts(_ request: LanguageModelRequest) -> [String] {
    guard case .instructions(let instructions) = request.transcript.first else { return [] }
    return instructions.segments.map(\.description)
}

/// The seed: a profile whose modifiers follow the person's interests (LanguageModelSession.Profile's overview).
struct InterestsProfile: LanguageModelSession.DynamicProfile {
    let interests: Flags
    var likesPoetry: Bool { interests["poetry"] }
    var likesAstronomy: Bool { interests["astronomy"] }

    var body: some LanguageModelSession.DynamicProfile {
        Profile {
            // Custom instructions and tools for a creative task.
        }
        // Use a higher creative temperature value when a person likes poetry.
        .temperature(likesPoetry ? 0.8 : 0.1)
        // Perform deeper reasoning when a person likes astronomy.
        .reasoningLevel(likesAstronomy ? .deep : .light)
    }
}

struct ImageEditingInstructions: DynamicInstructions {
    var body: some DynamicInstructions { Instructions("Help people edit the image on the current slide.") }
}

struct AnimationEditingInstructions: DynamicInstructions {
    var body: some DynamicInstructions { Instructions("Help people animate the current slide.") }
}

struct PresentationDynamicInstructions: DynamicInstructions {
    var body: some DynamicInstructions { Instructions("Help people improve their presentation.") }
}

/// The article's `PresentationProfile`: one of three profiles, by the app's editing state.
struct PresentationProfile: LanguageModelSession.DynamicProfile {
    // Create an instance to the server model (here: a scripted stand-in).
    var pccModel: any LanguageModel

    // The data source for the profile.
    let state: Flags
    var isEditingImage: Bool { state["image"] }
    var isEditingAnimation: Bool { state["animation"] }

    // Determine which profile to load based on the current state.
    var body: some LanguageModelSession.DynamicProfile {
        if isEditingImage {
            Profile {
                ImageEditingInstructions()
            }
        } else if isEditingAnimation {
            Profile {
                AnimationEditingInstructions()
            }
            .model(pccModel)
            .temperature(0.2)
            .reasoningLevel(.light)
        } else {
            Profile {
                PresentationDynamicInstructions()
            }
            .temperature(0.8)
        }
    }
}

enum MyCustomWritingMode: Sendable { case creative, technical }

final class Writer: Sendable {
    let mode = Mutex(MyCustomWritingMode.creative)
}

struct CreativeWritingInstructions: DynamicInstructions {
    var body: some DynamicInstructions { Instructions("Write vividly.") }
}

struct TechnicalWritingInstructions: DynamicInstructions {
    var body: some DynamicInstructions { Instructions("Write precisely.") }
}

// The article's three-tier precedence example.
// A top-level dynamic profile that includes a single subprofile.
struct WritingProfile: LanguageModelSession.DynamicProfile {
    let writer: Writer
    var body: some LanguageModelSession.DynamicProfile {
        // By default, the temperature value applies to both branches in
        // `WritingContent` unless a branch adds a temperature modifier.
        WritingContent(mode: writer.mode.withLock { $0 })
            .temperature(0.5)
    }
}

// A dynamic profile that contains two states.
struct WritingContent: LanguageModelSession.DynamicProfile {
    // A custom writing mode that determines which subprofile to use.
    var mode: MyCustomWritingMode = .creative

    var body: some LanguageModelSession.DynamicProfile {
        switch mode {
        case .creative:
            // Use the temperature `1.0` because the profile-level modifier takes priority.
            Profile {
                CreativeWritingInstructions()
            }
            .temperature(1.0)
        case .technical:
            // Inherit the temperature `0.5` from `WritingProfile`.
            Profile {
                TechnicalWritingInstructions()
            }
        }
    }
}

/// The article's reusable modifier (`print` replaced by a log).
struct DebugProfileModifier: LanguageModelSession.DynamicProfileModifier {
    let log: Log<String>
    func body(content: Content) -> some LanguageModelSession.DynamicProfile {
        content
            .temperature(0.0)
            .onResponse { response in
                log.append("Debug response: \(response.segments.map(\.description).joined())")
            }
    }
}

extension LanguageModelSession.DynamicProfile {
    func debug(_ log: Log<String>) -> some LanguageModelSession.DynamicProfile {
        self.modifier(DebugProfileModifier(log: log))
    }
}

@Suite struct ProfileSeedTests {
    @Test func theSeedProfileSendsItsTemperatureAndReasoningLevelAsTheInterestsChange() async throws {
        let interests = Flags()
        let model = ScriptedProvider([])
        let session = LanguageModelSession(profile: InterestsProfile(interests: interests).model(model))
        #expect(session.transcript.isEmpty, "an empty profile adds no instructions entry")

        try await session.respond(to: "A line about the sky.")
        interests["poetry"] = true
        try await session.respond(to: "Another.")
        interests["astronomy"] = true
        interests["poetry"] = false
        try await session.respond(to: "One more.")

        let requests = model.requests
        #expect(requests.map(\.options.temperature) == [0.1, 0.8, 0.1])
        #expect(requests.map(\.contextOptions.reasoningLevel) == [.light, .light, .deep])
        #expect(requests.map { $0.transcript.count } == [1, 3, 5], "one transcript across the calls")
    }

    @Test func thePresentationProfileSwitchesInstructionsModelAndSettingsWithTheAppState() async throws {
        let state = Flags()
        let onDevice = ScriptedProvider([])
        let server = ScriptedProvider([])
        let session = LanguageModelSession(profile: PresentationProfile(pccModel: server, state: state).model(onDevice))

        try await session.respond(to: "Make it better.")
        state["animation"] = true
        try await session.respond(to: "Animate the title.")
        state["image"] = true
        try await session.respond(to: "Crop the photo.")

        #expect(onDevice.requests.count == 2)
        #expect(server.requests.count == 1, "only the animation profile runs on the server model")
        #expect(instructionTexts(onDevice.requests[0]) == ["Help people improve their presentation."])
        #expect(onDevice.requests[0].options.temperature == 0.8)
        #expect(instructionTexts(server.requests[0]) == ["Help people animate the current slide."])
        #expect(server.requests[0].options.temperature == 0.2)
        #expect(server.requests[0].contextOptions.reasoningLevel == .light)
        #expect(server.requests[0].transcript.count == 4, "the server model gets the first turn too")
        #expect(instructionTexts(onDevice.requests[1]) == ["Help people edit the image on the current slide."])
        #expect(onDevice.requests[1].options.temperature == nil, "the image profile sets no temperature")
        #expect(onDevice.requests[1].transcript.count == 6)
        #expect(session.transcript.count == 7)
    }

    @Test func callSiteOptionsBeatTheSubprofileWhichBeatsTheDynamicProfileDefault() async throws {
        let writer = Writer()
        let model = ScriptedProvider([])
        let session = LanguageModelSession(profile: WritingProfile(writer: writer).model(model))

        try await session.respond(to: "creative, profile's own")
        try await session.respond(to: "creative, call site", options: GenerationOptions(temperature: 0.2))
        writer.mode.withLock { $0 = .technical }
        try await session.respond(to: "technical, inherited")
        try await session.respond(to: "technical, other call-site field", options: GenerationOptions(maximumResponseTokens: 7))

        let requests = model.requests
        #expect(requests.map(\.options.temperature) == [1.0, 0.2, 0.5, 0.5])
        #expect(requests.map(\.options.maximumResponseTokens) == [nil, nil, nil, 7])
        #expect(requests.map { instructionTexts($0).first } == ["Write vividly.", "Write vividly.", "Write precisely.", "Write precisely."])
    }

    @Test func aProfileModifierBundleActsAroundTheContentAndItsCallbacksRun() async throws {
        let log = Log<String>()
        let model = ScriptedProvider([.text(["Hello", "!"]), .text(["Bye."])])
        struct Plain: LanguageModelSession.DynamicProfile {
            let log: Log<String>
            let model: ScriptedProvider
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("You are a helpful assistant.") }
                    .debug(log)
                    .model(model)
            }
        }
        struct OwnTemperature: LanguageModelSession.DynamicProfile {
            let log: Log<String>
            let model: ScriptedProvider
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("You are a helpful assistant.") }
                    .temperature(0.9)
                    .debug(log)
                    .model(model)
            }
        }
        try await LanguageModelSession(profile: Plain(log: log, model: model)).respond(to: "Hi")
        try await LanguageModelSession(profile: OwnTemperature(log: log, model: model)).respond(to: "Hi")
        #expect(model.requests.map(\.options.temperature) == [0.0, 0.9], "the content's own modifier wins over the bundle's")
        #expect(log.values == ["Debug response: Hello!", "Debug response: Bye."])
    }
}
