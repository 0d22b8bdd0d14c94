import Foundation
import LMSession
import LMTransformer
import Testing

/// How tools and calls are written for the local model (the `<tool_call>` convention).
@Suite struct ToolCallEnvelopeTests {
    static let contactsJSON = #"{"name": "FindContacts", "description": "Finds the user's contacts.", "parameters": {"type":"object","properties":{"count":{"type":"integer","description":"How many contacts","minimum":1,"maximum":10}},"required":["count"]}}"#
    static let weatherJSON = #"{"name": "get_weather", "description": "Gets today's weather in a city.", "parameters": {"type":"object","properties":{"city":{"type":"string","description":"The city's name"}},"required":["city"]}}"#

    @Test func theListStyleInstructionsShowTheToolsAsAJSONListAndAListOfCalls() {
        let text = ToolCallEnvelope.instructions([Transcript.ToolDefinition(tool: FindContacts()), Transcript.ToolDefinition(tool: GetWeather())], syntax: ToolCallSyntax(convention: .jsonList))
        #expect(text.split(separator: "\n").map(String.init) == [
            "You can call these tools (functions) to answer:",
            "<tools>[\(Self.contactsJSON), \(Self.weatherJSON)]</tools>",
            "To call tools, reply with nothing but the list of calls, in this form:",
            #"<tool_call>[{"name": "tool_name", "arguments": {"argument": "value"}}]</tool_call>"#,
            "Each tool's output comes back to you in a <tool_response> message.",
        ])
    }

    @Test func theObjectStyleInstructionsShowOneToolPerLineAndOneCallPerEnvelope() {
        let text = ToolCallEnvelope.instructions([Transcript.ToolDefinition(tool: FindContacts()), Transcript.ToolDefinition(tool: GetWeather())], syntax: ToolCallSyntax(convention: .hermes))
        #expect(text.split(separator: "\n").map(String.init) == [
            "You can call these tools (functions) to answer:",
            "<tools>", Self.contactsJSON, Self.weatherJSON, "</tools>",
            #"To call a tool, reply with nothing but <tool_call>{"name": "tool_name", "arguments": {"argument": "value"}}</tool_call>, one per line for several. Each tool's output comes back to you in a <tool_response> message."#,
        ])
    }

    @Test(arguments: [("qwen2", false), ("qwen3", false), ("llama", true), ("gemma3", true)])
    func theLayoutFollowsTheModelFamily(architecture: String, isList: Bool) throws {
        #expect(ToolCallSyntax(architecture: try #require(Architecture(named: architecture))).isList == isList)
    }

    @Test func aToolOutputGoesBackInToolResponseTags() {
        let output = Transcript.ToolOutput(id: "1", toolName: "get_weather", segments: [
            .structure(Transcript.StructuredSegment(source: "Weather", content: GeneratedContent(properties: ["temperatureC": -3.5]))),
        ])
        #expect(ToolCallEnvelope.response(output) == "<tool_response>\n{\"temperatureC\":-3.5}\n</tool_response>")
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

    static let round = Transcript.ToolCalls([
        Transcript.ToolCall(id: "1", toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "Oslo"])),
        Transcript.ToolCall(id: "2", toolName: "FindContacts", arguments: GeneratedContent(properties: ["count": 2])),
    ])

    @Test func aRoundIsRenderedAsOneListInTheListStyle() {
        #expect(ToolCallEnvelope.render(Self.round, syntax: ToolCallSyntax(convention: .jsonList)) ==
            #"<tool_call>[{"name": "get_weather", "arguments": {"city":"Oslo"}}, {"name": "FindContacts", "arguments": {"count":2}}]</tool_call>"#)
    }

    @Test func aRoundIsRenderedAsOneEnvelopePerLineInTheObjectStyle() throws {
        #expect(ToolCallEnvelope.render(Self.round, syntax: ToolCallSyntax(convention: .hermes)) == """
            <tool_call>{"name": "get_weather", "arguments": {"city":"Oslo"}}</tool_call>
            <tool_call>{"name": "FindContacts", "arguments": {"count":2}}</tool_call>
            """)
    }

    @Test func aToolNameIsWrittenAsAJSONString() {
        let call = Transcript.ToolCall(id: "1", toolName: #"say "hi""#, arguments: GeneratedContent(properties: [:]))
        #expect(ToolCallEnvelope.callJSON(call) == #"{"name": "say \"hi\"", "arguments": {}}"#)
    }
}
