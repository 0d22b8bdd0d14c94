import Foundation
import LMSession
import Testing

struct Author: GenerableSchema, Equatable {
    var name: String
    var email: String?
}

struct Post: GenerableSchema, Equatable {
    var slug: String
    var author: Author
    var rating: Double?
    var price: Decimal
    var ratio: Float
    var published: Bool
    var tags: [String]
    var code: String

    static let generationGuides = GenerationGuides<Post>(
        .init(\.rating, description: "Stars", .range(0...5)),
        .init(\.code, #/[A-Z]{3}-\d{4}/#))
}

struct Misspelt: GenerableSchema {
    var title: String
    static let generationGuides = GenerationGuides<Misspelt>(.init("titel", description: "Oops"))
}

struct Twice: GenerableSchema {
    var title: String
    static let generationGuides = GenerationGuides<Twice>(.init(\.title, description: "A"), .init("title", description: "B"))
}

struct Dated: GenerableSchema {
    var when: Date
}

@Suite("GenerableSchema derivation")
struct GenerableSchemaTests {
    @Test("nested types, optionals, numbers, Booleans and patterns derive from the coding keys")
    func derivedSchema() throws {
        let schema = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Post.generationSchema)) as? [String: Any]
        #expect(schema?["x-order"] as? [String] == ["slug", "author", "rating", "price", "ratio", "published", "tags", "code"])
        #expect(schema?["required"] as? [String] == ["slug", "author", "price", "ratio", "published", "tags", "code"])
        let properties = schema?["properties"] as? [String: [String: Any]]
        #expect(properties?["author"]?["$ref"] as? String == "#/$defs/Author")
        #expect(properties?["rating"]?["type"] as? String == "number")
        #expect(properties?["rating"]?["maximum"] as? Int == 5)
        #expect(properties?["published"]?["type"] as? String == "boolean")
        #expect(properties?["code"]?["pattern"] as? String == #"^(?:[A-Z]{3}\-\d{4})$"#)
        let author = (schema?["$defs"] as? [String: [String: Any]])?["Author"]
        #expect(author?["required"] as? [String] == ["name"])
        #expect(author?["x-order"] as? [String] == ["name", "email"])
    }

    @Test("the derived grammar follows the guides and optional keys", arguments: [
        (#"{"slug":"p","author":{"name":"Ada"},"price":9.5,"ratio":0.5,"published":true,"tags":[],"code":"ABC-1234"}"#, true),
        (#"{"slug":"p","author":{"name":"Ada","email":"a@b.c"},"rating":4.5,"price":1,"ratio":1,"published":false,"tags":["x"],"code":"XYZ-0000"}"#, true),
        (#"{"slug":"p","author":{"name":"Ada"},"rating":5.5,"price":1,"ratio":1,"published":true,"tags":[],"code":"ABC-1234"}"#, false),
        (#"{"slug":"p","author":{"name":"Ada"},"price":1,"ratio":1,"published":true,"tags":[],"code":"abc-1234"}"#, false),
        (#"{"slug":"p","author":{},"price":1,"ratio":1,"published":true,"tags":[],"code":"ABC-1234"}"#, false),
    ])
    func derivedGrammar(json: String, valid: Bool) throws {
        #expect(try Post.generationSchema.grammarAccepts(json) == valid)
    }

    @Test("values round-trip through generated content; nil optionals are left out")
    func roundTrip() throws {
        let post = Post(slug: "p", author: Author(name: "Ada", email: nil), rating: nil, price: Decimal(string: "9.95") ?? 0,
                        ratio: 0.25, published: true, tags: ["math"], code: "ABC-1234")
        let json = post.generatedContent.jsonString
        #expect(json == #"{"slug":"p","author":{"name":"Ada"},"price":9.95,"ratio":0.25,"published":true,"tags":["math"],"code":"ABC-1234"}"#)
        #expect(try Post(GeneratedContent(json: json)) == post)
    }

    @Test("a misspelt or repeated guide is an error naming it; a non-Generable property too")
    func declarationErrors() {
        #expect(throws: GenerableSchemaError.unknownProperty(type: "Misspelt", property: "titel", known: ["title"])) {
            try Misspelt.checkedGenerationSchema()
        }
        #expect(throws: GenerableSchemaError.duplicateGuide(type: "Twice", property: "title")) {
            try Twice.checkedGenerationSchema()
        }
        #expect(throws: GenerableSchemaError.notGenerable(type: "Dated", property: "when", propertyType: "Date")) {
            try Dated.checkedGenerationSchema()
        }
    }

    @Test("partial values of nested types are partial too")
    func nestedPartial() throws {
        let partial = try Post.PartiallyGenerated(GeneratedContent(json: #"{"slug":"p","author":{"name":"Ad"#))
        #expect(partial.slug == "p")
        #expect(partial.author?.name == "Ad")
        #expect(partial.author?.email == nil)
        #expect(partial.rating == nil)
    }
}
