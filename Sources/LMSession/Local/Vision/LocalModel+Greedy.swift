import LMGeneration
import LMTransformer

extension LocalModel {
    /// The tokens greedy decoding (the highest logit, lowest id on a tie) produces after the prompt of `request`,
    /// at most `count`, ending before an end-of-generation token: the prompt path of a session (rendering, image
    /// tokens, prefill) without its sampler, grammar or detokenizer, to compare with llama.cpp token by token.
    /// - Returns: the tokens, and at each step the gap between the highest and the second-highest logit (how near
    ///   a tie the choice was).
    /// - Throws: what a request's rendering and prefill throw.
    package func greedyTokens(for request: LanguageModelRequest, count: Int) throws -> (tokens: [Int], gaps: [Float]) {
        let loaded = try loadedForGeneration()
        let prompt = try loaded.renderer.promptTokens(for: request, contextSize: loaded.contextSize)
        let sequence = BatchedSequence(context: InferenceContext(engine: loaded.scheduler.engine), scheduler: loaded.scheduler)
        defer { sequence.close() }
        guard var logits = try LocalConversation.prefill(prompt, from: 0, into: sequence, vision: loaded.renderer.vision,
                                                         stop: StopFlag()) else { return ([], []) }
        var out: [Int] = [], gaps: [Float] = []
        while out.count < count {
            var best = 0
            for i in 1..<logits.count where logits[i] > logits[best] { best = i }
            var second = -Float.infinity
            for i in 0..<logits.count where i != best { second = max(second, logits[i]) }
            gaps.append(logits[best] - second)
            if loaded.model.tokenizer.eogIDs.contains(best) { break }
            out.append(best)
            logits = try sequence.evaluate(token: best)
        }
        return (out, gaps)
    }
}
