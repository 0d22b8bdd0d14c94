import LMGrammar
import Testing

/// ``GrammarNode/sequence(_:)``: parts one after another, with raw text between JSON values (a tool call written
/// `NAME[ARGS]{…}`, as Mistral's templates define it).
@Suite struct GrammarSequenceTests {
    /// `get_weather[ARGS]{"city": …}` or `FindContacts[CALL_ID]` + 2 letters or digits + `[ARGS]{"count": …}`.
    static let calls = Grammar(root: .anyOf([
        .sequence([.literals(["get_weather[ARGS]"]),
                   .object([GrammarField(name: "city", value: .string(pattern: nil))])]),
        .sequence([.literals(["FindContacts[CALL_ID]"]), alphanumeric, alphanumeric, .literals(["[ARGS]"]),
                   .object([GrammarField(name: "count", value: .integer(minimum: 1, maximum: 10))])]),
    ]))
    static let alphanumeric = GrammarNode.literals("abcXYZ019".map { String($0) })

    @Test("raw text, then JSON, exactly", arguments: [
        (#"get_weather[ARGS]{"city": "Oslo"}"#, true),
        (#"get_weather[ARGS] {"city": "Oslo"}"#, false),
        (#"get_weather{"city": "Oslo"}"#, false),
        (#""get_weather[ARGS]"{"city": "Oslo"}"#, false),
        (#"FindContacts[CALL_ID]a9[ARGS]{"count": 3}"#, true),
        (#"FindContacts[CALL_ID]a[ARGS]{"count": 3}"#, false),
        (#"FindContacts[CALL_ID]a-[ARGS]{"count": 3}"#, false),
        (#"FindContacts[CALL_ID]Zc[ARGS]{"count": 11}"#, false),
        (#"get_weather[ARGS]{"city": "Oslo"}{"city": "Oslo"}"#, false),
    ])
    func sequences(text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Self.calls, text) == valid)
    }

    @Test func aSequenceEndsWhereItsLastPartEnds() throws {
        let probe = try GrammarProbe(Self.calls)
        #expect(probe.feed(#"get_weather[ARGS]{"city": "Oslo""#))
        #expect(!probe.matcher.isComplete)
        #expect(probe.feed("}"))
        #expect(probe.matcher.isComplete)
    }
}
