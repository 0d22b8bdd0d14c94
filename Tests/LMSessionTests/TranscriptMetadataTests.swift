import Foundation
import LMSession
import Testing

/// Apple 27's metadata on response, reasoning and tool-call entries: compared by value, kept in transcript JSON
/// (left out when empty, so 26 transcripts encode as before).
@Suite struct TranscriptMetadataTests {
    static func text(_ s: String, id: String) -> Transcript.Segment { .text(Transcript.TextSegment(id: id, content: s)) }

    static func transcript() -> Transcript {
        Transcript(entries: [
            .prompt(Transcript.Prompt(id: "P", segments: [text("Weather in Oslo?", id: "P1")])),
            .reasoning(Transcript.Reasoning(id: "T", metadata: ["effort": "high"], segments: [text("Call the tool.", id: "T1")])),
            .toolCalls(Transcript.ToolCalls(id: "C", [
                Transcript.ToolCall(id: "c1", metadata: ["server": "mcp-1", "attempt": 2], toolName: "get_weather",
                                    arguments: GeneratedContent(properties: ["city": "Oslo"])),
            ])),
            .toolOutput(Transcript.ToolOutput(id: "c1", toolName: "get_weather", segments: [text("-3 C, snow", id: "O1")])),
            .response(Transcript.Response(id: "R", metadata: ["finish": "stop", "cached": true], segments: [text("Cold.", id: "R1")])),
        ])
    }

    static func json(_ transcript: Transcript) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(transcript)) as? [String: Any]
        return (object?["transcript"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
    }

    @Test func metadataIsWrittenOnEachEntryAndReadBack() throws {
        let original = Self.transcript()
        let entries = try Self.json(original)
        #expect(entries.map { ($0["metadata"] as? [String: Any]).map { $0.keys.sorted() } } ==
                [nil, ["effort"], nil, nil, ["cached", "finish"]])
        let call = (entries[2]["toolCalls"] as? [[String: Any]])?.first
        #expect((call?["metadata"] as? [String: Any])?["attempt"] as? Int == 2)
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(original))
        guard case .response(let response) = decoded[4], case .toolCalls(let calls) = decoded[2], case .reasoning(let reasoning) = decoded[1] else {
            Issue.record("unexpected entries \(decoded)"); return
        }
        #expect(response.metadata["finish"] as? String == "stop" && response.metadata["cached"] as? Bool == true)
        #expect(calls[0].metadata["server"] as? String == "mcp-1" && calls[0].metadata["attempt"] as? Int == 2)
        #expect(reasoning.metadata["effort"] as? String == "high")
        #expect(response == { guard case .response(let r) = original[4] else { return nil }; return r }())
    }

    @Test func metadataTakesPartInEquality() {
        let plain = Transcript.Response(id: "R", assetIDs: [], segments: [Self.text("Cold.", id: "R1")])
        let tagged = Transcript.Response(id: "R", metadata: ["finish": "stop"], segments: [Self.text("Cold.", id: "R1")])
        #expect(plain != tagged)
        #expect(tagged == Transcript.Response(id: "R", metadata: ["finish": "stop"], segments: [Self.text("Cold.", id: "R1")]))
        #expect(tagged != Transcript.Response(id: "R", metadata: ["finish": "length"], segments: [Self.text("Cold.", id: "R1")]))
        let call = Transcript.ToolCall(id: "c", toolName: "t", arguments: GeneratedContent(properties: [:]))
        #expect(call != Transcript.ToolCall(id: "c", metadata: ["a": 1], toolName: "t", arguments: call.arguments))
        #expect(Transcript.Reasoning(segments: []).metadata.isEmpty)
    }

    @Test func entriesWithoutMetadataEncodeAsBefore() throws {
        let entries = try Self.json(Transcript(entries: [
            .response(Transcript.Response(id: "R", assetIDs: ["m"], segments: [Self.text("Hi", id: "R1")])),
            .toolCalls(Transcript.ToolCalls(id: "C", [Transcript.ToolCall(id: "c", toolName: "t", arguments: GeneratedContent(properties: [:]))])),
        ]))
        #expect(entries.allSatisfy { $0["metadata"] == nil })
        #expect((entries[1]["toolCalls"] as? [[String: Any]])?.first?["metadata"] == nil)
    }
}
