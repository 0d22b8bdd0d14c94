import Foundation
import LMSession
import LMTransformer
import Testing

/// The decoder with Mistral's `[TOOL_CALLS]` syntaxes, as their templates define them: Nemo's JSON list whose calls
/// carry the model's own 9-character id, and the name-first calls of Ministral 3 / Devstral (`NAME[ARGS]{…}`) and
/// Mistral Small 3.2 (`NAME[CALL_ID]ID[ARGS]{…}`), several in a row.
@Suite struct ToolCallMistralDecoderTests {
    static let v = ToyVocabulary()
    static let tag = "[TOOL_CALLS]"

    static func envelope(isList: Bool, id: (key: String, length: Int)?, nameFirst: ToolCallSyntax.NameFirst?) -> ToolCallDecoder.EnvelopeTokens {
        ToolCallDecoder.EnvelopeTokens(
            open: v.characters(tag), close: [], separatorAndOpen: isList ? [] : v.characters(tag), isList: isList, quote: v.id("\""),
            tags: .init(open: tag, others: ToolCallSyntaxDecoderTests.others), tagBytes: Array(tag.utf8), id: id, nameFirst: nameFirst)
    }

    static func decoder(_ mode: GenerationOptions.ToolCallingMode.Kind, _ envelope: ToolCallDecoder.EnvelopeTokens) throws -> ToolCallDecoder {
        let counter = Counter()
        return try ToolCallDecoder(definitions: ToolCallDecoderTests.tools, mode: mode, tokens: v.tokens, endOfGeneration: [ToyVocabulary.eos],
                                   envelope: envelope, makeID: { defer { counter.increment() }; return "id\(counter.value)" })
    }

    static let nemo = envelope(isList: true, id: ("id", 9), nameFirst: nil)
    static let ministral = envelope(isList: false, id: nil, nameFirst: .init(idMarker: nil, beforeArguments: "[ARGS]"))
    static let small = envelope(isList: false, id: ("[CALL_ID]", 9), nameFirst: .init(idMarker: "[CALL_ID]", beforeArguments: "[ARGS]"))

    @Test func nemoCallsAreAListWhoseIDsTheModelWrites() throws {
        var decoder = try Self.decoder(.allowed, Self.nemo)
        let opening = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(Self.tag))
        #expect(opening == Array(repeating: .held, count: Self.tag.count - 1) + [.call])
        let list = #"[{"name": "get_weather", "arguments": {"city": "Moscow"}, "id": "a1B2c3D4e"}, "#
            + #"{"name": "FindContacts", "arguments": {"count": 2}, "id": "Z9y8X7w6V"}]"#
        let acceptances = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(list))
        #expect(acceptances.allSatisfy { $0 == .call }, "\(acceptances)")
        guard case .call(let calls) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(calls.map(\.id) == ["a1B2c3D4e", "Z9y8X7w6V"])
        #expect(calls.map(\.description) == [#"get_weather({"city":"Moscow"})"#, #"FindContacts({"count":2})"#])
    }

    @Test func aRepeatedIDTheModelWroteIsMadeUniqueWithTheSameShape() throws {
        var decoder = try Self.decoder(.allowed, Self.nemo)
        _ = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(Self.tag))
        let list = #"[{"name": "get_weather", "arguments": {"city": "Moscow"}, "id": "a1B2c3D4e"}, "#
            + #"{"name": "FindContacts", "arguments": {"count": 2}, "id": "a1B2c3D4e"}]"#
        _ = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(list))
        guard case .call(let calls) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(calls.count == 2)
        #expect(calls[0].id == "a1B2c3D4e")
        #expect(calls[1].id != calls[0].id)
        #expect(calls[1].id.count == 9 && calls[1].id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "\(calls[1].id)")
    }

    @Test func nemoIDsAreNineLettersOrDigits() throws {
        var decoder = try Self.decoder(.required, Self.nemo)
        #expect(decoder.next() == .force(Self.v.characters(Self.tag)))
        _ = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(#"[{"name": "get_weather", "arguments": {"city": "Moscow"}"#))
        // The id is not optional, and it has exactly nine characters from [A-Za-z0-9].
        #expect(try decoder.accept(Self.v.id("}")) == .rejected)
        _ = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(#", "id": "abc"#))
        #expect(try decoder.accept(Self.v.id("-")) == .rejected)
        _ = try ToolCallDecoderTests.feed(&decoder, Self.v.characters("defghi"))
        #expect(try decoder.accept(Self.v.id("j")) == .rejected)
        #expect(try decoder.accept(Self.v.id("\"")) == .call)
    }

    @Test func ministralCallsAreNameThenArgumentsOneAfterAnother() throws {
        let v = Self.v
        var decoder = try Self.decoder(.allowed, Self.ministral)
        _ = try ToolCallDecoderTests.feed(&decoder, v.characters(Self.tag))
        // Only a tool's name may follow the tag, then `[ARGS]` and that tool's arguments.
        #expect(try decoder.accept(v.id("x")) == .rejected)
        #expect(try decoder.accept(v.id("{")) == .rejected)
        let first = try ToolCallDecoderTests.feed(&decoder, v.characters(#"get_weather[ARGS]{"city": "Moscow"}"#))
        #expect(first.allSatisfy { $0 == .call }, "\(first)")
        // After a call: the end, or the tag's first token for another call (the rest of the tag is forced).
        #expect(ToolCallDecoderTests.allowedTokens(decoder.next()) == [ToyVocabulary.eos, v.id("[")])
        #expect(try decoder.accept(v.id("[")) == .call)
        #expect(decoder.next() == .force(Array(v.characters(Self.tag).dropFirst())))
        #expect(try decoder.accept(v.id("g")) == .call)
        #expect(try decoder.accept(v.id("x")) == .rejected, "get_weather's name goes on with e")
        let second = try ToolCallDecoderTests.feed(&decoder, v.characters(#"et_weather[ARGS]{"city": "Oslo"}"#))
        #expect(second.allSatisfy { $0 == .call }, "\(second)")
        _ = decoder.next()
        #expect(try decoder.accept(ToyVocabulary.eos) == .end)
        guard case .call(let calls) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(calls.map(\.id) == ["id0", "id1"])
        #expect(calls.map(\.description) == [#"get_weather({"city":"Moscow"})"#, #"get_weather({"city":"Oslo"})"#])
    }

    @Test func ministralArgumentsFollowTheToolsSchema() throws {
        var decoder = try Self.decoder(.required, Self.ministral)
        _ = decoder.next()
        _ = try ToolCallDecoderTests.feed(&decoder, Self.v.characters(#"FindContacts[ARGS]{"count": "#))
        #expect(try decoder.accept(Self.v.id("\"")) == .rejected, "count is an integer")
        #expect(try decoder.accept(Self.v.id("3")) == .call)
    }

    @Test func smallCallsCarryTheModelsIDBetweenNameAndArguments() throws {
        let v = Self.v
        var decoder = try Self.decoder(.required, Self.small)
        #expect(decoder.next() == .force(v.characters(Self.tag)))
        _ = try ToolCallDecoderTests.feed(&decoder, v.characters("FindContacts[CALL_ID]q1w2e3r4"))
        #expect(try decoder.accept(v.id("[")) == .rejected, "the id has nine characters")
        let rest = try ToolCallDecoderTests.feed(&decoder, v.characters(#"t[ARGS]{"count": 4}"#))
        #expect(rest.allSatisfy { $0 == .call }, "\(rest)")
        _ = decoder.next()
        #expect(try decoder.accept(ToyVocabulary.eos) == .end)
        guard case .call(let calls) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(calls.map(\.id) == ["q1w2e3r4t"])
        #expect(calls.map(\.description) == [#"FindContacts({"count":4})"#])
    }
}
