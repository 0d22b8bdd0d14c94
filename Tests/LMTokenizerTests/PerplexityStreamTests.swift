import LMTokenizer
import Testing

/// The 35 KB GPL-3 text that llama-perplexity scored, tokenized as it tokenizes it.
@Suite("Long texts tokenize like llama-perplexity")
struct PerplexityStreamTests {
    struct Stream: Sendable, CustomTestStringConvertible {
        let model: String, reference: String, count: Int, startsWithBOS: Bool
        var testDescription: String { model }
        var tokenizer: Tokenizer { get throws { try model == "SmolLM2" ? RealModels.smolLM2.get() : RealModels.gemma3.get() } }
    }

    static let streams = [
        Stream(model: "SmolLM2", reference: "ppl_tokens_smollm2_text1.json", count: 7638, startsWithBOS: false),
        Stream(model: "Gemma 3", reference: "ppl_tokens_gemma3_text1.json", count: 7562, startsWithBOS: true),
    ]

    @Test("The whole text tokenizes to the reference stream, BOS only where the model adds it", arguments: streams)
    func matchesReferenceStream(_ s: Stream) throws {
        let tokenizer = try s.tokenizer
        let reference = try RealModels.referenceIDs(s.reference)
        #expect(reference.count == s.count)
        #expect(tokenizer.addsBOS == s.startsWithBOS)
        let ids = tokenizer.encode(try RealModels.perplexityText())
        #expect(ids.count == reference.count)
        if let i = zip(ids, reference).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("first difference at token \(i): \(ids[i]) vs reference \(reference[i])")
        }
        #expect(ids == reference)
    }

    @Test("Decoding the reference stream gives the text back", arguments: streams)
    func decodesToText(_ s: Stream) throws {
        let tokenizer = try s.tokenizer
        let text = try RealModels.perplexityText()
        #expect(tokenizer.decode(try RealModels.referenceIDs(s.reference)) == text)
        #expect(tokenizer.decode(tokenizer.encode(text, addBOS: false)) == text)
    }
}
