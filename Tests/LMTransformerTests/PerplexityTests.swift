import Foundation
import Testing
import LMTransformer
import TestSupport

/// llama-perplexity's procedure on `ppl_text_1.txt`, scored on exactly the token streams llama.cpp
/// scored, must land within 1% of its result.
@Suite("Perplexity matches llama-perplexity")
struct PerplexityTests {
    struct Case: CustomStringConvertible, Sendable {
        let modelFile: String
        let tokensFile: String
        var description: String { modelFile }
    }

    static let cases = [
        Case(modelFile: "SmolLM2-135M-Instruct.Q4_1.gguf", tokensFile: "ppl_tokens_smollm2_text1.json"),
        Case(modelFile: "gemma-3-270m-q4_k_m.gguf", tokensFile: "ppl_tokens_gemma3_text1.json"),
    ]

    static func reference(_ modelFile: String) throws -> (ppl: Double, perChunk: [Double]) {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.ref("perplexity.json"))) as? [String: Any]
        let results = json?["results"] as? [[String: Any]] ?? []
        let r = try #require(results.first { $0["model"] as? String == modelFile })
        return (try #require(r["ppl"] as? Double), try #require(r["per_chunk"] as? [Double]))
    }

    @Test("PPL on ppl_text_1.txt is within 1% of llama.cpp's", arguments: cases)
    func perplexityWithinOnePercent(_ c: Case) throws {
        let model = try ReferenceModels.model(forReferenceName: c.modelFile)
        let tokensJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.ref(c.tokensFile))) as? [String: Any]
        let tokens = try #require(tokensJSON?["ids"] as? [Int])
        let (refPPL, refChunks) = try Self.reference(c.modelFile)
        let result = try Perplexity(chunkSize: 512).evaluate(tokens: tokens, model: model)
        let deviation = abs(result.ppl - refPPL) / refPPL
        print("PPL \(c.modelFile): ours \(result.ppl) ± \(result.stderr), llama.cpp \(refPPL), deviation \(deviation * 100)%")
        #expect(result.perChunk.count == refChunks.count)
        #expect(deviation < 0.01, "PPL \(result.ppl) vs llama.cpp \(refPPL)")
    }
}
