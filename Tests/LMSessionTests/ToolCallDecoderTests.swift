import Foundation
import LMSession
import Testing

/// A small vocabulary for driving `ToolCallDecoder` by hand: token 0 ends generation, then every printable
/// ASCII character and the newline, then a few multi-byte tokens as a BPE vocabulary would have them.
struct ToyVocabulary {
    static let words = ["<tool", "_call", ">", ">{\"", "> ", "</tool_call>", "Hello", " world", "{\"", "name", "arguments",
                        #"{"name": "FindContacts", "arguments": {"count": "#, "}}"]
    let tokens: [[UInt8]]
    let ids: [String: Int]

    init() {
        var tokens: [[UInt8]] = [Array("<eos>".utf8), [10]]
        tokens += (32...126).map { [UInt8($0)] }
        tokens += Self.words.filter { $0.utf8.count > 1 }.map { Array($0.utf8) }
        self.tokens = tokens
        var ids: [String: Int] = [:]
        for (id, bytes) in tokens.enumerated() where id > 0 { ids[String(decoding: bytes, as: UTF8.self)] = id }
        self.ids = ids
    }

    static let eos = 0

    /// The id of a token's exact text.
    func id(_ text: String) -> Int { ids[text] ?? -1 }

    /// `text` one character per token (no merges), so every byte is its own step.
    func characters(_ text: String) -> [Int] { text.map { id(String($0)) } }

    /// `<tool_call>` envelopes holding a list of calls (`isList`) or one call each.
    func envelope(isList: Bool) -> ToolCallDecoder.EnvelopeTokens {
        .init(open: [id("<tool"), id("_call"), id(">")], close: [id("</tool_call>")],
              separatorAndOpen: [id("\n"), id("<tool"), id("_call"), id(">")], isList: isList, quote: id("\""))
    }
}

@Suite struct ToolCallDecoderTests {
    static let vocabulary = ToyVocabulary()
    static let tools = [Transcript.ToolDefinition(tool: GetWeather()), Transcript.ToolDefinition(tool: FindContacts())]

    /// A decoder for `tools` (default: weather and contacts), one call per envelope unless `isList`.
    static func decoder(_ mode: GenerationOptions.ToolCallingMode.Kind, schema: GenerationSchema? = nil,
                        tools: [Transcript.ToolDefinition] = tools, isList: Bool = false) throws -> ToolCallDecoder {
        let counter = Counter()
        return try ToolCallDecoder(definitions: tools, schema: schema, mode: mode, tokens: vocabulary.tokens,
                                   endOfGeneration: [ToyVocabulary.eos], envelope: vocabulary.envelope(isList: isList),
                                   makeID: { defer { counter.increment() }; return "id\(counter.value)" })
    }

    /// Accepts each token, returning the acceptances.
    static func feed(_ decoder: inout ToolCallDecoder, _ tokens: [Int]) throws -> [ToolCallDecoder.Acceptance] {
        try tokens.map { try decoder.accept($0) }
    }

    static func allows(_ next: ToolCallDecoder.Next, _ token: Int) -> Bool {
        guard case .sample(let mask) = next else { return false }
        guard let mask else { return true }
        return mask[token >> 6] & (1 << UInt64(token & 63)) != 0
    }

    static func allowedTokens(_ next: ToolCallDecoder.Next) -> [Int] {
        (0..<vocabulary.tokens.count).filter { allows(next, $0) }
    }

    static let weatherCall = #"{"name": "get_weather", "arguments": {"city": "Moscow"}}"#

    @Test func freeTextPassesThroughAndEndsWithoutCalls() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.allowed)
        #expect(decoder.next() == .sample(allowed: nil))
        #expect(try Self.feed(&decoder, [v.id("Hello"), v.id(" world"), ToyVocabulary.eos]) == [.text, .text, .end])
        #expect(decoder.next() == .end)
        #expect(!decoder.isCallingTools)
    }

    @Test(arguments: [["<tool", "_call", ">"], ["<tool", "_call", ">{\""], ["<", "t", "o", "o", "l", "_", "c", "a", "l", "l", ">"]])
    func theOpeningTagInTextSwitchesToTheCallGrammarAndTheCloseIsForced(opening: [String]) throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.allowed)
        let tag = opening.map(v.id)
        var expected: [ToolCallDecoder.Acceptance] = [.text, .text, .text]
        expected += Array(repeating: .held, count: tag.count - 1) + [.call]
        #expect(try Self.feed(&decoder, v.characters("Hi ") + tag) == expected)
        #expect(decoder.isCallingTools)

        let body = Self.weatherCall.dropFirst(opening.last == ">{\"" ? 2 : 0)
        let acceptances = try Self.feed(&decoder, v.characters(String(body)))
        #expect(acceptances.allSatisfy { $0 == .call }, "\(acceptances)")
        #expect(decoder.next() == .force([v.id("</tool_call>")]))
        let afterCall = decoder.next()
        #expect(Self.allowedTokens(afterCall) == [ToyVocabulary.eos, v.id("\n")])
        #expect(try decoder.accept(ToyVocabulary.eos) == .end)
        #expect(decoder.next() == .call([Transcript.ToolCall(id: "id0", toolName: "get_weather",
                                                             arguments: GeneratedContent(properties: ["city": "Moscow"]))]))
    }

    @Test(arguments: [("get_weather", true), ("FindContacts", true), ("get_time", false), ("findContacts", false), ("get_weathers", false)])
    func theNameMustBeOneOfTheTools(name: String, registered: Bool) throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        guard case .force = decoder.next() else { Issue.record("the opening is not forced"); return }
        _ = try Self.feed(&decoder, v.characters(#"{"name": ""#))
        let acceptances = try Self.feed(&decoder, v.characters(name + "\""))
        #expect(acceptances.allSatisfy { $0 == .call } == registered, "\(acceptances)")
    }

    @Test(arguments: [("3", true), ("10", true), ("1", true), ("0", false), ("11", false), ("-2", false), (#""3""#, false), ("3.5", false)])
    func theArgumentsMustFollowTheToolsParameters(count: String, valid: Bool) throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        let prefix = try Self.feed(&decoder, v.characters(#"{"name": "FindContacts", "arguments": {"count": "#))
        #expect(prefix.allSatisfy { $0 == .call })
        let acceptances = try Self.feed(&decoder, v.characters(count + "}}"))
        #expect(acceptances.allSatisfy { $0 == .call } == valid, "\(acceptances)")
        if valid {
            #expect(decoder.next() == .force([v.id("</tool_call>")]))
            #expect(decoder.calls.map(\.arguments) == [GeneratedContent(properties: ["count": Int(count) ?? 0])])
        }
    }

    @Test(arguments: [(false, ["{", "{\"", #"{"name": "FindContacts", "arguments": {"count": "#]), (true, ["["])])
    func requiredForcesTheOpeningTagFirst(isList: Bool, continuations: [String]) throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required, isList: isList)
        #expect(decoder.next() == .force([v.id("<tool"), v.id("_call"), v.id(">")]))
        #expect(Self.allowedTokens(decoder.next()) == continuations.map(v.id))
        #expect(decoder.isCallingTools)
    }

    @Test func theListStyleTakesEveryCallOfTheRoundInOneEnvelope() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.allowed, isList: true)
        #expect(try Self.feed(&decoder, [v.id("<tool"), v.id("_call")]) == [.held, .held])
        #expect(try decoder.accept(v.id(">{\"")) == .rejected, "a list must follow the tag")
        #expect(try decoder.accept(v.id(">")) == .call)
        let list = "[" + Self.weatherCall + #", {"name": "FindContacts", "arguments": {"count": 2}}]"#
        #expect(try Self.feed(&decoder, v.characters(list)).allSatisfy { $0 == .call })
        #expect(decoder.next() == .force([v.id("</tool_call>")]))
        guard case .call(let calls) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(calls.map(\.id) == ["id0", "id1"])
        #expect(calls.map(\.description) == [#"get_weather({"city":"Moscow"})"#, #"FindContacts({"count":2})"#])
    }

    @Test func theListStyleDropsARepeatedCall() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required, isList: true)
        _ = decoder.next()
        _ = try Self.feed(&decoder, v.characters("[" + Self.weatherCall + ", " + Self.weatherCall + "]"))
        #expect(decoder.next() == .force([v.id("</tool_call>")]))
        guard case .call(let calls) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(calls.map(\.description) == [#"get_weather({"city":"Moscow"})"#])
    }

    @Test func theListStyleHoldsAtMostEightCalls() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required, isList: true)
        _ = decoder.next()
        // A call in three tokens: the head up to the count, the count, the closing braces.
        let call = { (count: Int) in [v.id(#"{"name": "FindContacts", "arguments": {"count": "#), v.id("\(count)"), v.id("}}")] }
        let calls = (1...8).map(call)
        var list = [v.id("[")] + calls[0]
        for next in calls.dropFirst() { list += [v.id(","), v.id(" ")] + next }
        #expect(try Self.feed(&decoder, list).allSatisfy { $0 == .call })
        #expect(try decoder.accept(v.id(",")) == .rejected)
        #expect(try decoder.accept(v.id("]")) == .call)
        guard case .force = decoder.next(), case .call(let made) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(made.count == ToolCallDecoder.maximumCallsPerRound)
    }

    @Test func disallowedRejectsEveryTokenThatCompletesTheOpeningTag() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.disallowed)
        #expect(try Self.feed(&decoder, [v.id("<tool"), v.id("_call")]) == [.held, .held])
        #expect(try decoder.accept(v.id(">")) == .rejected)
        #expect(try decoder.accept(v.id(">{\"")) == .rejected)
        #expect(try decoder.accept(v.id("s")) == .text, "text that only looks like the tag is released")
        #expect(try decoder.accept(ToyVocabulary.eos) == .end)
        #expect(decoder.next() == .end)
    }

    @Test func aTagFollowedByWhatCannotStartACallIsRejected() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.allowed)
        _ = try Self.feed(&decoder, [v.id("<tool"), v.id("_call")])
        #expect(try decoder.accept(v.id("> ")) == .rejected)
        #expect(try decoder.accept(v.id(">")) == .call)
    }

    @Test func aSecondCallAfterTheFirstIsAParallelCall() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        _ = try Self.feed(&decoder, v.characters(Self.weatherCall))
        #expect(decoder.next() == .force([v.id("</tool_call>")]))
        _ = decoder.next()
        #expect(try decoder.accept(v.id("\n")) == .call)
        #expect(decoder.next() == .force([v.id("<tool"), v.id("_call"), v.id(">")]))
        _ = try Self.feed(&decoder, v.characters(#"{"name": "FindContacts", "arguments": {"count": 2}}"#))
        #expect(decoder.next() == .force([v.id("</tool_call>")]))
        _ = decoder.next()
        #expect(try decoder.accept(ToyVocabulary.eos) == .end)
        guard case .call(let calls) = decoder.next() else { Issue.record("no calls"); return }
        #expect(calls.map(\.id) == ["id0", "id1"])
        #expect(calls.map(\.description) == [#"get_weather({"city":"Moscow"})"#, #"FindContacts({"count":2})"#])
    }

    @Test func aRepeatedCallEndsTheRoundWithoutTheRepeat() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        _ = try Self.feed(&decoder, v.characters(Self.weatherCall))
        _ = decoder.next()
        _ = decoder.next()
        _ = try decoder.accept(v.id("\n"))
        _ = decoder.next()
        // The same call again, with other spacing.
        _ = try Self.feed(&decoder, v.characters(#"{"name":"get_weather","arguments":{"city":"Moscow"}}"#))
        guard case .call(let calls) = decoder.next() else { Issue.record("the round did not end"); return }
        #expect(calls.map(\.id) == ["id0"])
    }

    @Test func aCallLongerThanTheTokenLimitFailsToDecode() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        let prefix = v.characters(#"{"name": "get_weather", "arguments": {"city": ""#)
        _ = try Self.feed(&decoder, prefix)
        let fill = Array(repeating: v.id("a"), count: ToolCallDecoder.maximumTokensPerEnvelope - prefix.count)
        #expect(try Self.feed(&decoder, fill).allSatisfy { $0 == .call })
        let error = #expect(throws: GeneratedContent.ParsingError.self) { try decoder.accept(v.id("a")) }
        #expect(error?.debugDescription.hasPrefix("The tool call is longer than \(ToolCallDecoder.maximumTokensPerEnvelope) tokens: ") == true)
        #expect(error?.rawContent.hasSuffix("aaaa") == true)
    }

    @Test(arguments: [("Oslo}}", "]"), ("Oslo}", "}"), ("Oslo]", "}"), ("Oslo}", "]"), ("Oslo</too", "l"), ("Oslo}}", "}}")])
    func aStringCannotGoOnWithTheCallsClosingText(string: String, next: String) throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        let prefix = try Self.feed(&decoder, v.characters(#"{"name": "get_weather", "arguments": {"city": ""# + string.dropLast()))
        #expect(prefix.allSatisfy { $0 == .call })
        #expect(try decoder.accept(v.id(String(string.last ?? " "))) == (string.hasSuffix("}}") ? .rejected : .call))
        #expect(try decoder.accept(v.id(next)) == .rejected)
        #expect(try decoder.accept(v.id("\"")) == .call, "closing the string is still allowed")
    }

    @Test(arguments: [("greet_wile_greet_greet_wile_greet_greet_wile_greet", true), ("0123456789abcdef0123456789abcdef", true),
                      ("New York, New York, the city that never sleeps", false), ("0123456789abcdef0123456789abcde", false)])
    func aStringThatRepeatsItselfIsClosed(string: String, closed: Bool) throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        _ = try Self.feed(&decoder, v.characters(#"{"name": "get_weather", "arguments": {"city": ""# + string))
        let next = decoder.next()
        #expect((next == .force([v.id("\"")])) == closed, "\(next)")
        if closed {
            _ = try Self.feed(&decoder, v.characters("}}"))
            #expect(decoder.calls.map(\.arguments) == [GeneratedContent(properties: ["city": string])])
        }
    }

    @Test func escapedQuotesAndSingleBracketsStayInTheString() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        let acceptances = try Self.feed(&decoder, v.characters(#"{"name": "get_weather", "arguments": {"city": "a\"}\" ]b"}}"#))
        #expect(acceptances.allSatisfy { $0 == .call })
        #expect(decoder.calls.map(\.description) == [#"get_weather({"city":"a\"}\" ]b"})"#])
    }

    @Test func noEndOfGenerationInsideACall() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.required)
        _ = decoder.next()
        _ = try Self.feed(&decoder, v.characters(#"{"name": "get_weather", "arguments": {"#))
        #expect(!Self.allows(decoder.next(), ToyVocabulary.eos))
        #expect(try decoder.accept(ToyVocabulary.eos) == .rejected)
    }

    static let note = GenerationSchema(type: GeneratedContent.self, properties: [.init(name: "text", type: String.self)])

    @Test func aStructuredResponseMayStartWithACallInsteadOfItsValue() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.allowed, schema: Self.note)
        #expect(Self.allowedTokens(decoder.next()) == [v.id("{"), v.id("<tool"), v.id("{\"")])
        #expect(try decoder.accept(v.id("<tool")) == .call)
        #expect(decoder.next() == .force([v.id("_call"), v.id(">")]))

        var valueFirst = try Self.decoder(.allowed, schema: Self.note)
        _ = valueFirst.next()
        #expect(try Self.feed(&valueFirst, v.characters(#"{"text": "hi"}"#)).allSatisfy { $0 == .text })
        #expect(Self.allowedTokens(valueFirst.next()) == [ToyVocabulary.eos])
        #expect(try valueFirst.accept(ToyVocabulary.eos) == .end)
        #expect(valueFirst.next() == .end)
    }

    @Test func aStructuredResponseCannotCallWhenCallingIsDisallowed() throws {
        let v = Self.vocabulary
        var decoder = try Self.decoder(.disallowed, schema: Self.note)
        #expect(Self.allowedTokens(decoder.next()) == [v.id("{"), v.id("{\"")])
    }

    @Test func twoToolsMayDefineTypesOfTheSameName() throws {
        let v = Self.vocabulary
        let tools = [
            Transcript.ToolDefinition(name: "a", description: "", parameters: GenerationSchema(type: GeneratedContent.self, properties: [
                .init(name: "where", type: First.Place.self)])),
            Transcript.ToolDefinition(name: "b", description: "", parameters: GenerationSchema(type: GeneratedContent.self, properties: [
                .init(name: "where", type: Second.Place.self)])),
        ]
        for (call, valid) in [(#"{"name": "a", "arguments": {"where": {"city": "Oslo"}}}"#, true),
                              (#"{"name": "a", "arguments": {"where": {"zip": 1}}}"#, false),
                              (#"{"name": "b", "arguments": {"where": {"zip": 1}}}"#, true),
                              (#"{"name": "b", "arguments": {"where": {"city": "Oslo"}}}"#, false)] {
            var decoder = try Self.decoder(.required, tools: tools)
            _ = decoder.next()
            #expect(try Self.feed(&decoder, v.characters(call)).allSatisfy { $0 == .call } == valid, "\(call)")
        }
    }
}

/// Two argument types both named `Place` in their schemas.
enum First {
    struct Place: Generable {
        var city: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Self.self, properties: [.init(name: "city", type: String.self)])
        }
        init(_ content: GeneratedContent) throws { city = try content.value(forProperty: "city") }
        var generatedContent: GeneratedContent { GeneratedContent(properties: ["city": city]) }
    }
}

enum Second {
    struct Place: Generable {
        var zip: Int
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Self.self, properties: [.init(name: "zip", type: Int.self)])
        }
        init(_ content: GeneratedContent) throws { zip = try content.value(forProperty: "zip") }
        var generatedContent: GeneratedContent { GeneratedContent(properties: ["zip": zip]) }
    }
}
