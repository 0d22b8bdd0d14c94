import Foundation
import LMSession
import Testing

/// The decoder with the syntaxes templates define: Qwen/Hermes (`<tool_call>` and a newline around the JSON)
/// and Llama 3 (the call's JSON alone, arguments under `"parameters"`, one call per turn).
@Suite struct ToolCallSyntaxDecoderTests {
    static let v = ToyVocabulary()
    static let others = ["</tool_call>", "<tool_response>", "</tool_response>", "<tools>", "</tools>"]

    static let llama = ToolCallDecoder.EnvelopeTokens(
        open: v.characters("{\"name\""), close: [], separatorAndOpen: [], isList: false, quote: v.id("\""),
        argumentsKey: "parameters", tags: .init(open: "{\"name\"", others: others), tagStartsJSON: true,
        tagBytes: Array("{\"name\"".utf8))

    static let hermes = ToolCallDecoder.EnvelopeTokens(
        open: [v.id("<tool"), v.id("_call"), v.id(">"), v.id("\n")], close: [v.id("\n"), v.id("</tool_call>")],
        separatorAndOpen: [v.id("\n"), v.id("<tool"), v.id("_call"), v.id(">"), v.id("\n")], isList: false, quote: v.id("\""),
        tags: .init(open: "<tool_call>", others: others), openRest: ([10], [v.id("\n")]))

    static func decoder(_ mode: GenerationOptions.ToolCallingMode.Kind, _ envelope: ToolCallDecoder.EnvelopeTokens) throws -> ToolCallDecoder {
        let counter = Counter()
        return try ToolCallDecoder(definitions: ToolCallDecoderTests.tools, mode: mode, tokens: v.tokens, endOfGeneration: [ToyVocabulary.eos],
                                   envelope: envelope, makeID: { defer { counter.increment() }; return "id\(counter.value)" })
    }

    static let moscow = Transcript.ToolCall(id: "id0", toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "Moscow"]))

    @Test func llamaCallsAreTheJSONItselfWithParameters() throws {
        var decoder = try Self.decoder(.allowed, Self.llama)
        let json = #"{"name": "get_weather", "parameters": {"city": "Moscow"}}"#
        let acceptances = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(json))
        // `{"name` may still be text; the closing quote of the key makes it a call.
        #expect(Array(acceptances.prefix(7)) == Array(repeating: .held, count: 6) + [.call])
        #expect(acceptances.dropFirst(7).allSatisfy { $0 == .call }, "\(acceptances)")
        // One call per turn: only the end may follow.
        #expect(ToolCallDecoderTests.allowedTokens(decoder.next()) == [ToyVocabulary.eos])
        #expect(try decoder.accept(ToyVocabulary.eos) == .end)
        #expect(decoder.next() == .call([Self.moscow]))
    }

    @Test func llamaTextThatIsNotACallStaysText() throws {
        var decoder = try Self.decoder(.allowed, Self.llama)
        #expect(try ToolCallDecoderTests.feed(&decoder, Self.v.characters("{\"na")) == [.held, .held, .held, .held])
        #expect(try decoder.accept(Self.v.id("x")) == .text)
    }

    @Test func llamaRejectsTheArgumentsKey() throws {
        var decoder = try Self.decoder(.required, Self.llama)
        #expect(decoder.next() == .force(Self.v.characters("{\"name\"")))
        _ = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(#": "get_weather", "#))
        #expect(try decoder.accept(Self.v.id("\"")) == .call)
        #expect(try decoder.accept(Self.v.id("a")) == .rejected)
        #expect(try decoder.accept(Self.v.id("p")) == .call)
    }

    @Test func hermesForcesTheNewlineAfterTheTagAndBeforeTheClose() throws {
        var decoder = try Self.decoder(.allowed, Self.hermes)
        let v = Self.v
        #expect(try ToolCallDecoderTests.feed(&decoder, [v.id("<tool"), v.id("_call"), v.id(">")]) == [.held, .held, .call])
        #expect(decoder.next() == .force([v.id("\n")]))
        let acceptances = try ToolCallDecoderTests.feed(&decoder, v.characters(ToolCallDecoderTests.weatherCall))
        #expect(acceptances.allSatisfy { $0 == .call }, "\(acceptances)")
        #expect(decoder.next() == .force([v.id("\n"), v.id("</tool_call>")]))
        #expect(ToolCallDecoderTests.allowedTokens(decoder.next()) == [ToyVocabulary.eos, v.id("\n")])
        #expect(try decoder.accept(ToyVocabulary.eos) == .end)
        #expect(decoder.next() == .call([Self.moscow]))
    }

    @Test func hermesRefusesJSONRightAfterTheTag() throws {
        var decoder = try Self.decoder(.allowed, Self.hermes)
        let v = Self.v
        #expect(try ToolCallDecoderTests.feed(&decoder, [v.id("<tool"), v.id("_call")]) == [.held, .held])
        #expect(try decoder.accept(v.id(">{\"")) == .rejected)
    }
}
