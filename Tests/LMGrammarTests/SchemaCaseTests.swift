import Foundation
import LMGrammar
import Testing
import TestSupport

/// The minimal failing schemas of issue 16 (`Tests/Reference/schema-cases/R01`...`R16`): each now
/// gives values that Python's jsonschema accepts (several seeded random SmolLM2 generations per
/// case, within a 200-token budget), or an error naming the keyword.
@Suite("JSON Schema cases R01-R16")
struct SchemaCaseTests {
    static func cases() throws -> [(name: String, schema: String)] {
        let folder = TestPaths.ref("schema-cases")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test("every case gives values the schema accepts")
    func casesGiveValidValues() throws {
        let cases = try Self.cases()
        try #require(cases.count == 16, "read \(cases.count) cases")
        let driver = RandomGrammarDriver(vocabulary: try SmolLM2Vocabulary.vocabulary(), index: try SmolLM2Vocabulary.index())
        var lines: [String] = []
        for c in cases {
            let compiled = try CompiledGrammar(try Grammar(jsonSchema: c.schema))
            for seed in 0..<4 {
                guard case let .value(text, _) = driver.generate(compiled, seed: UInt64(seed) &+ SchemaCorpus.seed(c.name), budget: 200) else {
                    Issue.record("\(c.name) seed \(seed): no value")
                    continue
                }
                lines.append(SchemaCorpus.line(id: "\(c.name)#\(seed)", schema: c.schema, text: text))
            }
        }
        let summary = try SchemaCorpus.validate(lines)
        #expect(summary.checked == 64)
        #expect(summary.invalid.isEmpty, "\(summary.invalid.joined(separator: "\n"))")
    }

    @Test("R15: the shortest value counts its SmolLM2 tokens (fewer than half its bytes), so 256 tokens are enough")
    func budgetCountsRealTokens() throws {
        let schema = try #require(try Self.cases().first { $0.name.hasPrefix("R15") }).schema
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(try Grammar(jsonSchema: schema)), index: try SmolLM2Vocabulary.index())
        let count = try #require(matcher.completionTokenCount)
        #expect(count <= 128)
        #expect((matcher.shortestCompletion()?.count ?? 0) >= 2 * count)
    }

    @Test("what each case means is enforced", arguments: [
        ("R01", #"{"route_id":"a","note":null}"#, true), ("R01", #"{"route_id":null,"note":null}"#, false),
        ("R02", #"{"version":2}"#, true), ("R02", #"{"version":"2"}"#, false), ("R02", #"{}"#, false),
        ("R03", #"{"deviceId":"a","deviceClass":3}"#, true), ("R03", #"{"deviceId":"a"}"#, false),
        ("R04", #"{"level":2}"#, true), ("R04", #"{"level":4}"#, false),
        ("R05", #"{"version":2}"#, true), ("R05", #"{"version":3}"#, false),
        ("R06", #"["a",1]"#, true), ("R06", #"[1,"a"]"#, false),
        ("R07", #"{"name":"a","child":{"name":"b"}}"#, true), ("R07", #"{"name":"a","child":{}}"#, false),
        ("R08", #"{"px":3}"#, true), ("R08", #"{"px":"3"}"#, false),
        ("R09", #"{"count":2}"#, true), ("R09", #"{"count":1}"#, false),
        ("R10", #"{"code":"abcde"}"#, true), ("R10", #"{"code":"abcdef"}"#, false),
        ("R11", #"{"id":1}"#, true), ("R11", #"{}"#, false),
        ("R12", #"{"name":"a","age":3}"#, true), ("R12", #"{"age":3}"#, false),
        ("R13", #"{"en":"x","fr":"y"}"#, true), ("R13", #"{"fr":"y"}"#, false), ("R13", #"{"en":"x","fr":1}"#, false),
        ("R14", #"{"v":1.5}"#, true), ("R14", #"{"v":1}"#, false), ("R14", #"{"v":1.0}"#, false),
        ("R16", #"{"ab":"x"}"#, true), ("R16", #"{}"#, false), ("R16", #"{"AB":"x"}"#, false),
    ])
    func meaning(name: String, json: String, accepted: Bool) throws {
        let schema = try #require(try Self.cases().first { $0.name.hasPrefix(name) }).schema
        #expect(try GrammarProbe.accepts(try Grammar(jsonSchema: schema), json) == accepted)
    }
}
