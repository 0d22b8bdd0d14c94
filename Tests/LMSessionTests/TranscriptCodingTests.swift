import Foundation
import LMSession
import Testing

@Suite struct TranscriptCodingTests {
    /// A transcript with every entry and segment kind.
    static func everyKind() -> Transcript {
        let recipe = GeneratedContent(kind: .structure(
            properties: ["title": GeneratedContent(kind: .string("Pasta")), "minutes": GeneratedContent(kind: .number(25))],
            orderedKeys: ["title", "minutes"]))
        let arguments = GeneratedContent(kind: .structure(properties: ["count": GeneratedContent(kind: .number(3))], orderedKeys: ["count"]))
        return Transcript(entries: [
            .instructions(.init(id: "I", segments: [.text(.init(id: "I1", content: "Be brief."))], toolDefinitions: [])),
            .prompt(.init(id: "P", segments: [.text(.init(id: "P1", content: "Invite three contacts."))],
                          options: GenerationOptions(samplingMode: .random(top: 41, seed: 73), temperature: 0.7, maximumResponseTokens: 256))),
            .toolCalls(.init(id: "C", [.init(id: "call-1", toolName: "findContacts", arguments: arguments)])),
            .toolOutput(.init(id: "call-1", toolName: "findContacts", segments: [.text(.init(id: "O1", content: "Ada, Bob, Cy"))])),
            .response(.init(id: "R", assetIDs: ["SmolLM2"], segments: [.text(.init(id: "R1", content: "Dear Ada, Bob and Cy"))])),
            .prompt(.init(id: "P2", segments: [.text(.init(id: "P21", content: "A recipe."))], options: GenerationOptions(samplingMode: .greedy))),
            .response(.init(id: "R2", assetIDs: [], segments: [.structure(.init(id: "S", source: "Recipe", content: recipe))])),
        ])
    }

    static func json(_ transcript: Transcript) throws -> [String: Any] {
        let data = try JSONEncoder().encode(transcript)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func encodingUsesApplesShape() throws {
        let top = try Self.json(Self.everyKind())
        #expect(top["type"] as? String == "FoundationModels.Transcript")
        #expect(top["version"] as? String == "1.1")
        let entries = try #require((top["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(entries.map { $0["role"] as? String } == ["instructions", "user", "response", "tool", "response", "user", "response"])
        #expect(entries.map { $0["id"] as? String } == ["I", "P", "C", "call-1", "R", "P2", "R2"])

        let text = try #require((entries[0]["contents"] as? [[String: Any]])?.first)
        #expect(text["type"] as? String == "text")
        #expect(text["text"] as? String == "Be brief.")
        #expect(text["id"] as? String == "I1")

        let options = try #require(entries[1]["options"] as? [String: Any])
        #expect(options["topK"] as? Int == 41)
        #expect(options["randomSeed"] as? Int == 73)
        #expect(options["temperature"] as? Double == 0.7)
        #expect(options["maximumResponseTokens"] as? Int == 256)

        let call = try #require((entries[2]["toolCalls"] as? [[String: Any]])?.first)
        #expect(call["name"] as? String == "findContacts")
        #expect(call["id"] as? String == "call-1")
        #expect(call["arguments"] as? String == #"{"count":3}"#)
        #expect(entries[2]["contents"] == nil)

        #expect(entries[3]["toolName"] as? String == "findContacts")
        #expect(entries[3]["toolCallID"] as? String == "call-1")
        #expect(entries[4]["assets"] as? [String] == ["SmolLM2"])

        let structure = try #require((entries[6]["contents"] as? [[String: Any]])?.first)
        #expect(structure["type"] as? String == "structure")
        let body = try #require(structure["structure"] as? [String: Any])
        #expect(body["source"] as? String == "Recipe")
        let content = try #require(body["content"] as? [String: Any])
        #expect(content["title"] as? String == "Pasta")
        #expect(content["minutes"] as? Int == 25)
    }

    @Test func aRoundTripKeepsEveryEntry() throws {
        let original = Self.everyKind()
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(original))
        #expect(decoded.map(\.id) == original.map(\.id))
        #expect(decoded.map(\.description) == original.map(\.description))
        guard case .prompt(let prompt) = decoded[1], case .prompt(let greedy) = decoded[5] else {
            Issue.record("entries changed kind")
            return
        }
        #expect(prompt.options == GenerationOptions(samplingMode: .random(top: 41, seed: 73), temperature: 0.7, maximumResponseTokens: 256))
        #expect(greedy.options == GenerationOptions(samplingMode: .greedy))
        guard case .response(let response) = decoded[6], case .structure(let segment) = response.segments.first else {
            Issue.record("structure lost")
            return
        }
        // Key order is kept (JSON coders alone would lose it).
        #expect(segment.content.jsonString == #"{"title":"Pasta","minutes":25}"#)
    }

    @Test func decodesAppleVersion1Dumps() throws {
        let json = #"""
        {"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [
          {"role": "instructions", "id": "A", "contents": [{"type": "text", "id": "A1", "text": "You are a bread expert."}]},
          {"role": "user", "options": {}, "id": "B", "contents": [{"type": "text", "text": "Brioche?", "id": "B1"}]},
          {"role": "response", "id": "C", "toolCalls": [{"name": "searchBread", "arguments": "{\"searchTerm\": \"brioche\", \"limit\": 1}", "id": "T1"}]},
          {"toolName": "searchBread", "contents": [{"type": "text", "id": "D1", "text": "[]"}], "id": "T1", "toolCallID": "T1", "role": "tool"},
          {"role": "response", "id": "E", "assets": ["com.apple.fm"], "contents": [{"type": "structure", "structure": {"source": "Recipe", "content": {"name": "brioche"}}, "id": "0"}]}
        ]}}
        """#
        let transcript = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
        #expect(transcript.map(\.description) == [
            "Instructions: You are a bread expert.",
            "Prompt: Brioche?",
            #"ToolCalls: searchBread({"searchTerm":"brioche","limit":1})"#,
            "ToolOutput searchBread: []",
            #"Response: {"name":"brioche"}"#,
        ])
        guard case .toolOutput(let output) = transcript[3] else { Issue.record("not a tool output"); return }
        #expect(output.id == "T1")
    }

    @Test(arguments: [
        (#"{"type":"Other","version":"1.1","transcript":{"entries":[]}}"#, "expected \"FoundationModels.Transcript\""),
        (#"{"type":"FoundationModels.Transcript","version":"2.0","transcript":{"entries":[]}}"#, "unsupported transcript version 2.0"),
        (#"{"version":"1.1","transcript":{"entries":[{"role":"alien","id":"x"}]}}"#, "transcript entry 0: unknown role \"alien\""),
        (#"{"version":"1.1","transcript":{"entries":[{"role":"user","id":"x","contents":[{"type":"image","id":"s"}]}]}}"#, "segment s: unknown type \"image\""),
    ])
    func malformedTranscriptsThrowDecodingErrorsThatSayWhat(json: String, message: String) {
        do {
            _ = try JSONDecoder().decode(Transcript.self, from: Data(json.utf8))
            Issue.record("decoded \(json)")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains(message), "\(context.debugDescription)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
