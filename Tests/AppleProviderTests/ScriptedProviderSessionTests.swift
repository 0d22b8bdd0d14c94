import Foundation
import LMSession
import Testing

/// A provider written from Apple's guide, run by LMSession's sessions through the public API only.
@Suite struct ScriptedProviderSessionTests {
    let transport = StubbedTransport.shared

    @Test func streamedTextDeltasAssembleIntoACompleteResponse() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.textDelta("Hello"), .textDelta(", world!"), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        let response = try await session.respond(to: "anything")
        #expect(response.content == "Hello, world!")
        guard case .response(let entry)? = session.transcript.last else {
            Issue.record("the transcript does not end with a response: \(session.transcript)")
            return
        }
        #expect(entry.segments.map(\.description) == ["Hello, world!"])
    }

    @Test func theExecutorSeesTheTranscriptInstructionsAndOptions() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.textDelta("one"), .done], [.textDelta("two"), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id), instructions: "Be brief.")
        _ = try await session.respond(to: "first")
        _ = try await session.respond(to: "second", options: GenerationOptions(samplingMode: .random(top: 4, seed: 7), temperature: 0.5))
        let second = try #require(transport.requests(for: id).last)
        let kinds = second.transcript.map { entry -> String in
            switch entry {
            case .instructions: "instructions"
            case .prompt(let p): "prompt:" + p.segments.map(\.description).joined()
            case .response(let r): "response:" + r.segments.map(\.description).joined()
            default: "other"
            }
        }
        #expect(kinds == ["instructions", "prompt:first", "response:one", "prompt:second"])
        #expect(second.generationOptions.temperature == 0.5)
        #expect(second.generationOptions.samplingMode?.kind == .randomTopK(k: 4, seed: 7))
        #expect(second.schema == nil)
        #expect(second.enabledToolDefinitions.isEmpty)
    }

    @Test func snapshotsGrowWithEachDelta() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.textDelta("A"), .textDelta("B"), .textDelta("C"), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        var seen: [String] = []
        for try await snapshot in session.streamResponse(to: "letters") { seen.append(snapshot.content) }
        #expect(seen.last == "ABC")
        // Each snapshot extends the one before: deltas, never a restart.
        for (earlier, later) in zip(seen, seen.dropFirst()) { #expect(later.hasPrefix(earlier)) }
        #expect(session.transcript.count == 2)
    }

    @Test func aReplacedTextSegmentReplacesTheStreamedText() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.textDelta("Helo wrld"), .correctedText("Hello world"), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        var last = ""
        for try await snapshot in session.streamResponse(to: "greet") { last = snapshot.content }
        #expect(last == "Hello world")

        transport.respond(with: [[.textDelta("Helo wrld"), .correctedText("Hello world"), .done]], for: id)
        #expect(try await session.respond(to: "again").content == "Hello world")
    }

    @Test func structuredOutputIsParsedFromTheStreamedJSON() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.textDelta(#"{"city": "Pan"#), .textDelta(#"icale", "days": 4}"#), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        let response = try await session.respond(to: "Plan a trip", generating: Itinerary.self)
        #expect(response.content == Itinerary(city: "Panicale", days: 4))
        let request = try #require(transport.requests(for: id).first)
        #expect(request.schema != nil)
        #expect(request.contextOptions.includeSchemaInPrompt == true)
    }

    @Test func structuredSnapshotsArePartialValues() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.textDelta(#"{"city": "Ro"#), .textDelta(#"me", "days": 2}"#), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        var cities: [String?] = []
        for try await snapshot in session.streamResponse(to: "Plan", schema: Itinerary.generationSchema) {
            cities.append(try? snapshot.content.value(String.self, forProperty: "city"))
        }
        #expect(cities.first == "Ro")
        #expect(cities.last == "Rome")
    }

    @Test func aSchemaOnAModelWithoutGuidedGenerationThrowsUnsupportedCapability() async throws {
        let id = uniqueModelID()
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id, capabilities: [.toolCalling]))
        do {
            _ = try await session.respond(to: "Plan", generating: Itinerary.self)
            Issue.record("a schema on a model without guided generation was answered")
        } catch LanguageModelError.unsupportedCapability(let missing) {
            #expect(missing.capability == .guidedGeneration)
        }
        #expect(transport.requests(for: id).isEmpty, "the executor was never called")
        #expect(session.transcript.isEmpty)
    }

    @Test func toolsOnAModelWithoutToolCallingThrowUnsupportedCapability() async throws {
        let id = uniqueModelID()
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id, capabilities: []), tools: [TemperatureTool()])
        do {
            _ = try await session.respond(to: "How warm is Oslo?")
            Issue.record("tools on a model without tool calling were accepted")
        } catch LanguageModelError.unsupportedCapability(let missing) {
            #expect(missing.capability == .toolCalling)
        }
        #expect(transport.requests(for: id).isEmpty)
    }

    @Test func interleavedToolCallArgumentsAccumulateByIDAndTheLoopRunsTheTools() async throws {
        let id = uniqueModelID()
        transport.respond(with: [
            [.toolCallStart(id: "a", name: "temperature"), .toolCallStart(id: "b", name: "temperature"),
             .toolCallArgsDelta(id: "a", name: "temperature", args: #"{"city":"#),
             .toolCallStart(id: "x", name: "temperature"),
             .toolCallArgsDelta(id: "b", name: "temperature", args: #"{"city":"Rome"}"#),
             .toolCallArgsDelta(id: "a", name: "temperature", args: #""Oslo"}"#),
             .toolCallRetracted(id: "x"), .done],
            [.textDelta("Oslo is colder."), .done],
        ], for: id)
        let tool = TemperatureTool()
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id), tools: [tool])
        let response = try await session.respond(to: "Which is colder, Oslo or Rome?")
        #expect(response.content == "Oslo is colder.")
        #expect(tool.asked.all.sorted() == ["Oslo", "Rome"])

        // Instructions (listing the tool), prompt, the calls, their two outputs, the response.
        let entries = Array(session.transcript)
        guard entries.count == 6, case .toolCalls(let calls) = entries[2] else {
            Issue.record("unexpected transcript: \(entries)")
            return
        }
        #expect(calls.map(\.id) == ["a", "b"])
        #expect(calls.map { try? $0.arguments.value(String.self, forProperty: "city") } == ["Oslo", "Rome"])
        #expect(entries[3...4].compactMap { if case .toolOutput(let o) = $0 { o.id } else { nil } } == ["a", "b"])

        let requests = transport.requests(for: id)
        #expect(requests.count == 2)
        #expect(requests.first?.enabledToolDefinitions.map(\.name) == ["temperature"])
        let outputs = requests.last?.transcript.compactMap { if case .toolOutput(let o) = $0 { o.segments.map(\.description).joined() } else { nil } }
        #expect(outputs == ["-3", "21"])
    }

    @Test func reasoningDeltasWithoutAnEntryIDCoalesceIntoOneEntry() async throws {
        let id = uniqueModelID()
        let signature = Data([0x00, 0xFF, 0x10, 0x80])
        transport.respond(with: [[.reasoningDelta("Rome is "), .reasoningDelta("warmer."), .reasoningSignature(signature),
                                  .textDelta("Oslo."), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        let response = try await session.respond(to: "Which is colder?")
        #expect(response.content == "Oslo.")
        let reasoning = session.transcript.compactMap { if case .reasoning(let r) = $0 { r } else { nil } }
        #expect(reasoning.count == 1)
        #expect(reasoning.first?.segments.map(\.description) == ["Rome is warmer."])
        #expect(reasoning.first?.signature == signature)
        guard case .response? = session.transcript.last else {
            Issue.record("the response does not come after the reasoning")
            return
        }
    }

    @Test func usageReportsReplaceEarlierOnes() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.usage(prompt: 10, cached: 0, completion: 1, reasoning: 0), .textDelta("Hi"),
                                  .usage(prompt: 12, cached: 8, completion: 5, reasoning: 2), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        let usage = try await session.respond(to: "hi").usage
        #expect(usage.input.totalTokenCount == 12)
        #expect(usage.input.cachedTokenCount == 8)
        #expect(usage.output.totalTokenCount == 5)
        #expect(usage.output.reasoningTokenCount == 2)
    }

    @Test func withoutUsageReportsTheTokenCountsOfTheEventsAreTheOutput() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.reasoningDelta("hmm"), .textDelta("a"), .textDelta("b"), .textDelta("c"), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        let usage = try await session.respond(to: "abc").usage
        #expect(usage.output.totalTokenCount == 4)
        #expect(usage.output.reasoningTokenCount == 1)
    }

    @Test func aMetadataSnapshotReplacesTheEarlierOne() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.metadata(["provider": "acme", "attempt": "1"]), .textDelta("ok"),
                                  .metadata(["provider": "acme-2"]), .done]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        _ = try await session.respond(to: "meta")
        guard case .response(let response)? = session.transcript.last else {
            Issue.record("no response entry")
            return
        }
        #expect(response.metadata.count == 1)
        #expect(response.metadata["provider"] as? String == "acme-2")
    }

    @Test func oneExecutorServesEveryRequestOfOneConfiguration() async throws {
        let id = uniqueModelID()
        let other = uniqueModelID()
        transport.respond(with: [[.textDelta("1"), .done], [.textDelta("2"), .done]], for: id)
        transport.respond(with: [[.textDelta("3"), .done]], for: other)
        _ = try await LanguageModelSession(model: ScriptedLanguageModel(name: id)).respond(to: "a")
        _ = try await LanguageModelSession(model: ScriptedLanguageModel(name: id)).respond(to: "b")
        _ = try await LanguageModelSession(model: ScriptedLanguageModel(name: other)).respond(to: "c")
        #expect(transport.executorsMade(for: id) == 1)
        #expect(transport.executorsMade(for: other) == 1)
    }

    @Test func aFailedRequestLeavesTheTranscriptAsItWas() async throws {
        let id = uniqueModelID()
        let limited = LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "HTTP 429"))
        transport.respond(with: [[.textDelta("ok"), .done], [.textDelta("partial"), .failure(limited)]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        _ = try await session.respond(to: "first")
        let before = session.transcript
        do {
            _ = try await session.respond(to: "second")
            Issue.record("the failure was not thrown")
        } catch LanguageModelError.rateLimited {}
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test func cancellingTheRequestStopsTheExecutorAndRollsBack() async throws {
        let id = uniqueModelID()
        transport.respond(with: [[.textDelta("thinking"), .stall]], for: id)
        let session = LanguageModelSession(model: ScriptedLanguageModel(name: id))
        let task = Task { try await session.respond(to: "never ends") }
        while transport.requests(for: id).isEmpty { try await Task.sleep(nanoseconds: 2_000_000) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)
    }
}
