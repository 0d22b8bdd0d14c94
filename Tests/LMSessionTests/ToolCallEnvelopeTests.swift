import Foundation
import LMSession
import Testing

/// How tools and calls are written for the local model (the `<tool_call>` convention).
@Suite struct ToolCallEnvelopeTests {
    @Test func theInstructionsListEachToolAsOneLineOfJSONAndSayHowToCall() {
        let text = ToolCallEnvelope.instructions([Transcript.ToolDefinition(tool: FindContacts())])
        #expect(text.split(separator: "\n").map(String.init) == [
            "You can call these tools:",
            "<tools>",
            #"{"name": "FindContacts", "description": "Finds the user's contacts.", "parameters": {"type":"object","properties":{"count":{"type":"integer","description":"How many contacts","minimum":1,"maximum":10}},"required":["count"]}}"#,
            "</tools>",
            #"To call a tool, answer with <tool_call>{"name": tool name, "arguments": arguments object}</tool_call> and nothing else; the tool's output comes back to you in the next message."#,
        ])
    }

    @Test(arguments: ["title", "x-order", "additionalProperties"])
    func theCompactSchemaKeepsPropertiesNamedLikeTheKeywordsItDrops(property: String) throws {
        let schema = GenerationSchema(type: GeneratedContent.self, properties: [.init(name: property, type: Bool.self)])
        let compact = ToolCallEnvelope.compactSchema(schema)
        #expect(compact == #"{"type":"object","properties":{"\#(property)":{"type":"boolean"}},"required":["\#(property)"]}"#)
        // Still a schema the full one's values satisfy.
        let parsed = try JSONSerialization.jsonObject(with: Data(compact.utf8)) as? [String: Any]
        #expect((parsed?["properties"] as? [String: Any])?.keys.sorted() == [property])
    }

    @Test func aRoundIsRenderedAsItsCallsInEnvelopesOnePerLine() throws {
        let calls = Transcript.ToolCalls([
            Transcript.ToolCall(id: "1", toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "Oslo"])),
            Transcript.ToolCall(id: "2", toolName: "FindContacts", arguments: GeneratedContent(properties: ["count": 2])),
        ])
        #expect(ToolCallEnvelope.render(calls) == """
            <tool_call>{"name": "get_weather", "arguments": {"city":"Oslo"}}</tool_call>
            <tool_call>{"name": "FindContacts", "arguments": {"count":2}}</tool_call>
            """)
    }

    @Test func aToolNameIsWrittenAsAJSONString() {
        let call = Transcript.ToolCall(id: "1", toolName: #"say "hi""#, arguments: GeneratedContent(properties: [:]))
        #expect(ToolCallEnvelope.callJSON(call) == #"{"name": "say \"hi\"", "arguments": {}}"#)
    }
}
