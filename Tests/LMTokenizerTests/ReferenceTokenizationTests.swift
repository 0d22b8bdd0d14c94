import LMTokenizer
import TestSupport
import Testing

/// One line of `tokenize.jsonl`: llama.cpp's `llama_tokenize` output for a text.
struct ReferenceCase: Sendable, CustomTestStringConvertible {
    let model: String
    let text: String
    let ids: [Int]
    let addBOS: Bool
    let parseSpecial: Bool

    var testDescription: String {
        "\(model.hasPrefix("gemma") ? "Gemma 3" : "SmolLM2") \(parseSpecial ? "special" : "plain") \(text.debugDescription)"
    }

    static let all: [ReferenceCase] = {
        // A missing file gives no cases, which theReferenceFileHoldsEveryCaseForBothModels fails on.
        guard let lines = try? TestPaths.jsonLines("tokenize.jsonl") else { return [] }
        return lines.map {
            ReferenceCase(model: $0["model"] as? String ?? "", text: $0["text"] as? String ?? "",
                          ids: $0["ids"] as? [Int] ?? [], addBOS: $0["add_bos"] as? Bool ?? false,
                          parseSpecial: $0["parse_special"] as? Bool ?? false)
        }
    }()
}

@Suite("Tokenization matches llama.cpp")
struct ReferenceTokenizationTests {
    @Test func theReferenceFileHoldsEveryCaseForBothModels() {
        #expect(ReferenceCase.all.count == 22)
        #expect(ReferenceCase.all.filter { $0.model.hasPrefix("gemma") }.count == 11)
    }

    @Test("Each reference text tokenizes to llama.cpp's ids", arguments: ReferenceCase.all)
    func tokenizesLikeLlamaCpp(_ c: ReferenceCase) throws {
        let tokenizer = try RealModels.tokenizer(forFile: c.model)
        #expect(tokenizer.encode(c.text, addBOS: c.addBOS, parseSpecial: c.parseSpecial) == c.ids)
    }

    @Test("Each reference text survives decode(encode(text)) without BOS", arguments: ReferenceCase.all)
    func roundTrips(_ c: ReferenceCase) throws {
        let tokenizer = try RealModels.tokenizer(forFile: c.model)
        let ids = tokenizer.encode(c.text, addBOS: false, parseSpecial: c.parseSpecial)
        #expect(tokenizer.decode(ids, includeSpecial: c.parseSpecial) == c.text)
    }
}
