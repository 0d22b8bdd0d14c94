import Foundation
import LMSession
import Synchronization
import Testing

/// A weather tool that always throws.
struct BrokenTool: Tool {
    struct Offline: Error {}
    let name = "getWeather"
    let description = "Weather for a city."
    let includesSchemaInInstructions = false
    var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, anyOf: ["Moscow"]) }

    func call(arguments: GeneratedContent) async throws -> String { throw Offline() }
}

/// Waits until `expected` calls are running at once (or `patience` has passed) and reports how many it saw.
struct RendezvousTool: Tool {
    let name = "rendezvous"
    let description = "Meets the other calls."
    let expected: Int
    let patience: Duration
    let running = Counter()
    var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, properties: []) }

    func call(arguments: GeneratedContent) async throws -> String {
        running.increment()
        let deadline = ContinuousClock.now + patience
        while running.value < expected && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        return "met \(running.value)"
    }
}

/// Sleeps for an hour unless cancelled; counts the cancellations it saw.
struct SlowTool: Tool {
    let name = "slow"
    let description = "Takes its time."
    let cancelled = Counter()
    let started = Counter()
    var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, properties: []) }

    func call(arguments: GeneratedContent) async throws -> String {
        started.increment()
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            cancelled.increment()
            throw error
        }
        return "done"
    }
}

/// Waits until released, whatever cancellation says (a tool written without regard for it).
struct ParkedTool: Tool {
    let name = "parked"
    let description = "Waits for a signal."
    let started = Counter()
    private let gate = AsyncStream<Void>.makeStream()
    var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, properties: []) }

    func release() { gate.continuation.finish() }

    func call(arguments: GeneratedContent) async throws -> String {
        started.increment()
        await Task.detached { [stream = gate.stream] in for await _ in stream {} }.value
        return "released"
    }
}

@Suite struct ToolLoopTests {
    static func call(_ id: String, _ name: String, _ json: String) throws -> Transcript.ToolCall {
        Transcript.ToolCall(id: id, toolName: name, arguments: try GeneratedContent(json: json))
    }

    @Test func toolCallsRunAndTheirOutputsGoBackToTheModelWithTheCallIDs() async throws {
        let calls = [try Self.call("c1", "FindContacts", #"{"count":3}"#), try Self.call("c2", "FindContacts", #"{"count":1}"#)]
        let model = ScriptedProvider([.toolCalls(calls), .text(["Dear Ada, Bob and Cy"])])
        let contacts = FindContacts()
        let session = LanguageModelSession(model: model, tools: [contacts], instructions: "Use tools.")
        let response = try await session.respond(to: "Invite three contacts.")

        #expect(response.content == "Dear Ada, Bob and Cy")
        #expect(response.transcriptEntries.count == 5)
        let entries = session.transcript.map { entry -> String in
            switch entry {
            case .toolOutput(let output): "toolOutput \(output.id) \(output.toolName): \(output.segments.map(\.description).joined(separator: ","))"
            case .toolCalls(let calls): "toolCalls " + calls.map { "\($0.id) \($0.description)" }.joined(separator: "; ")
            default: entry.kindLabel
            }
        }
        #expect(entries == ["instructions", "prompt", #"toolCalls c1 FindContacts({"count":3}); c2 FindContacts({"count":1})"#,
                            "toolOutput c1 FindContacts: Ada,Bob,Cy", "toolOutput c2 FindContacts: Ada", "response"])
        #expect(Set(contacts.counts.values) == [3, 1])
        #expect(model.requests.count == 2)
        #expect(model.requests[1].transcript.count == 5, "the second step sees the calls and outputs")
        #expect(model.requests[0].toolDefinitions.map(\.name) == ["FindContacts"])
    }

    @Test func theUsageOfAToolRequestSumsEveryModelCall() async throws {
        let calls = [try Self.call("c1", "FindContacts", #"{"count":3}"#), try Self.call("c2", "FindContacts", #"{"count":1}"#)]
        let model = ScriptedProvider([.toolCalls(calls), .text(["Dear ", "Ada."])])
        let session = LanguageModelSession(model: model, tools: [FindContacts()])
        let response = try await session.respond(to: "Invite three contacts.")

        var input = 0
        for request in model.requests { input += try await model.tokenCount(for: .request(request)) }
        #expect(model.requests.count == 2)
        #expect(response.usage.input.totalTokenCount == input)
        #expect(response.usage.output.totalTokenCount == 4, "2 calls, then 2 text deltas")
        #expect(session.usage.output.totalTokenCount == 4)
    }

    @Test func callsOfOneRoundRunConcurrently() async throws {
        let calls = try (1...3).map { try Self.call("r\($0)", "rendezvous", "{}") }
        let model = ScriptedProvider([.toolCalls(calls), .text(["ok"])])
        let tool = RendezvousTool(expected: 3, patience: .seconds(10))
        let session = LanguageModelSession(model: model, tools: [tool])
        try await session.respond(to: "Meet.")

        let outputs = session.transcript.compactMap { entry -> String? in
            if case .toolOutput(let output) = entry { "\(output.id): \(output.segments.map(\.description).joined())" } else { nil }
        }
        // Run one after another, the first call would wait out its patience and see only itself.
        #expect(outputs == ["r1: met 3", "r2: met 3", "r3: met 3"])
    }

    @Test func severalRoundsAppendCallsAndOutputsInOrderUntilTheResponse() async throws {
        let model = ScriptedProvider([
            .toolCalls([try Self.call("a", "FindContacts", #"{"count":2}"#)]),
            .toolCalls([try Self.call("b", "FindContacts", #"{"count":1}"#)]),
            .text(["Done."]),
        ])
        let session = LanguageModelSession(model: model, tools: [FindContacts()])
        try await session.respond(to: "Go.")

        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "toolCalls", "toolOutput", "response"])
        #expect(model.requests.map(\.transcript.count) == [2, 4, 6])
    }

    @Test func aThrowingToolEndsTheRequestWithToolCallErrorAndRollsBack() async throws {
        let model = ScriptedProvider([.toolCalls([try Self.call("w", "getWeather", #"{"city":"Moscow"}"#)]), .text(["Later."])])
        let session = LanguageModelSession(model: model, tools: [BrokenTool()])
        #expect(session.transcript.isEmpty, "a tool that keeps its schema out of the instructions adds no instructions entry")
        do {
            try await session.respond(to: "What should I wear in Moscow today?")
            Issue.record("no error")
        } catch let error as LanguageModelSession.ToolCallError {
            #expect(error.tool.name == "getWeather")
            #expect(error.underlyingError is BrokenTool.Offline)
            // Printed, it names the tool and what it threw, not the tool's stored values.
            #expect("\(error)" == "The tool \"getWeather\" failed: \(error.underlyingError.localizedDescription)")
            #expect(error.localizedDescription == "\(error)")
        }
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)
        // The session stays usable.
        let next = try await session.respond(to: "Never mind.")
        #expect(next.content == "Later.")
        #expect(session.transcript.map(\.kindLabel) == ["prompt", "response"])
    }

    @Test func argumentsThatDoNotDecodeEndTheRequestWithToolCallError() async throws {
        let model = ScriptedProvider([.toolCalls([try Self.call("x", "FindContacts", #"{"number":3}"#)])])
        let session = LanguageModelSession(model: model, tools: [FindContacts()])
        await #expect(throws: LanguageModelSession.ToolCallError.self) { try await session.respond(to: "Go.") }
        #expect(session.transcript.count == 1)
    }

    @Test func anUnknownToolNameIsReportedToTheModel() async throws {
        let model = ScriptedProvider([.toolCalls([try Self.call("x", "teleport", "{}")]), .text(["Sorry."])])
        let session = LanguageModelSession(model: model, tools: [FindContacts()])
        try await session.respond(to: "Beam me up.")
        guard case .toolOutput(let output) = model.requests[1].transcript.last else { Issue.record("no output"); return }
        #expect(output.segments.map(\.description) == [#"There is no tool named "teleport". Available tools: FindContacts."#])
        #expect(output.id == "x")
    }

    @Test(arguments: [0, 1, 3])
    func aModelThatKeepsCallingToolsStopsAtTheRoundLimit(limit: Int) async throws {
        let steps = try (0...limit).map { ScriptedProvider.Step.toolCalls([try Self.call("c\($0)", "FindContacts", #"{"count":1}"#)]) }
        let model = ScriptedProvider(steps + [.text(["Never reached."])])
        let contacts = FindContacts()
        let session = LanguageModelSession(model: model, tools: [contacts])
        #expect(session.maximumToolCallRounds == LanguageModelSession.defaultMaximumToolCallRounds)
        session.maximumToolCallRounds = limit
        do {
            try await session.respond(to: "Loop.")
            Issue.record("no error")
        } catch let error as LanguageModelSession.ToolCallRoundLimitError {
            #expect(error.limit == limit)
            #expect(error.toolCalls.map(\.id) == ["c\(limit)"])
        }
        #expect(contacts.counts.values.count == limit, "the refused round's calls do not run")
        #expect(model.requests.count == limit + 1)
        #expect(session.transcript.count == 1, "rolled back to the instructions")
        #expect(!session.isResponding)
    }

    @Test func theDefaultRoundLimitIsEight() async throws {
        let steps = try (0..<9).map { ScriptedProvider.Step.toolCalls([try Self.call("c\($0)", "FindContacts", #"{"count":1}"#)]) }
        let model = ScriptedProvider(steps)
        let session = LanguageModelSession(model: model, tools: [FindContacts()])
        await #expect(throws: LanguageModelSession.ToolCallRoundLimitError.self) { try await session.respond(to: "Loop.") }
        #expect(model.requests.count == 9)
    }

    @Test func requiredToolCallingAppliesToTheFirstRoundOnly() async throws {
        let model = ScriptedProvider([.toolCalls([try Self.call("a", "FindContacts", #"{"count":2}"#)]), .text(["Hi Ada, Bob."])])
        let session = LanguageModelSession(model: model, tools: [FindContacts()])
        try await session.respond(to: "Invite two.", options: GenerationOptions(toolCallingMode: .required))

        #expect(model.requests.map(\.options.toolCallingMode) == [.required, .allowed])
        guard case .prompt(let prompt) = session.transcript[1] else { Issue.record("no prompt"); return }
        #expect(prompt.options.toolCallingMode == .required, "the transcript keeps the mode asked for")
    }

    @Test func cancellingDuringAToolRoundCancelsTheToolsAndRollsBack() async throws {
        let model = ScriptedProvider([.toolCalls([try Self.call("s1", "slow", "{}"), try Self.call("s2", "slow", "{}")]), .text(["After."])])
        let slow = SlowTool()
        let session = LanguageModelSession(model: model, tools: [slow], instructions: "Be patient.")
        let task = Task { try await session.respond(to: "Wait.") }
        // Generous deadline: CI machines may be heavily loaded; the point is to cancel mid-round.
        let deadline = ContinuousClock.now + .seconds(300)
        while slow.started.value < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(slow.started.value == 2, "both calls of the round started")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }

        // The request ends at once; the tools see their cancellation as they get to run.
        #expect(try await SessionLimitTests.eventually { slow.cancelled.value == 2 })
        #expect(session.transcript.count == 1)
        #expect(!session.isResponding)
        let next = try await session.respond(to: "Again.")
        #expect(next.content == "After.")
    }

    @Test(.timeLimit(.minutes(1))) func aToolThatIgnoresCancellationDoesNotHoldTheCancelledRequestOrItsSession() async throws {
        let model = ScriptedProvider([.toolCalls([try Self.call("p", "parked", "{}")]), .text(["After."])])
        let parked = ParkedTool()
        let session = LanguageModelSession(model: model, tools: [parked], instructions: "Be patient.")
        let task = Task { try await session.respond(to: "Wait.") }
        let deadline = ContinuousClock.now + .seconds(300)
        while parked.started.value < 1 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(parked.started.value == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(session.transcript.count == 1)
        #expect(!session.isResponding)
        #expect(try await session.respond(to: "Again.").content == "After.")
        parked.release()
    }

    @Test func instructionsListOnlyToolsThatIncludeTheirSchema() {
        let model = ScriptedProvider([])
        let session = LanguageModelSession(model: model, tools: [FindContacts(), BrokenTool()], instructions: "Hi")
        guard case .instructions(let instructions) = session.transcript.first else { Issue.record("no instructions"); return }
        #expect(instructions.toolDefinitions.map(\.name) == ["FindContacts"])
        #expect(instructions.toolDefinitions.first?.description == "Finds the user's contacts.")
    }

    @Test func everyToolIsOfferedToTheModelEvenWhenItsSchemaIsNotInTheInstructions() async throws {
        let model = ScriptedProvider([.text(["Fine."])])
        let session = LanguageModelSession(model: model, tools: [FindContacts(), BrokenTool()])
        try await session.respond(to: "Hello.")
        #expect(model.requests.first?.toolDefinitions.map(\.name) == ["FindContacts", "getWeather"])
    }
}
