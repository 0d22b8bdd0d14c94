import LMGrammar
import Testing

/// Schemas taken from a server's input: sizes that would take seconds and gigabytes to build are
/// refused before anything is built, naming the keyword and its JSON pointer.
@Suite("Schema size budgets")
struct SchemaBudgetTests {
    @Test("a string length past the longest string spelt is refused before building", arguments: [
        (#"{"type":"string","minLength":1000000}"#, "/minLength"),
        (#"{"type":"object","properties":{"s":{"allOf":[{"minLength":2},{"minLength":600}]}}}"#, "/properties/s/allOf/1/minLength"),
        (#"{"type":"string","not":{"maxLength":100000}}"#, "/not"),
    ])
    func longStrings(schema: String, path: String) {
        #expect {
            try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case let .unsupportedKeyword(p, keyword, reason) = error as? GrammarError else { return false }
            return p == path && keyword == "minLength" && reason.contains("512")
        }
    }

    @Test("the longest string spelt is still generated")
    func longestString() throws {
        let text = "\"" + String(repeating: "x", count: 512) + "\""
        #expect(try GrammarProbe.accepts(try Grammar(jsonSchema: #"{"type":"string","minLength":512}"#), text))
        #expect(!(try GrammarProbe.accepts(try Grammar(jsonSchema: #"{"type":"string","minLength":512}"#), "\"" + String(repeating: "x", count: 511) + "\"")))
    }

    @Test("nested repetition counts multiply and are refused before building", arguments: [
        (#"{"type":"string","pattern":"^(a{1000}){1000}$"}"#, "/pattern", "pattern"),
        (#"{"type":"string","pattern":"^((ab){1000}c){1000}$"}"#, "/pattern", "pattern"),
        (#"{"type":"object","patternProperties":{"^(x{900}){900}$":{}}}"#, "/patternProperties/^(x{900}){900}$", "patternProperties"),
    ])
    func nestedRepetitions(schema: String, path: String, keyword: String) {
        #expect {
            try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case let .unsupportedKeyword(p, k, reason) = error as? GrammarError else { return false }
            return p == path && k == keyword && reason.contains("multiply through nesting")
        }
    }

    @Test("a repetition count too large to hold is refused, not read as literal text", arguments: [
        #"^a{99999999999999999999}$"#, #"^a{1,99999999999999999999}$"#, #"^a{2000}$"#,
    ])
    func hugeCount(pattern: String) {
        #expect {
            try Grammar(jsonSchema: #"{"type":"string","pattern":"\#(pattern)"}"#)
        } throws: { error in
            guard case let .unsupportedKeyword(p, k, reason) = error as? GrammarError else { return false }
            return p == "/pattern" && k == "pattern" && reason.contains("repetition count above 1000")
        }
    }

    @Test("a nested repetition within the budget is enforced exactly")
    func smallNesting() throws {
        let grammar = try Grammar(jsonSchema: #"{"type":"string","pattern":"^((ab){3}c){2}$"}"#)
        #expect(try GrammarProbe.accepts(grammar, #""abababcabababc""#))
        #expect(!(try GrammarProbe.accepts(grammar, #""abababcababc""#)))
        // 30 x 1000 characters: about 30,000 states, within the 500,000 of the budget.
        #expect(throws: Never.self) { try Grammar(jsonSchema: #"{"type":"string","pattern":"^(a{1000}){30}$"}"#) }
    }
}

extension SchemaBudgetTests {
    /// `allOf` of `groups` `anyOf`s of `branches` objects each (`{"gI": "bJ"}` required): branches^groups combinations.
    static func combinations(groups: Int, branches: Int) -> String {
        let anyOfs = (0..<groups).map { g in
            let alternatives = (0..<branches).map { b in #"{"properties":{"g\#(g)":{"const":"b\#(b)"}},"required":["g\#(g)"]}"# }
            return #"{"anyOf":[\#(alternatives.joined(separator: ","))]}"#
        }
        return #"{"type":"object","allOf":[\#(anyOfs.joined(separator: ","))]}"#
    }

    @Test("anyOf combinations past 4096 are refused with their pointer, before building")
    func tooManyCombinations() {
        #expect {
            try Grammar(jsonSchema: Self.combinations(groups: 3, branches: 17))  // 4913
        } throws: { error in
            guard case let .unsupportedKeyword(path, keyword, reason) = error as? GrammarError else { return false }
            return path.isEmpty && keyword == "anyOf" && reason.contains("more than 4096 combinations")
        }
    }

    @Test("anyOf combinations within the budget are enforced: every combination and nothing else")
    func combinationsWithinBudget() throws {
        let grammar = try Grammar(jsonSchema: Self.combinations(groups: 2, branches: 40))  // 1600, past the old 256
        #expect(try GrammarProbe.accepts(grammar, #"{"g0":"b39","g1":"b7"}"#))
        #expect(!(try GrammarProbe.accepts(grammar, #"{"g0":"b40","g1":"b7"}"#)))
        #expect(!(try GrammarProbe.accepts(grammar, #"{"g0":"b3"}"#)))
    }
}

@Suite("Grammar size budgets")
struct GrammarBudgetSizeTests {
    @Test("an enum whose texts exceed the state budget is refused before it is built")
    func hugeEnum() {
        let texts = (0..<2_000).map { "\"value \($0)\"" }
        #expect(throws: GrammarError.tooLarge(states: 10_000)) {
            try CompiledGrammar(Grammar(root: .literals(texts)), options: GrammarOptions(maxStates: 10_000))
        }
        #expect(throws: Never.self) { try CompiledGrammar(Grammar(root: .literals(Array(texts.prefix(500)))), options: GrammarOptions(maxStates: 10_000)) }
    }
}
