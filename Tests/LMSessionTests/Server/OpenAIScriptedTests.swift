import Foundation
import LMSession
import Testing
import TestSupport

/// The OpenAI-compatible model against the fault proxy playing scripted llama-server streams: what the
/// request carries, how the stream becomes a response, and each fault's typed error.
@Suite("OpenAI-compatible model, scripted", .timeLimit(.minutes(1)))
struct OpenAIScriptedTests {
    @Test func aStreamBecomesTheResponseAndTheRequestCarriesTheOptions() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["Hel", "lo", " there"], prompt: 11, cached: 3, completion: 3)))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy), instructions: "Be brief.")
        let options = GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9, seed: 42), temperature: 0.7, maximumResponseTokens: 64)
        let response = try await session.respond(to: "Say hello", options: options)
        #expect(response.content == "Hello there")
        #expect(response.usage.input == .init(totalTokenCount: 11, cachedTokenCount: 3))
        #expect(response.usage.output.totalTokenCount == 3)
        let request = try #require(proxy.requests.first)
        #expect(request.path == "/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer \(OpenAIStreams.secret)")
        let json = try #require(request.json)
        #expect(json["model"] as? String == "smollm2")
        #expect(json["stream"] as? Bool == true)
        #expect((json["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true)
        #expect(json["temperature"] as? Double == 0.7)
        #expect(json["top_p"] as? Double == 0.9)
        #expect(json["seed"] as? Int == 42)
        #expect(json["max_tokens"] as? Int == 64)
        #expect(json["tools"] == nil && json["response_format"] == nil)
        let messages = try #require(json["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["system", "user"])
        #expect(messages.map { $0["content"] as? String } == ["Be brief.", "Say hello"])
        #expect(session.transcript.count == 3)
    }

    @Test func greedyIsTemperatureZero() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["ok"])))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        _ = try await session.respond(to: "x", options: GenerationOptions(samplingMode: .greedy, temperature: 0.9))
        let json = try #require(proxy.requests.first?.json)
        #expect(json["temperature"] as? Double == 0)
        #expect(json["top_p"] == nil && json["top_k"] == nil)
    }

    @Test func snapshotsAreCumulative() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["a", "b", "c", "d"]), interval: .milliseconds(5)))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "x") { snapshots.append(snapshot.content) }
        #expect(snapshots == ["a", "ab", "abc", "abcd"])
    }

    @Test func parallelToolCallsRunAndTheirOutputsGoBack() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.twoToolCalls()), .stream(chunks: OpenAIStreams.text(["Snow in both."])))
        let weather = GetWeather()
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy), tools: [weather])
        let response = try await session.respond(to: "Weather in Paris and Oslo?",
                                                  options: GenerationOptions(toolCallingMode: .required))
        #expect(response.content == "Snow in both.")
        #expect(weather.cities.values.sorted() == ["Oslo", "Paris"])
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "toolOutput", "response"])
        let first = try #require(proxy.requests.first?.json)
        #expect(first["tool_choice"] as? String == "required")
        let tool = try #require((first["tools"] as? [[String: Any]])?.first?["function"] as? [String: Any])
        #expect(tool["name"] as? String == "get_weather")
        #expect(((tool["parameters"] as? [String: Any])?["properties"] as? [String: Any])?["city"] != nil)
        let second = try #require(proxy.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(second.map { $0["role"] as? String } == ["user", "assistant", "tool", "tool"])
        let calls = try #require(second[1]["tool_calls"] as? [[String: Any]])
        #expect(calls.map { $0["id"] as? String } == ["call_a", "call_b"])
        #expect(second[2]["tool_call_id"] as? String == "call_a")
        #expect(second[3]["tool_call_id"] as? String == "call_b")
        #expect((second[2]["content"] as? String)?.contains("snow") == true)
        #expect(response.usage.input.totalTokenCount == 40 + 11)
    }

    @Test func aSchemaGoesOutAsStrictJSONSchemaAndAnAnswerOffSchemaThrows() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["Sure! Here is a recipe."])),
                      .stream(chunks: OpenAIStreams.text([#"{"title": "Soup", "ingredients": ["1 leek"], "#, #""minutes": 30}"#])))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        let error = await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "A recipe", generating: Recipe.self) }
        #expect(error?.rawContent == "Sure! Here is a recipe.")
        #expect(session.transcript.isEmpty)
        let format = try #require(proxy.requests.first?.json?["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let schema = try #require(format["json_schema"] as? [String: Any])
        #expect(schema["strict"] as? Bool == true)
        let properties = try #require((schema["schema"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(properties.keys) == ["title", "ingredients", "minutes"])
        // Key order survives (llama.cpp generates properties in schema order).
        let raw = String(decoding: try #require(proxy.requests.first?.body), as: UTF8.self)
        let order = ["\"title\"", "\"ingredients\"", "\"minutes\""].compactMap { raw.range(of: $0)?.lowerBound }
        #expect(order == order.sorted() && order.count == 3)
        let recipe = try await session.respond(to: "A recipe", generating: Recipe.self).content
        #expect(recipe == Recipe(title: "Soup", ingredients: ["1 leek"], minutes: 30))
    }

    @Test func anAnswerBreakingAGuideThrows() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text([#"{"title": "Soup", "ingredients": [], "minutes": 999}"#])))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        let error = await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "A recipe", generating: Recipe.self) }
        #expect(error?.debugDescription.hasPrefix("The response does not follow the schema") == true)
        #expect(error?.rawContent == #"{"title":"Soup","ingredients":[],"minutes":999}"#)
        #expect(session.transcript.isEmpty)
    }

    @Test func manyConcurrentSessionsEachGetTheirOwnStream() async throws {
        // Every answer echoes its request's last user message word by word, so a session can tell its own.
        let proxy = try FaultProxy(defaultFault: .dynamic { request in
            let messages = request.json?["messages"] as? [[String: Any]] ?? []
            let prompt = messages.last { $0["role"] as? String == "user" }?["content"] as? String ?? "?"
            return .stream(chunks: OpenAIStreams.text(prompt.split(separator: " ").map { $0 + " " }), interval: .milliseconds(1))
        })
        defer { proxy.stop() }
        let model = OpenAIStreams.model(proxy, timeout: 20)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for s in 0..<16 {
                group.addTask {
                    let session = LanguageModelSession(model: model)
                    for round in 0..<4 {
                        let prompt = "session \(s) round \(round) " + (0..<20).map { "w\(s)x\($0)" }.joined(separator: " ")
                        var last = ""
                        for try await snapshot in session.streamResponse(to: prompt) {
                            #expect(snapshot.content.hasPrefix(last))
                            last = snapshot.content
                        }
                        #expect(last == prompt + " ")
                    }
                    #expect(session.transcript.count == 8)
                }
            }
            try await group.waitForAll()
        }
        #expect(proxy.requests.count == 64)
    }

    @Test func anErrorInsideTheStreamIsTyped() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [OpenAIStreams.delta("par"), OpenAIStreams.event(#"{"error":{"code":500,"message":"slot crashed","type":"server_error"}}"#)]))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        await #expect(throws: ServerModelError.invalidResponse("the server reported an error mid-stream: slot crashed")) {
            try await session.respond(to: "x")
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func cancellingAStreamingConsumerClosesTheConnectionAndRollsBack() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.endless(chunk: OpenAIStreams.delta("more "), interval: .milliseconds(10)))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy, timeout: 30))
        let consumer = Task {
            var count = 0
            for try await _ in session.streamResponse(to: "x") { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(300))
        consumer.cancel()
        _ = try? await consumer.value
        let deadline = ContinuousClock.now + .seconds(5)
        while proxy.activeConnections > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(proxy.activeConnections == 0, "the server still streams to a cancelled request")
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)
    }
}
