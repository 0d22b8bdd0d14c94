import Foundation
import LMSession
import Testing

// Scenarios 4-8 of scenarios.md with `GenerableSchema` declarations in place of the macros.

/// Scenario 4.
struct Recipe: GenerableSchema, Equatable {
    var title: String
    var ingredients: [String]
    var minutes: Int

    static let generationGuides = GenerationGuides<Recipe>(
        description: "A recipe",
        .init(\.title, description: "The dish name"),
        .init(\.ingredients, description: "Each as \"quantity item\""),
        .init(\.minutes, description: "Total minutes", .range(5...240)))
}

/// Scenario 5.
struct ActionItems: GenerableSchema {
    var summary: String
    var tasks: [String]
    var urgency: String

    static let generationGuides = GenerationGuides<ActionItems>(
        .init(\.summary, description: "One sentence"),
        .init(\.tasks, description: "Each starts with a verb"),
        .init(\.urgency, .anyOf(["low", "medium", "high"])))
}

/// Scenario 6.
enum Sentiment: String, GenerableEnum {
    case positive, neutral, negative
}

struct Review: GenerableSchema {
    var sentiment: Sentiment
    var stars: Int
    var reasoning: String

    static let generationGuides = GenerationGuides<Review>(.init(\.stars, .range(1...5)))
}

/// Scenario 7.
struct Digest: GenerableSchema {
    var keyPoints: [String]
    var summary: String

    static let generationGuides = GenerationGuides<Digest>(
        .init(\.keyPoints, description: "The three key points", .count(3)),
        .init(\.summary, description: "A summary built on the key points"))
}

@Suite("Guided-generation scenarios with GenerableSchema")
struct GenerableScenarioTests {
    @Test("scenario 4: a recipe's schema carries descriptions, the range and declaration order")
    func recipeSchema() throws {
        let schema = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Recipe.generationSchema)) as? [String: Any]
        #expect(schema?["title"] as? String == "Recipe")
        #expect(schema?["description"] as? String == "A recipe")
        #expect(schema?["x-order"] as? [String] == ["title", "ingredients", "minutes"])
        #expect(schema?["required"] as? [String] == ["title", "ingredients", "minutes"])
        #expect(schema?["additionalProperties"] as? Bool == false)
        let properties = schema?["properties"] as? [String: [String: Any]]
        #expect(properties?["title"]?["description"] as? String == "The dish name")
        #expect(properties?["minutes"]?["type"] as? String == "integer")
        #expect(properties?["minutes"]?["minimum"] as? Int == 5)
        #expect(properties?["minutes"]?["maximum"] as? Int == 240)
        #expect((properties?["ingredients"]?["items"] as? [String: Any])?["type"] as? String == "string")
    }

    @Test("scenario 4: the grammar enforces the minutes range", arguments: [
        (#"{"title":"Pasta","ingredients":["200 g spaghetti"],"minutes":25}"#, true),
        (#"{"title": "Pasta", "ingredients": [], "minutes": 240}"#, true),
        (#"{"title":"Pasta","ingredients":["x"],"minutes":2400}"#, false),
        (#"{"title":"Pasta","ingredients":["x"],"minutes":4}"#, false),
        (#"{"ingredients":["x"],"title":"Pasta","minutes":25}"#, false),
    ])
    func recipeGrammar(json: String, valid: Bool) throws {
        #expect(try Recipe.generationSchema.grammarAccepts(json) == valid)
    }

    @Test("scenario 4: generated content becomes a populated value and back, in declaration order")
    func recipeRoundTrip() throws {
        let content = try GeneratedContent(json: #"{"title":"Pasta","ingredients":["200 g spaghetti","1 lemon"],"minutes":20}"#)
        let recipe = try Recipe(content)
        #expect(recipe == Recipe(title: "Pasta", ingredients: ["200 g spaghetti", "1 lemon"], minutes: 20))
        #expect(recipe.generatedContent.jsonString == #"{"title":"Pasta","ingredients":["200 g spaghetti","1 lemon"],"minutes":20}"#)
        #expect(throws: GeneratedContent.ParsingError.self) { try Recipe(GeneratedContent(json: #"{"title":"Pasta","minutes":20}"#)) }
        #expect(throws: GeneratedContent.ParsingError.self) { try Recipe(GeneratedContent(json: #"{"title":"P","ingredients":[],"minutes":20.5}"#)) }
    }

    @Test("scenario 5: urgency can only be low, medium or high", arguments: [
        ("low", true), ("medium", true), ("high", true), ("urgent", false), ("Low", false), ("lo", false),
    ])
    func urgencyChoices(urgency: String, valid: Bool) throws {
        let json = #"{"summary":"We met.","tasks":["Send the notes"],"urgency":"\#(urgency)"}"#
        #expect(try ActionItems.generationSchema.grammarAccepts(json) == valid)
        let schema = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ActionItems.generationSchema)) as? [String: Any]
        let urgencySchema = (schema?["properties"] as? [String: [String: Any]])?["urgency"]
        #expect(urgencySchema?["enum"] as? [String] == ["low", "medium", "high"])
    }

    @Test("scenario 6: an enum classifier is a choice of case names in $defs", arguments: [
        (#"{"sentiment":"positive","stars":5,"reasoning":"Loved it."}"#, true),
        (#"{"sentiment":"negative","stars":1,"reasoning":"No."}"#, true),
        (#"{"sentiment":"mixed","stars":3,"reasoning":"Hm."}"#, false),
        (#"{"sentiment":"neutral","stars":6,"reasoning":"Hm."}"#, false),
        (#"{"sentiment":"neutral","stars":0,"reasoning":"Hm."}"#, false),
    ])
    func classifier(json: String, valid: Bool) throws {
        #expect(try Review.generationSchema.grammarAccepts(json) == valid)
        if valid {
            let review = try Review(GeneratedContent(json: json))
            #expect(review.sentiment.rawValue == (try GeneratedContent(json: json).value(String.self, forProperty: "sentiment")))
        }
    }

    @Test("scenario 6: the enum's schema is hoisted into $defs and referenced")
    func classifierSchema() throws {
        let text = String(decoding: try JSONEncoder().encode(Review.generationSchema), as: UTF8.self)
        let schema = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let defs = schema?["$defs"] as? [String: [String: Any]]
        #expect(defs?["Sentiment"]?["enum"] as? [String] == ["positive", "neutral", "negative"])
        let sentiment = (schema?["properties"] as? [String: [String: Any]])?["sentiment"]
        #expect(sentiment?["$ref"] as? String == "#/$defs/Sentiment")
    }

    @Test("scenario 7: keyPoints (exactly 3) are generated before the summary", arguments: [
        (#"{"keyPoints":["a","b","c"],"summary":"s"}"#, true),
        (#"{"keyPoints":["a","b"],"summary":"s"}"#, false),
        (#"{"keyPoints":["a","b","c","d"],"summary":"s"}"#, false),
        (#"{"summary":"s","keyPoints":["a","b","c"]}"#, false),
    ])
    func propertyOrder(json: String, valid: Bool) throws {
        #expect(try Digest.generationSchema.grammarAccepts(json) == valid)
        let schema = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Digest.generationSchema)) as? [String: Any]
        #expect(schema?["x-order"] as? [String] == ["keyPoints", "summary"])
    }

    @Test("scenario 8: partial snapshots fill in property by property", arguments: [
        (#"{"ti"#, nil, nil, nil),
        (#"{"title": "Lemon Pa"#, "Lemon Pa", nil, nil),
        (#"{"title": "Lemon Pasta", "ingredients": ["200 g spag"#, "Lemon Pasta", ["200 g spag"], nil),
        (#"{"title": "Lemon Pasta", "ingredients": ["200 g spaghetti", "1 lemon"], "minutes": 2"#, "Lemon Pasta", ["200 g spaghetti", "1 lemon"], 2),
        (#"{"title": "Lemon Pasta", "ingredients": [], "minutes": 20}"#, "Lemon Pasta", [], 20),
    ] as [(String, String?, [String]?, Int?)])
    func streamedPartials(prefix: String, title: String?, ingredients: [String]?, minutes: Int?) throws {
        let partial = try Recipe.PartiallyGenerated(GeneratedContent(json: prefix))
        #expect(partial.title == title)
        #expect(partial.ingredients == ingredients)
        #expect(partial.minutes == minutes)
        #expect(partial.isComplete == prefix.hasSuffix("}"))
    }

    @Test("scenario 8: the final snapshot completes into the full value; a partial one does not")
    func partialCompletes() throws {
        let done = try Recipe.PartiallyGenerated(GeneratedContent(json: #"{"title":"T","ingredients":["x"],"minutes":5}"#))
        #expect(try done.completed() == Recipe(title: "T", ingredients: ["x"], minutes: 5))
        let cut = try Recipe.PartiallyGenerated(GeneratedContent(json: #"{"title":"T","ingredients":["x"]"#))
        #expect(throws: GeneratedContent.ParsingError.self) { try cut.completed() }
        let recipe = Recipe(title: "T", ingredients: [], minutes: 9)
        #expect(recipe.asPartiallyGenerated().minutes == 9)
    }
}
