import LMGrammar
import Testing

/// Schemas that lead back to themselves without an object or array between have no finite value to describe:
/// they are refused with the JSON pointer and the reason, where expanding them used to recurse until the stack
/// overflowed (a branch of `anyOf` that is the schema itself) or read them as any value (a `$ref`-only cycle).
@Suite("Schemas that lead back to themselves")
struct SchemaCycleTests {
    @Test("an alternative that is its own schema is refused, not expanded without end", arguments: [
        ##"{"anyOf":[{"$ref":"#"}]}"##,
        ##"{"anyOf":[{"$ref":"#"},{"type":"string"}]}"##,
        ##"{"oneOf":[{"$ref":"#"},{"type":"null"}]}"##,
        ##"{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}"##,
    ])
    func leftRecursiveAlternativesAreRefused(schema: String) {
        #expect {
            _ = try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case GrammarError.unsupportedKeyword(_, "anyOf", let reason) = error else { return false }
            return reason.contains("leads back to its own schema")
        }
    }

    @Test("a cycle of $ref-only schemas is refused, naming the cycle", arguments: [
        (##"{"$ref":"#"}"##, "# -> #"),
        (##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##, "#/$defs/a -> #/$defs/b -> #/$defs/a"),
    ])
    func referenceOnlyCyclesAreRefused(schema: String, cycle: String) {
        #expect {
            _ = try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case GrammarError.invalidSchema(_, let reason) = error else { return false }
            return reason.contains(cycle)
        }
    }

    /// Recursion through an object's property or an array's items is a tree, which generates.
    @Test("recursion through a property or items still compiles", arguments: [
        ##"{"type":"object","properties":{"c":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["c"]}"##,
        ##"{"$ref":"#/$defs/n","$defs":{"n":{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/n"},{"type":"integer"}]},"maxItems":2}}}"##,
    ])
    func treesStillCompile(schema: String) throws {
        _ = try CompiledGrammar(try Grammar(jsonSchema: schema), options: GrammarOptions(recursionBoundedByInput: true))
    }
}
