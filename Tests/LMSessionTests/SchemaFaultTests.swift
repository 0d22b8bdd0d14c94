import Foundation
import LMSession
import Testing
import TestSupport

struct EmptyChoice: GenerableSchema {
    var kind: String
    static let generationGuides = GenerationGuides<EmptyChoice>(.init(\.kind, .anyOf([])))
}

struct CrossedCounts: GenerableSchema {
    var tags: [String]
    static let generationGuides = GenerationGuides<CrossedCounts>(.init(\.tags, .minimumCount(3), .maximumCount(1)))
}

struct CrossedBounds: GenerableSchema {
    var level: Int
    static let generationGuides = GenerationGuides<CrossedBounds>(.init(\.level, .minimum(5), .maximum(1)))
}

/// Issue 16, section 3: faults reported on the product, each tested as a class.
@Suite("Schema faults from public reports")
struct SchemaFaultTests {
    /// The issue's schema: a node whose `kids` hold at most one node of the root's own type.
    static func recursiveRoot() throws -> GenerationSchema {
        try GenerationSchema(root: DynamicGenerationSchema(name: "N", properties: [
            .init(name: "kids", schema: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "N"), maximumElements: 1)),
        ]), dependencies: [])
    }

    @Test("recursion through the root builds, is written as $ref \"#\", and its grammar nests", arguments: [
        (#"{"kids":[]}"#, true), (#"{"kids":[{"kids":[]}]}"#, true), (#"{"kids":[{"kids":[{"kids":[]}]}]}"#, true),
        (#"{"kids":[{"kids":[]},{"kids":[]}]}"#, false), (#"{"kids":[{}]}"#, false), (#"{}"#, false),
    ])
    func recursiveRootGrammar(json: String, accepted: Bool) throws {
        let schema = try Self.recursiveRoot()
        #expect(try schema.grammarAccepts(json) == accepted)
        let encoded = String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)
        #expect(encoded.contains(##""$ref":"#""##))
        #expect(try GenerationSchema(jsonSchema: encoded).grammarAccepts(json) == accepted)
    }

    @Test("a request with the recursive root decodes a finite, valid value even when the model always nests")
    func recursiveRootDecodes() throws {
        let vocabulary = ScriptedDecoding.vocabulary
        let nesting = ScriptedForward.ranking(["{\"", "[", "{"].map { vocabulary.id($0) }, vocabularySize: vocabulary.tokens.count,
                                              ascending: true, last: [ToyVocabulary.eos])
        let request = LanguageModelRequest(transcript: Transcript(), options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 200),
                                           schema: try Self.recursiveRoot(), toolDefinitions: [])
        let events = try ScriptedDecoding.run(request) { _ in nesting }
        let text = ScriptedDecoding.text(events)
        #expect(try Self.recursiveRoot().grammarAccepts(text), "\(text)")
        // The model always opens another node: the budget closes it in time, past the 1 + 3 levels a request
        // without a budget allows.
        #expect(text.components(separatedBy: "kids").count - 1 > 4, "\(text)")
        #expect(ScriptedDecoding.outputTokens(events) <= 200)
    }

    @Test("out-of-range options are a typed error before any work, for every request", arguments: [
        ("temperature", GenerationOptions(temperature: -1)),
        ("temperature", GenerationOptions(temperature: .nan)),
        ("temperature", GenerationOptions(temperature: .infinity)),
        ("samplingMode.top", GenerationOptions(samplingMode: .random(top: 0))),
        ("samplingMode.top", GenerationOptions(samplingMode: .random(top: -3))),
        ("samplingMode.probabilityThreshold", GenerationOptions(samplingMode: .random(probabilityThreshold: 0))),
        ("samplingMode.probabilityThreshold", GenerationOptions(samplingMode: .random(probabilityThreshold: 1.5))),
        ("samplingMode.probabilityThreshold", GenerationOptions(samplingMode: .random(probabilityThreshold: .nan))),
        ("maximumResponseTokens", GenerationOptions(maximumResponseTokens: -1)),
    ])
    func invalidOptions(option: String, options: GenerationOptions) async throws {
        #expect(throws: GenerationOptions.InvalidOptionError.self) { try options.validate() }
        let model = ScriptedProvider([.text(["never"])])
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "hi", options: options)
        } throws: { error in
            (error as? GenerationOptions.InvalidOptionError)?.option == option
        }
        #expect(model.requests.isEmpty)
        #expect(session.transcript.isEmpty)
    }

    @Test("the edges of each range are valid", arguments: [
        GenerationOptions(temperature: 0), GenerationOptions(samplingMode: .random(top: 1)),
        GenerationOptions(samplingMode: .random(probabilityThreshold: 1)), GenerationOptions(samplingMode: .greedy, temperature: 2),
        GenerationOptions(maximumResponseTokens: 0), GenerationOptions(),
    ])
    func validOptions(options: GenerationOptions) throws {
        try options.validate()
    }

    /// It used to overflow the stack when the grammar was made (the session's first guided request).
    @Test("a schema whose alternative is itself gives a grammar failure, not a crash")
    func selfAlternativeSchema() throws {
        let schema = try GenerationSchema(root: DynamicGenerationSchema(name: "A", anyOf: [DynamicGenerationSchema(referenceTo: "A")]),
                                          dependencies: [])
        #expect(throws: GenerationSchema.GrammarFailure.self) { _ = try schema.compiledGrammar() }
    }

    @Test("guides no value satisfies are rejected when the schema is built, not when a request runs")
    func unsatisfiableGuides() throws {
        #expect(throws: GenerableSchemaError.self) { try EmptyChoice.checkedGenerationSchema() }
        #expect(throws: GenerableSchemaError.self) { try CrossedCounts.checkedGenerationSchema() }
        #expect(throws: GenerableSchemaError.self) { try CrossedBounds.checkedGenerationSchema() }
        let problems: [DynamicGenerationSchema] = [
            DynamicGenerationSchema(name: "A", anyOf: [] as [String]),
            DynamicGenerationSchema(name: "A", properties: [.init(name: "p", schema: DynamicGenerationSchema(arrayOf: .init(type: String.self),
                                                                                                             minimumElements: 3, maximumElements: 1))]),
            DynamicGenerationSchema(name: "A", properties: [.init(name: "p", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...1), .minimum(4)]))]),
        ]
        for root in problems {
            #expect {
                _ = try GenerationSchema(root: root, dependencies: [])
            } throws: { error in
                guard case .emptyTypeChoices(let name, _)? = error as? GenerationSchema.SchemaError else { return false }
                return name == "A"
            }
        }
        // A satisfiable one still builds.
        _ = try GenerationSchema(root: DynamicGenerationSchema(name: "A", properties: [
            .init(name: "p", schema: DynamicGenerationSchema(arrayOf: .init(type: String.self), minimumElements: 1, maximumElements: 1)),
        ]), dependencies: [])
    }
}
