import Foundation
import LMSession
import Testing

/// The Apple 27 fields in the transcript's JSON: a prompt's context options and metadata, the options'
/// tool-calling mode, reasoning entries. They round-trip, are left out when unset (so a 26 transcript encodes
/// as before), and 26 dumps, which have none, still decode.
@Suite struct TranscriptCoding27Tests {
    static func text(_ s: String, id: String) -> Transcript.Segment { .text(Transcript.TextSegment(id: id, content: s)) }

    static let metadata: [String: any Sendable & Codable & Equatable] = [
        "user": "ada@example.com", "attempt": 3, "budget": 2.5, "beta": true,
    ]

    /// A transcript with every 27 field set.
    static func with27Fields() -> Transcript {
        Transcript(entries: [
            .instructions(.init(id: "I", segments: [text("Be brief.", id: "I1")], toolDefinitions: [])),
            .prompt(Transcript.Prompt(id: "P", metadata: metadata, segments: [text("Think hard: 17 × 23?", id: "P1")],
                                      options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64, toolCallingMode: .required),
                                      contextOptions: ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .deep))),
            .reasoning(Transcript.Reasoning(id: "T", segments: [text("17 × 23 = 391.", id: "T1")], signature: Data("sig-1".utf8))),
            .response(.init(id: "R", assetIDs: ["claude-test"], segments: [text("391", id: "R1")])),
            .prompt(Transcript.Prompt(id: "P2", segments: [text("And 2 + 2?", id: "P21")],
                                      options: GenerationOptions(toolCallingMode: .disallowed),
                                      contextOptions: ContextOptions(reasoningLevel: .custom("xhigh")))),
        ])
    }

    static func entries(_ transcript: Transcript) throws -> [[String: Any]] {
        let data = try JSONEncoder().encode(transcript)
        let top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require((top["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
    }

    @Test func aRoundTripKeepsContextOptionsMetadataToolCallingModeAndReasoning() throws {
        let original = Self.with27Fields()
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(original))
        #expect(decoded == original)
        guard case .prompt(let prompt) = decoded[1], case .prompt(let second) = decoded[4], case .reasoning(let reasoning) = decoded[2] else {
            Issue.record("entries changed kind")
            return
        }
        #expect(prompt.contextOptions == ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .deep))
        #expect(prompt.options.toolCallingMode == .required)
        #expect(prompt.metadata["attempt"] as? Int == 3)
        #expect(prompt.metadata["budget"] as? Double == 2.5)
        #expect(prompt.metadata["user"] as? String == "ada@example.com")
        #expect(prompt.metadata["beta"] as? Bool == true)
        #expect(second.contextOptions.reasoningLevel == .custom("xhigh"))
        #expect(second.options.toolCallingMode == .disallowed)
        #expect(reasoning.signature == Data("sig-1".utf8))
    }

    @Test func theFieldsAreWrittenInOurSpelling() throws {
        let entries = try Self.entries(Self.with27Fields())
        #expect(entries.map { $0["role"] as? String } == ["instructions", "user", "reasoning", "response", "user"])
        let context = try #require(entries[1]["contextOptions"] as? [String: Any])
        #expect(context["includeSchemaInPrompt"] as? Bool == false)
        #expect(context["reasoningLevel"] as? String == "deep")
        let metadata = try #require(entries[1]["metadata"] as? [String: Any])
        #expect(metadata["user"] as? String == "ada@example.com")
        #expect(metadata["attempt"] as? Int == 3)
        #expect((entries[1]["options"] as? [String: Any])?["toolCallingMode"] as? String == "required")
        #expect(entries[2]["signature"] as? String == Data("sig-1".utf8).base64EncodedString())
        let custom = try #require((entries[4]["contextOptions"] as? [String: Any])?["reasoningLevel"] as? [String: Any])
        #expect(custom["custom"] as? String == "xhigh")
        #expect(entries[4]["metadata"] == nil, "empty metadata is left out")
    }

    @Test func aTranscriptWithout27FieldsEncodesAs26DidAndDecodesWithDefaults() throws {
        let transcript = Transcript(entries: [
            .prompt(Transcript.Prompt(id: "P", segments: [Self.text("Hi", id: "P1")], options: GenerationOptions(temperature: 0.5))),
        ])
        let entry = try #require(try Self.entries(transcript).first)
        #expect(Set(entry.keys) == ["role", "id", "contents", "options"])
        let options = try #require(entry["options"] as? [String: Any])
        #expect(options.count == 1 && options["temperature"] as? Double == 0.5)

        let json = #"""
        {"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [
          {"role": "user", "options": {"temperature": 0.5}, "id": "B", "contents": [{"type": "text", "text": "Brioche?", "id": "B1"}]}
        ]}}
        """#
        let decoded = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
        guard case .prompt(let prompt) = decoded.first else { Issue.record("not a prompt"); return }
        #expect(prompt.contextOptions == ContextOptions())
        #expect(prompt.metadata.isEmpty)
        #expect(prompt.options == GenerationOptions(temperature: 0.5))
        #expect(prompt.options.toolCallingMode == nil)
    }

    @Test func nestedAndNullMetadataComeBackAsTheSameJSON() throws {
        struct Tag: Codable, Equatable, Sendable { var name: String; var weights: [Int] }
        let prompt = Transcript.Prompt(id: "P", metadata: ["tag": Tag(name: "a", weights: [1, 2]), "none": String?.none],
                                       segments: [Self.text("Hi", id: "P1")])
        let once = try JSONEncoder().encode(Transcript(entries: [.prompt(prompt)]))
        let decoded = try JSONDecoder().decode(Transcript.self, from: once)
        guard case .prompt(let back) = decoded.first else { Issue.record("not a prompt"); return }
        #expect(back.metadata.keys.sorted() == ["none", "tag"])
        #expect(back.metadata["none"].map { String(describing: $0) } == "nil")
        // The struct comes back as a JSON value of its own type that encodes to the same JSON, so it reads as the struct.
        let tag = try #require(back.metadata["tag"])
        #expect(try JSONDecoder().decode(Tag.self, from: JSONEncoder().encode(tag)) == Tag(name: "a", weights: [1, 2]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(decoded) == encoder.encode(Transcript(entries: [.prompt(prompt)])))
    }

    @Test(arguments: [
        (#"{"role":"user","id":"x","options":{"toolCallingMode":"sometimes"}}"#, "unknown toolCallingMode \"sometimes\""),
        (#"{"role":"user","id":"x","contextOptions":{"reasoningLevel":"extreme"}}"#, "unknown reasoningLevel \"extreme\""),
    ])
    func unknownValuesThrowDecodingErrorsThatSayWhat(entry: String, message: String) {
        let json = #"{"version":"1.1","transcript":{"entries":["# + entry + "]}}"
        do {
            _ = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
            Issue.record("decoded \(json)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aSessionRecordsTheRequestsContextOptionsAndMetadataInItsPromptEntry() async throws {
        let model = ScriptedProvider([.text(["391"])])
        let session = LanguageModelSession(model: model)
        let options = GenerationOptions(samplingMode: .greedy, toolCallingMode: .disallowed)
        try await session.respond(to: "17 × 23?", options: options, contextOptions: ContextOptions(reasoningLevel: .light),
                                  metadata: ["user": "ada", "attempt": 1])
        guard case .prompt(let prompt) = session.transcript.first else { Issue.record("no prompt entry"); return }
        #expect(prompt.contextOptions == ContextOptions(reasoningLevel: .light))
        #expect(prompt.metadata["user"] as? String == "ada")
        #expect(prompt.metadata["attempt"] as? Int == 1)
        #expect(prompt.options.toolCallingMode == .disallowed)
        #expect(model.requests.first?.contextOptions.reasoningLevel == .light)

        let restored = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(session.transcript))
        #expect(restored == session.transcript)
        // A session continued from the JSON renders the same prompt for the next request.
        let next = ScriptedProvider([.text(["4"])])
        try await LanguageModelSession(model: next, transcript: restored).respond(to: "2 + 2?")
        #expect(next.requests.first.map { Array($0.transcript.prefix(2)) } == Array(session.transcript))
    }
}
