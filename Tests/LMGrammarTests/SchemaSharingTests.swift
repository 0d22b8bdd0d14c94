import LMGrammar
import Testing

/// The reader's definitions: kept shared when large and used in several places or recursive,
/// written in place otherwise.
@Suite("JSON Schema definitions shared")
struct SchemaSharingTests {
    /// `uses` properties that all refer to one definition of `width` string properties.
    static func schema(uses: Int, width: Int) -> String {
        let big = (0..<width).map { #""f\#($0)":{"type":"string","maxLength":8}"# }.joined(separator: ",")
        let props = (0..<uses).map { ##""p\##($0)":{"$ref":"#/$defs/big"}"## }.joined(separator: ",")
        return #"{"type":"object","properties":{\#(props)},"$defs":{"big":{"type":"object","properties":{\#(big)}}}}"#
    }

    @Test("a large definition used by many properties stays one definition, and the automaton stays small")
    func largeDefinitionShared() throws {
        let g = try Grammar(jsonSchema: Self.schema(uses: 60, width: 20))
        #expect(g.definitions.count == 1)
        let compiled = try CompiledGrammar(g)
        let alone = try CompiledGrammar(try Grammar(jsonSchema: Self.schema(uses: 1, width: 20)))
        #expect(compiled.stateCount < 2 * alone.stateCount + 60 * 20)
        #expect(try GrammarProbe.accepts(g, #"{"p0":{"f1":"abc"},"p59":{"f19":"12345678"}}"#))
        #expect(try !GrammarProbe.accepts(g, #"{"p0":{"f1":"123456789"}}"#))
    }

    @Test("a definition used once, or small, is written in place", arguments: [
        (##"{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"object","properties":{"b":{"type":"string"},"c":{"type":"integer"}}}}}"##),
        (##"{"type":"object","properties":{"a":{"$ref":"#/$defs/x"},"b":{"$ref":"#/$defs/x"}},"$defs":{"x":{"enum":["on","off"]}}}"##),
    ])
    func smallOrSingleInlined(schema: String) throws {
        let g = try Grammar(jsonSchema: schema)
        #expect(g.definitions.isEmpty)
    }

    @Test("a property whose schemas are all $refs to one definition (here through allOf) is that definition")
    func canonicalReferences() throws {
        let width = (0..<20).map { #""f\#($0)":{"type":"string"}"# }.joined(separator: ",")
        let schema = ##"{"type":"object","allOf":[{"properties":{"a":{"$ref":"#/$defs/alias"}}}],"properties":{"a":{"$ref":"#/$defs/big"},"b":{"$ref":"#/$defs/big"}},"$defs":{"alias":{"$ref":"#/$defs/big","description":"the same"},"big":{"type":"object","properties":{\##(width)}}}}"##
        let g = try Grammar(jsonSchema: schema)
        // `a` (two schemas, both the definition) and `b` share it; two different keys would each
        // be used once and written in place.
        #expect(g.definitions.count == 1)
        #expect(try GrammarProbe.accepts(g, #"{"a":{"f0":"x"},"b":{"f19":"y"}}"#))
    }
}
