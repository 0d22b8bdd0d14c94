import Foundation
import LMTransformer

/// `lmsession perplexity`: llama-perplexity's procedure on a text file.
enum PerplexityCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: ["model", "file", "context", "threads"], switches: [])
        guard let file = a.string("file") else { throw .usage("perplexity needs --file F") }
        let chunk = try a.int("context") ?? 512
        guard chunk >= 4 else { throw .usage("--context must be at least 4") }
        let threads = try a.threads()
        // The text is read before the model loads: a wrong path is reported as such, at once.
        var text = try readTextFile(file, what: "a text file")
        let model = try ModelLocator.load(a.string("model"))
        if text.hasSuffix("\n") { text.removeLast() }
        let tokens = model.tokenizer.encode(text, parseSpecial: false)
        printError("\(tokens.count) tokens, \(tokens.count / chunk) chunks of \(chunk)")
        guard tokens.count >= 2 * chunk else { throw .failed("need at least \(2 * chunk) tokens, the text has \(tokens.count)") }
        let start = Date()
        do {
            let r = try Perplexity(chunkSize: chunk).evaluate(tokens: tokens, model: model, threads: threads) { i, running in
                writeOut("[\(i + 1)]\(String(format: "%.4f", running)),")
            }
            print("\nFinal estimate: PPL = \(String(format: "%.4f", r.ppl)) +/- \(String(format: "%.5f", r.stderr))")
            printError(String(format: "%d tokens scored in %.1f s", r.scoredTokens, Date().timeIntervalSince(start)))
        } catch {
            throw .failed("\(error)")
        }
    }
}
