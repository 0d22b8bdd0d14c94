import Foundation
import LMSession
import Testing

/// Structured snapshots: the incremental JSON reading matches a full parse of every prefix, and one response
/// keeps one `GenerationID` across its snapshots.
@Suite struct StructuredSnapshotTests {
    static let documents = [
        #"{"title": "Bread", "ingredients": ["flour", "water", "salt"], "minutes": 45, "ok": true, "none": null}"#,
        #"{"a": {"b": [1, 2.5, -3e2, {"c": "d\n\"q\" \u00e9 \ud83d\ude00 \/"}], "e": []}, "f": {}}"#,
        #""just a string""#,
        "12.5e-3",
        "true",
        "[ ]",
        "  {\"k\" :\t0 }  \n",
        #"{"a":1,"a":2,"b":3}"#,
        "[0, -0.5, 10, 1E+5, -0]",
        #"{"emoji":"🐢 café","list":[[],[[]],{}]}"#,
        // Not JSON: the reading fails where the parse does.
        #"{"a" 1}"#, "[01]", #"{"a":1}x"#, #"{"a":tru}"#, "[1.]", #"["\x"]"#, #"["\ud83d\u0041"]"#, "{,}", "]",
    ]

    /// Kind and completeness (`==` on contents compares kinds and ids only).
    static func same(_ a: GeneratedContent?, _ b: GeneratedContent?) -> Bool {
        a == b && a?.isComplete == b?.isComplete
    }

    @Test("the value after every character equals GeneratedContent(json:) of the text so far", arguments: documents)
    func everyPrefixMatchesAFullParse(_ document: String) throws {
        var reader = IncrementalJSONReader()
        var prefix = ""
        for character in document {
            reader.append(String(character))
            prefix.append(character)
            let expected = try? GeneratedContent(json: prefix)
            #expect(Self.same(reader.content, expected), "after \(prefix.debugDescription): \(String(describing: reader.content)) vs \(String(describing: expected))")
        }
    }

    @Test("pieces of any length read the same", arguments: [2, 3, 7])
    func piecesOfAnyLength(_ size: Int) throws {
        for document in Self.documents {
            var reader = IncrementalJSONReader()
            let characters = Array(document)
            for start in stride(from: 0, to: characters.count, by: size) {
                reader.append(String(characters[start..<min(start + size, characters.count)]))
            }
            #expect(Self.same(reader.content, try? GeneratedContent(json: document)), "\(document)")
        }
    }

    @Test func oneResponseKeepsOneGenerationIDAcrossItsSnapshots() async throws {
        let json = #"{"title": "Bread", "ingredients": ["flour", "water"], "minutes": 45}"#
        let pieces = stride(from: 0, to: json.count, by: 4).map { String(Array(json)[$0..<min($0 + 4, json.count)]) }
        let model = ScriptedProvider([.text(pieces), .text(pieces)])
        let session = LanguageModelSession(model: model)
        let stream = session.streamResponse(to: "A recipe", generating: Recipe.self)
        var ids: Set<GenerationID> = []
        var snapshots = 0
        for try await snapshot in stream {
            snapshots += 1
            ids.insert(snapshot.content.id)
            if let id = snapshot.rawContent.id { ids.insert(id) }
        }
        #expect(snapshots > 10)
        let response = try await stream.collect()
        #expect(response.content == Recipe(title: "Bread", ingredients: ["flour", "water"], minutes: 45))
        if let id = response.rawContent.id { ids.insert(id) }
        #expect(ids.count == 1)

        // The next response has its own identity.
        var second: Set<GenerationID> = []
        for try await snapshot in session.streamResponse(to: "Another", generating: Recipe.self) { second.insert(snapshot.content.id) }
        #expect(second.count == 1)
        #expect(second.isDisjoint(with: ids))
    }
}
