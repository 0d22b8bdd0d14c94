import Foundation
import LMTokenizer
import TestSupport
import Testing

/// Token ids in the other llama.cpp references: the greedy-decoding prompts and outputs, and the
/// guided-generation JSON texts.
@Suite("Prompts, generations and JSON texts match llama.cpp")
struct MoreReferenceTests {
    struct Greedy: Sendable, CustomTestStringConvertible {
        let model: String, prompt: String, promptIDs: [Int], addBOS: Bool, parseSpecial: Bool
        let generatedIDs: [Int], generatedText: String
        var testDescription: String { "\(model.prefix(7)) \(prompt.suffix(40).debugDescription)" }
    }

    static let greedy: [Greedy] = {
        guard let lines = try? TestPaths.jsonLines("greedy.jsonl") else { return [] }
        return lines.map {
            Greedy(model: $0["model"] as? String ?? "", prompt: $0["prompt"] as? String ?? "",
                   promptIDs: $0["prompt_ids"] as? [Int] ?? [], addBOS: $0["add_bos"] as? Bool ?? false,
                   parseSpecial: $0["parse_special"] as? Bool ?? false,
                   generatedIDs: $0["generated_ids"] as? [Int] ?? [], generatedText: $0["generated_text"] as? String ?? "")
        }
    }()

    struct JSONText: Sendable, CustomTestStringConvertible {
        let id: String, text: String, tokens: [Int], tokenStrings: [String]
        var testDescription: String { id }
    }

    static let jsonTexts: [JSONText] = {
        guard let data = try? Data(contentsOf: TestPaths.ref("guided/tokens.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cases = object["cases"] as? [[String: Any]] else { return [] }
        return cases.map {
            JSONText(id: $0["id"] as? String ?? "", text: $0["text"] as? String ?? "",
                     tokens: $0["tokens"] as? [Int] ?? [], tokenStrings: $0["token_strs"] as? [String] ?? [])
        }
    }()

    @Test func theReferencesAreAllThere() {
        #expect(Self.greedy.count == 3)
        #expect(Self.jsonTexts.count == 6)
    }

    @Test("Chat prompts tokenize to llama.cpp's prompt ids", arguments: greedy)
    func promptsTokenize(_ g: Greedy) throws {
        let t = try RealModels.tokenizer(forFile: g.model)
        #expect(t.encode(g.prompt, addBOS: g.addBOS, parseSpecial: g.parseSpecial) == g.promptIDs)
    }

    @Test("Generated ids decode to llama.cpp's generated text", arguments: greedy)
    func generationsDecode(_ g: Greedy) throws {
        let t = try RealModels.tokenizer(forFile: g.model)
        #expect(t.decode(g.generatedIDs) == g.generatedText)
        var stream = StreamingDetokenizer(tokenizer: t)
        #expect(g.generatedIDs.map { stream.append($0) }.joined() + stream.finish() == g.generatedText)
    }

    @Test("JSON texts tokenize to the ids and vocabulary entries in the guided references", arguments: jsonTexts)
    func jsonTextsTokenize(_ j: JSONText) throws {
        let t = try RealModels.smolLM2.get()
        let ids = t.encode(j.text)
        #expect(ids == j.tokens)
        #expect(ids.map { t.tokenText($0) } == j.tokenStrings)
    }
}
