import LMGrammar
import Testing

/// Schema parts the automaton holds at many places (array positions up to `maxItems`, the same
/// constraints in many properties, `{}`, distinct items of a long enum) are built once, so
/// ordinary real-world schemas (GitLab CI, mergify, snapcraft, Citation File Format) stay far
/// below `GrammarOptions.maxStates`; each shape here was refused at 500,000 states before.
@Suite("Repeated schema parts are compiled once")
struct RepeatedPartsTests {
    /// An object of `count` optional string properties of at most 40 characters.
    static func item(_ count: Int) -> String {
        let properties = (0..<count).map { #""p\#($0)":{"type":"string","maxLength":40}"# }.joined(separator: ",")
        return #"{"type":"object","additionalProperties":false,"properties":{\#(properties)}}"#
    }

    @Test("200 array positions of a large item cost a call each, and the bound still holds")
    func boundedArrayOfLargeItems() throws {
        let one = try CompiledGrammar(Grammar(jsonSchema: Self.item(20)))
        let schema = #"{"type":"array","maxItems":200,"items":\#(Self.item(20))}"#
        let grammar = try Grammar(jsonSchema: schema)
        let compiled = try CompiledGrammar(grammar)
        // In place, 200 copies of the item (GitLab CI's `parallel:matrix` took 1.25 M states).
        #expect(compiled.stateCount < 3 * one.stateCount + 200 * 20, "\(compiled.stateCount) states, one item \(one.stateCount)")
        let item = #"{"p0":"a","p19":"b"}"#
        #expect(try GrammarProbe.accepts(grammar, "[" + Array(repeating: item, count: 200).joined(separator: ",") + "]"))
        #expect(try !GrammarProbe.accepts(grammar, "[" + Array(repeating: item, count: 201).joined(separator: ",") + "]"))
        #expect(try !GrammarProbe.accepts(grammar, #"[{"p0":"\#(String(repeating: "x", count: 41))"}]"#))
        #expect(try !GrammarProbe.accepts(grammar, #"[{"p20":"a"}]"#))
    }

    @Test("distinct items of a 600-value enum without a maximum count only to the minimum")
    func distinctItemsOfALongEnum() throws {
        let values = (0..<600).map { #""license-\#($0)""# }.joined(separator: ",")
        let grammar = try Grammar(jsonSchema: #"{"type":"array","minItems":2,"uniqueItems":true,"items":{"enum":[\#(values)]}}"#)
        let compiled = try CompiledGrammar(grammar)
        // Counting to 600 took 600 states per value (Citation File Format's `license`: 1.65 M).
        #expect(compiled.stateCount < 100_000, "\(compiled.stateCount) states")
        #expect(try GrammarProbe.accepts(grammar, #"["license-1","license-7","license-599"]"#))
        #expect(try !GrammarProbe.accepts(grammar, #"["license-1"]"#))
        #expect(try !GrammarProbe.accepts(grammar, #"["license-1","license-1"]"#))
        #expect(try !GrammarProbe.accepts(grammar, #"["license-1","license-600"]"#))
    }

    @Test("a maximum count of distinct items is still kept")
    func distinctItemsWithAMaximum() throws {
        let values = (0..<30).map { #""v\#($0)""# }.joined(separator: ",")
        let grammar = try Grammar(jsonSchema: #"{"type":"array","maxItems":2,"uniqueItems":true,"items":{"enum":[\#(values)]}}"#)
        #expect(try GrammarProbe.accepts(grammar, #"["v1","v2"]"#))
        #expect(try GrammarProbe.accepts(grammar, "[]"))
        #expect(try !GrammarProbe.accepts(grammar, #"["v1","v2","v3"]"#))
    }

    @Test("every {} of a schema calls one automaton of any value per depth")
    func anyValuesAreShared() throws {
        func schema(_ count: Int) -> String {
            let properties = (0..<count).map { #""a\#($0)":{}"# }.joined(separator: ",")
            return #"{"type":"object","properties":{\#(properties)}}"#
        }
        let one = try CompiledGrammar(Grammar(jsonSchema: schema(1)))
        let sixty = try CompiledGrammar(Grammar(jsonSchema: schema(60)))
        // In place, each `{}` held 2^4 copies of the innermost levels (about 1,500 states).
        #expect(sixty.stateCount - one.stateCount < 59 * 40, "one: \(one.stateCount), sixty: \(sixty.stateCount)")
        let grammar = try Grammar(jsonSchema: schema(60))
        #expect(try GrammarProbe.accepts(grammar, #"{"a0":{"x":[1,{"y":null}]},"a7":[true,-2.5e3],"a59":"s"}"#))
        #expect(try !GrammarProbe.accepts(grammar, #"{"a0":{"x":[1,{"y":null]}}"#))
        #expect(try !GrammarProbe.accepts(grammar, #"{"a0":tru}"#))
    }
}
