import Foundation
import LMSession
import Synchronization
import Testing

/// Apple 27's `DynamicInstructions`: evaluated before every model call, tools included.
@Suite struct DynamicInstructionsTests {
    final class Switch: Sendable {
        let isOn = Atomic(false)
        var value: Bool { isOn.load(ordering: .relaxed) }
        func set(_ on: Bool) { isOn.store(on, ordering: .relaxed) }
    }

    /// A tool that turns `expert` on when called, so the next model call of the same request sees new instructions.
    struct Promote: Tool {
        let name = "promote"
        let description = "Switches the assistant to expert mode."
        let expert: Switch
        struct Arguments: GenerableSchema {}
        func call(arguments: Arguments) async throws -> String {
            expert.set(true)
            return "promoted"
        }
    }

    struct Tone: DynamicInstructions {
        let formal: Bool
        var body: some DynamicInstructions {
            if formal { Instructions("Use a formal tone.") } else { Instructions("Use a casual tone.") }
        }
    }

    struct Assistant: DynamicInstructions {
        let expert: Switch
        let extra: String?
        var body: some DynamicInstructions {
            Instructions("You are a helpful assistant.")
            Tone(formal: expert.value)
            if let extra { Instructions(extra) }
            if expert.value {
                Instructions("Answer as an expert.")
                FindContacts()
            } else {
                Promote(expert: expert)
            }
        }
    }

    static func instructionTexts(_ request: LanguageModelRequest) -> [String] {
        guard case .instructions(let i) = request.transcript.first else { return [] }
        return i.segments.map(\.description)
    }

    @Test func instructionsAndToolsAreEvaluatedBeforeEveryModelCallOfARequest() async throws {
        let expert = Switch()
        let call = Transcript.ToolCall(id: "p1", toolName: "promote", arguments: try GeneratedContent(json: "{}"))
        let model = ScriptedProvider([.toolCalls([call]), .text(["Certainly."]), .text(["Again."])])
        let session = LanguageModelSession(model: model, dynamicInstructions: Assistant(expert: expert, extra: "Be brief."))
        #expect(session.transcript.count == 1, "the instructions entry is there from the start")

        let response = try await session.respond(to: "Help me.")
        #expect(response.content == "Certainly.")
        let requests = model.requests
        #expect(requests.count == 2)
        #expect(Self.instructionTexts(requests[0]) == ["You are a helpful assistant.", "Use a casual tone.", "Be brief."])
        #expect(requests[0].toolDefinitions.map(\.name) == ["promote"])
        #expect(Self.instructionTexts(requests[1]) == ["You are a helpful assistant.", "Use a formal tone.", "Be brief.", "Answer as an expert."])
        #expect(requests[1].toolDefinitions.map(\.name) == ["FindContacts"])
        guard case .instructions(let stored) = session.transcript.first else { Issue.record("no instructions"); return }
        #expect(stored.segments.map(\.description).last == "Answer as an expert.", "the transcript keeps the last evaluation")
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])

        expert.set(false)
        try await session.respond(to: "And now?")
        #expect(Self.instructionTexts(model.requests[2]).contains("Use a casual tone."))
    }

    @Test func historyComesAfterTheInstructionsAndEmptyInstructionsAddNoEntry() async throws {
        struct Nothing: DynamicInstructions {
            var body: some DynamicInstructions {}
        }
        let history: [Transcript.Entry] = [
            .prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Hi"))])),
            .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: "Hello"))])),
        ]
        let model = ScriptedProvider([.text(["ok"])])
        let session = LanguageModelSession(model: model, dynamicInstructions: Nothing(), history: history)
        #expect(session.transcript.map(\.kindLabel) == ["prompt", "response"])
        try await session.respond(to: "Bye")
        #expect(model.requests[0].transcript.map(\.kindLabel) == ["prompt", "response", "prompt"])
        #expect(model.requests[0].toolDefinitions.isEmpty)
    }
}

/// The KV-cache order rule on the local model: what changes should come last in `body`.
@Suite struct DynamicInstructionsCacheOrderTests {
    struct Manual: DynamicInstructions {
        let flag: DynamicInstructionsTests.Switch
        let toggleFirst: Bool
        var body: some DynamicInstructions {
            if toggleFirst { Instructions(flag.value ? "Mode: detailed." : "Mode: short.") }
            Instructions(Self.manual)
            if !toggleFirst { Instructions(flag.value ? "Mode: detailed." : "Mode: short.") }
        }

        /// About 500 tokens of fixed instructions.
        static let manual = (1...20).map {
            "Rule \($0): answer questions about the garden shop politely, name the plant, its price in euros and where it grows best."
        }.joined(separator: " ")
    }

    func cachedShareAfterToggling(toggleFirst: Bool) async throws -> Double {
        let flag = DynamicInstructionsTests.Switch()
        let session = LanguageModelSession(model: RealModel.model, dynamicInstructions: Manual(flag: flag, toggleFirst: toggleFirst))
        try await session.respond(to: "Do you sell roses?", options: RealModel.greedy(8))
        flag.set(true)
        let second = try await session.respond(to: "And tulips?", options: RealModel.greedy(8))
        return Double(second.usage.input.cachedTokenCount) / Double(second.usage.input.totalTokenCount)
    }

    @Test func aConditionPlacedLastKeepsTheCacheAndOnePlacedFirstDropsIt() async throws {
        let last = try await cachedShareAfterToggling(toggleFirst: false)
        let first = try await cachedShareAfterToggling(toggleFirst: true)
        #expect(last > 0.9, "toggled last: \(last)")
        #expect(first < 0.1, "toggled first: \(first)")
    }
}
