import Foundation
import LMGeneration
import LMSession
import Testing
import TestSupport

/// `maximumResponseTokens` on guided generation, without a model: the local decode path (`LocalDecoding`)
/// over the toy vocabulary of ToolCallDecoderTests, with a scripted "model" that never wants the value to end.
@Suite("Guided decoding within a token budget")
struct GuidedBudgetTests {
    static let vocabulary = ToyVocabulary()

    /// The scenario types, each with its shortest JSON value and a check of its guides.
    enum Shape: String, CaseIterable, CustomStringConvertible, Sendable {
        case digest, recipe, actionItems, review

        var description: String { rawValue }

        var schema: GenerationSchema {
            switch self {
            case .digest: Digest.generationSchema
            case .recipe: Recipe.generationSchema
            case .actionItems: ActionItems.generationSchema
            case .review: Review.generationSchema
            }
        }

        /// The shortest value the schema allows: what the decoder reserves room for.
        var shortest: String {
            switch self {
            case .digest: #"{"keyPoints":["","",""],"summary":""}"#
            case .recipe: #"{"title":"","ingredients":[],"minutes":5}"#
            case .actionItems: #"{"summary":"","tasks":[],"urgency":"low"}"#
            case .review: #"{"sentiment":"neutral","stars":1,"reasoning":""}"#
            }
        }

        /// Decodes `json` as the type and returns the guides it breaks.
        func violations(_ json: String) throws -> [String] {
            let content = try GeneratedContent(json: json)
            switch self {
            case .digest:
                let digest = try Digest(content)
                return digest.keyPoints.count == 3 ? [] : ["\(digest.keyPoints.count) key points"]
            case .recipe:
                let recipe = try Recipe(content)
                return (5...240).contains(recipe.minutes) ? [] : ["minutes \(recipe.minutes)"]
            case .actionItems:
                let items = try ActionItems(content)
                return ["low", "medium", "high"].contains(items.urgency) ? [] : ["urgency \(items.urgency)"]
            case .review:
                let review = try Review(content)
                return (1...5).contains(review.stars) ? [] : ["stars \(review.stars)"]
            }
        }
    }

    /// Logits under which greedy picks the allowed token that keeps the value open longest: words and letters
    /// inside strings, a comma for another array item, digits; otherwise the lowest id, ending generation only
    /// when nothing else is allowed.
    static func neverEnding(_ history: [Int]) -> [Float] {
        let preferred = ["Hello", " world", "a", ",", "9"].map { vocabulary.id($0) }
        return ScriptedForward.ranking(preferred, vocabularySize: vocabulary.tokens.count, ascending: true, last: [ToyVocabulary.eos])
    }

    /// Runs the local decode path greedily within `budget` tokens; with `tools`, the session has the weather and
    /// contacts tools (the never-ending "model" never opens a call).
    /// - Returns: the text and the number of tokens it took (end of generation not counted).
    static func generate(_ shape: Shape, budget: Int, tools: Bool = false) throws -> (text: String, tokens: Int) {
        let request = LanguageModelRequest(transcript: Transcript(), options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: budget),
                                           schema: shape.schema, toolDefinitions: tools ? ToolCallDecoderTests.tools : [])
        let events = try ScriptedDecoding.run(request, logits: neverEnding)
        return (ScriptedDecoding.text(events), ScriptedDecoding.outputTokens(events))
    }

    @Test("the tokens reserved at the start are the shortest value's tokens: its bytes, `{\"` being one token", arguments: Shape.allCases)
    func reserveIsShortestValue(shape: Shape) throws {
        let guide = try GrammarGuide(schema: shape.schema, index: ScriptedDecoding.decodeVocabulary().index())
        #expect(guide.completionTokenCount == shape.shortest.utf8.count - 1)
    }

    @Test("a never-ending chooser yields a complete value that keeps every guide, within the budget",
          arguments: Shape.allCases, [0, 1, 8, 40, 120])
    func budgetClosesTheValue(shape: Shape, extra: Int) throws {
        let budget = shape.shortest.utf8.count + extra
        let (text, tokens) = try Self.generate(shape, budget: budget)
        #expect(try shape.violations(text) == [], "\(text)")
        #expect(tokens <= budget)
        // Unrestricted, the chooser would never stop: the value fills the budget but for a token or two saved
        // by multi-byte tokens such as `{"`.
        #expect(tokens >= budget - 2, "\(text)")
    }

    @Test("a budget below the shortest value throws ParsingError at once", arguments: Shape.allCases, [1, 5, 20])
    func tooSmallBudgetThrows(shape: Shape, tokens: Int) throws {
        #expect(tokens < shape.shortest.utf8.count - 1)
        do {
            let (text, _) = try Self.generate(shape, budget: tokens)
            Issue.record("no error; generated \(text)")
        } catch let error as GeneratedContent.ParsingError {
            #expect(error.debugDescription.contains(tokens == 1 ? "1 token left" : "\(tokens) tokens left"), "\(error.debugDescription)")
        }
    }

    @Test("one token less than the shortest value still fits when `{\"` is one token; two less does not")
    func exactBoundary() throws {
        let shortest = Shape.digest.shortest.utf8.count
        let (text, tokens) = try Self.generate(.digest, budget: shortest - 1)
        #expect(text == Shape.digest.shortest)
        #expect(tokens == shortest - 1)
        #expect(throws: GeneratedContent.ParsingError.self) { try Self.generate(.digest, budget: shortest - 2) }
    }

    @Test("with tools in the session, a structured answer also closes within the budget, and too small a budget throws",
          arguments: Shape.allCases)
    func budgetWithTools(shape: Shape) throws {
        for extra in [0, 8, 60] {
            let budget = shape.shortest.utf8.count + extra
            let (text, tokens) = try Self.generate(shape, budget: budget, tools: true)
            #expect(try shape.violations(text) == [], "budget \(budget): \(text)")
            #expect((budget - 2)...budget ~= tokens, "budget \(budget): \(text)")
        }
        #expect(throws: GeneratedContent.ParsingError.self) { try Self.generate(shape, budget: 10, tools: true) }
    }
}
