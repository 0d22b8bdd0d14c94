import Foundation
import LMGeneration
import LMKernels
import LMTransformer

/// `lmsession bench --sessions N`: N sequences on one model at once, as sessions run them (one
/// ``BatchScheduler``, a thread per sequence), in the manner of llama.cpp's `llama-batched-bench`:
/// every sequence prefills its own pseudo-random prompt of `--prompt-tokens` (default 128), all
/// starting together, then, once all have their first token, decodes `--gen-tokens` (default 128)
/// in batched steps.
///
/// Prints `sessions`, `aggregate_tg_tok_s` (N · gen-tokens over the decode phase's wall time),
/// `per_session_tg_tok_s` (the mean over sequences of gen-tokens over its own decode time) and
/// `ttft_ms_p50` (median time from the common start to a sequence's first token, its prompt
/// prefilled in chunks between the others').
enum SessionsBench {
    /// Most sequences one benchmark batches.
    static let maxSessions = 256

    static func run(_ a: CommandLineArguments, sessions: Int) throws(CLIError) {
        let pp = try a.int("prompt-tokens") ?? 128, tg = try a.int("gen-tokens") ?? 128
        guard sessions > 0, pp > 0, tg > 0 else { throw .usage("--sessions and token counts must be positive") }
        // The first token comes from the prefill: one token per sequence leaves no decode step to time.
        guard tg >= 2 else { throw .usage("--gen-tokens must be at least 2 with --sessions (the first token comes from the prefill)") }
        // Each sequence holds a KV cache of its whole context: 100,000 of them asked for terabytes.
        guard sessions <= maxSessions else { throw .usage("--sessions must be between 1 and \(maxSessions)") }
        let threads = try a.threads()  // checked before the model loads
        let model = try ModelLocator.load(a.string("model"))
        let scheduler: BatchScheduler
        do {
            scheduler = BatchScheduler(engine: try ForwardEngine(model: model, contextSize: pp + tg + 1, threads: threads))
        } catch { throw .failed("\(error)") }
        var random = RandomSource(seed: 42)
        let vocab = model.config.vocabSize
        let prompts = (0..<sessions).map { _ in (0..<pp).map { _ in Int(random.next() % UInt64(vocab)) } }
        let results = Results(count: sessions)
        let prefilled = DispatchGroup(), decoded = DispatchGroup()
        let decodeStart = DispatchSemaphore(value: 0)
        let start = Date()
        for i in 0..<sessions {
            prefilled.enter()
            decoded.enter()
            let thread = Thread {
                let sequence = BatchedSequence(context: InferenceContext(engine: scheduler.engine), scheduler: scheduler)
                var waiting = true
                defer {
                    sequence.close()
                    if waiting { prefilled.leave() }
                    decoded.leave()
                }
                do {
                    var logits = UnsafeBufferPointer<Float>(start: nil, count: 0)
                    var at = 0
                    while at < pp {
                        let end = min(at + 128, pp)
                        logits = try sequence.prefill(Array(prompts[i][at..<end]))
                        at = end
                    }
                    var token = Sampler.argmax(logits)
                    results.set(i, ttft: Date().timeIntervalSince(start))
                    waiting = false
                    prefilled.leave()
                    decodeStart.wait()
                    let t0 = Date()
                    for _ in 1..<tg {
                        token = Sampler.argmax(try sequence.evaluate(token: token))
                    }
                    results.set(i, decode: Date().timeIntervalSince(t0))
                } catch {
                    results.fail("\(error)")
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        prefilled.wait()
        let t0 = Date()
        for _ in 0..<sessions { decodeStart.signal() }
        decoded.wait()
        let decodeWall = Date().timeIntervalSince(t0)
        let r = results.snapshot()
        if let failure = r.failure { throw .failed(failure) }
        // The first token of each sequence comes from its prefill: the decode phase makes tg - 1 steps.
        let steps = Double(max(tg - 1, 1))
        let aggregate = Double(sessions) * steps / decodeWall
        let perSession = r.decode.map { steps / $0 }.reduce(0, +) / Double(sessions)
        let ttft = r.ttft.sorted()
        let p50 = ttft.count % 2 == 1 ? ttft[ttft.count / 2] : (ttft[ttft.count / 2 - 1] + ttft[ttft.count / 2]) / 2
        let stats = scheduler.statistics
        let threadCount = scheduler.engine.threads
        if a.has("json") {
            print("{\"model\":\"\(model.name)\",\"threads\":\(threadCount),\"kernels\":\"\(KernelSet.active)\",\"sessions\":\(sessions),"
                + "\"prompt_tokens\":\(pp),\"gen_tokens\":\(tg),\"aggregate_tg_tok_s\":\(BenchCommand.fmt(aggregate)),"
                + "\"per_session_tg_tok_s\":\(BenchCommand.fmt(perSession)),\"ttft_ms_p50\":\(BenchCommand.fmt(p50 * 1000)),"
                + "\"decode_steps\":\(stats.steps),\"largest_batch\":\(stats.largestBatch)}")
        } else {
            print("model: \(model.name), threads: \(threadCount), kernels: \(KernelSet.active), sessions: \(sessions)")
            print("pp\(pp) + tg\(tg) per session; \(stats.steps) decode steps, largest batch \(stats.largestBatch)")
            print("aggregate tg: \(BenchCommand.fmt(aggregate)) tokens/s, per session: \(BenchCommand.fmt(perSession)) tokens/s")
            print("time to first token p50: \(BenchCommand.fmt(p50 * 1000)) ms")
        }
    }

    /// Per-sequence timings, written by the sequences' threads.
    final class Results: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var ttft: [Double], decode: [Double], failure: String?

        init(count: Int) {
            ttft = Array(repeating: 0, count: count)
            decode = Array(repeating: 0, count: count)
        }

        func set(_ i: Int, ttft t: Double) { lock.withLock { ttft[i] = t } }
        func set(_ i: Int, decode t: Double) { lock.withLock { decode[i] = t } }
        func fail(_ message: String) { lock.withLock { failure = failure ?? message } }
        func snapshot() -> (ttft: [Double], decode: [Double], failure: String?) { lock.withLock { (ttft, decode, failure) } }
    }
}
