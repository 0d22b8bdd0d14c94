import Foundation
import LMGeneration
import LMTokenizer
import LMTransformer

/// Prefill then decode with a sampler, streaming text as it completes (`generate`).
struct GenerationLoop {
    let context: InferenceContext
    var sampler: Sampler
    let maxTokens: Int

    struct Timing {
        var promptTokens = 0, cachedTokens = 0, generatedTokens = 0
        var prefillSeconds = 0.0, decodeSeconds = 0.0
        /// The answer stopped at the end of the context, not at an end-of-generation token or the cap.
        var contextFull = false

        func report() -> String {
            let pp = prefillSeconds > 0 ? Double(promptTokens - cachedTokens) / prefillSeconds : 0
            let tg = decodeSeconds > 0 ? Double(generatedTokens) / decodeSeconds : 0
            return String(format: "prompt: %d tokens (%d cached) in %.3f s, %.1f tokens/s | generated: %d tokens in %.3f s, %.1f tokens/s",
                          promptTokens, cachedTokens, prefillSeconds, pp, generatedTokens, decodeSeconds, tg)
        }
    }

    /// Evaluates `prompt` (re-using the cached common prefix), then samples until an
    /// end-of-generation token, `maxTokens` or a full context.
    mutating func run(prompt: [Int], onText: (String) -> Void) throws(CLIError) -> Timing {
        guard !prompt.isEmpty else { throw .usage("the prompt is empty (it tokenizes to no tokens)") }
        var timing = Timing()
        timing.promptTokens = prompt.count
        var reuse = context.commonPrefixLength(with: prompt)
        if reuse == prompt.count { reuse -= 1 }  // at least one token must be evaluated for logits
        context.truncate(to: reuse)
        timing.cachedTokens = reuse
        let tokenizer = context.model.tokenizer
        let t0 = Date()
        let logits: UnsafeBufferPointer<Float>
        do { logits = try context.evaluate(Array(prompt[reuse...])) } catch { throw .failed("\(error)") }
        timing.prefillSeconds = Date().timeIntervalSince(t0)
        // The decode step every generation uses (LMGeneration): plain text, end-of-generation tokens stop it.
        var sequence = DecodeSequence(guide: TextGuide(endOfGeneration: tokenizer.eogIDs, vocabularySize: tokenizer.vocabularySize),
                                      sampler: sampler, pieces: tokenizer.pieces, maximumTokens: maxTokens)
        let t1 = Date()
        do {
            _ = try Decoding.run(&sequence, on: context, from: logits, isCancelled: { false }, onText: onText)
        } catch DecodeError.contextFull {
            timing.contextFull = true
        } catch {
            throw .failed("\(error)")
        }
        onText(sequence.finish())
        timing.generatedTokens = sequence.generatedCount
        timing.decodeSeconds = Date().timeIntervalSince(t1)
        return timing
    }
}

/// Sampling options of `generate`.
enum SamplingOptions {
    static let valueOptions: Set<String> = ["temperature", "top-k", "top-p", "min-p", "seed", "repeat-penalty"]

    static func parse(_ a: CommandLineArguments) throws(CLIError) -> (SamplingParameters, UInt64) {
        var p = a.has("greedy") ? SamplingParameters.greedy : SamplingParameters()
        if let t = try a.float("temperature") { p.temperature = t }
        if let k = try a.int("top-k") { p.topK = k > 0 ? k : nil }
        if let v = try a.float("top-p") { p.topP = v }
        if let v = try a.float("min-p") { p.minP = v }
        if let v = try a.float("repeat-penalty") { p.repetitionPenalty = v }
        if a.has("greedy"), a.string("temperature") != nil { throw .usage("--greedy and --temperature are alternatives") }
        guard p.temperature >= 0 else { throw .usage("--temperature must be 0 or more") }
        if let k = try a.int("top-k"), k < 0 { throw .usage("--top-k must be 0 (off) or more") }
        if let v = p.topP, !(v > 0 && v <= 1) { throw .usage("--top-p must be in (0, 1]") }
        if let v = p.minP, !(v >= 0 && v <= 1) { throw .usage("--min-p must be in [0, 1]") }
        guard p.repetitionPenalty > 0 else { throw .usage("--repeat-penalty must be positive (1 = off)") }
        let seed = try a.int("seed").map { UInt64(bitPattern: Int64($0)) } ?? UInt64.random(in: 0...UInt64.max)
        return (p, seed)
    }
}
