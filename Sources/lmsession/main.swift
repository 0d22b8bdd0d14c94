import Foundation
import LMKernels

let usage = """
    lmsession: run GGUF language models with the LMSession runtime.

    Commands:
      generate [--model PATH] [--system TEXT] [--raw] [--greedy | --temperature T --top-k K (0: off) --top-p P --min-p P --seed S]
               [--repeat-penalty R] [--max-tokens N] [--threads N] [--context N] PROMPT
      generate --schema FILE.json [--model PATH] [--system TEXT] [--greedy | --temperature T --top-k K | --top-p P --seed S] [--max-tokens N]
               [--threads N] [--context N] [--no-schema-in-prompt] PROMPT
               (--no-schema-in-prompt: the grammar enforces the schema without describing it in the prompt)
      generate --mmproj MMPROJ.gguf --image FILE [--model PATH] [--system TEXT] [--greedy | --temperature T --top-k K --seed S]
               [--max-tokens N] [--threads N] [--context N] PROMPT
               (a vision model: the image, PNG or JPEG, goes before PROMPT as llama-mtmd-cli puts it)
      chat     [--model PATH] [--system TEXT] [--greedy] [--max-tokens N] [--tools demo [--tool-calling allowed|required|disallowed]]
      tokenize [--model PATH] [--parse-special] [--add-bos | --no-add-bos] TEXT
      info     [--model PATH] | info --kernels
      perplexity [--model PATH] --file F [--context 512] [--threads N]
      bench    [--model PATH] [--threads N] [--prompt-tokens 512] [--gen-tokens 128] [--depth 1] [--repetitions 3] [--json]
               [--sessions N]  (N concurrent sequences, at most 256, batched on one model; --prompt-tokens 128 --gen-tokens 128 by default)
      bench    --shared-instructions [--model PATH] [--threads N] [--instructions-tokens 320] [--repetitions 3]
               (time to first token of a second session with the same instructions, at least N tokens of them, against the first's)
      bench    --memory-bandwidth [--threads N] [--repetitions 5] [--json]  (read bandwidth over a 1 GiB buffer, GB/s)
      bench    --mmproj MMPROJ.gguf --image FILE [--threads N] [--repetitions 3] [--json]  (image encoding time, ms)

    With no --model, $LMSESSION_MODEL or Models/SmolLM2-135M-Instruct.Q4_1.gguf is used, looked for under the working
    directory, then the executable's directory and its parents, as SystemLanguageModel.default does (fetch it with Models/fetch).
    """

let commands: [String: (ArraySlice<String>) throws(CLIError) -> Void] = [
    "generate": GenerateCommand.run,
    "chat": ChatCommand.run,
    "tokenize": TokenizeCommand.run,
    "info": InfoCommand.run,
    "perplexity": PerplexityCommand.run,
    "bench": BenchCommand.run,
]

let argv = CommandLine.arguments
guard argv.count >= 2, let command = commands[argv[1]] else {
    if argv.count >= 2, ["-h", "--help", "help"].contains(argv[1]) {
        print(usage)
        exit(0)
    }
    printError(argv.count >= 2 ? "unknown command \"\(argv[1])\"\n\n\(usage)" : usage)
    exit(2)
}
if argv.dropFirst(2).contains(where: { $0 == "--help" || $0 == "-h" }) {
    print(usage)
    exit(0)
}
// The library falls back to the best set quietly; on the command line a mistyped name is worth a word.
if let requested = ProcessInfo.processInfo.environment["LMSESSION_KERNELS"], !requested.isEmpty,
   requested.lowercased() != KernelSet.active.rawValue {
    printError("warning: LMSESSION_KERNELS=\(requested) names no kernel set this CPU runs (\(KernelSet.supported.map(\.rawValue).joined(separator: ", "))); using \(KernelSet.active.rawValue)")
}
do {
    try command(argv.dropFirst(2))
} catch {
    printError("error: \(error)")
    if case .usage = error { printError("\n\(commandUsage(argv[1]))") }
    exit(error.isUsage ? 2 : 1)
}
// `print` is buffered: output it could not write shows only here, and is a failure, not a silent exit 0.
if fflush(nil) != 0 { outputFailed(String(cString: strerror(errno))) }

/// The usage lines of `command` (each form of it with its continuation lines) and where the rest is:
/// after a usage error, the whole help would bury the error.
func commandUsage(_ command: String) -> String {
    var lines: [Substring] = [], inCommand = false
    for line in usage.split(separator: "\n", omittingEmptySubsequences: false) {
        let words = line.split(separator: " ")
        if line.hasPrefix("  "), !line.hasPrefix("   ") {
            inCommand = words.first.map { $0 == command } ?? false
        } else if !line.hasPrefix("   ") {
            inCommand = false
        }
        if inCommand { lines.append(line) }
    }
    return "usage:\n" + lines.joined(separator: "\n") + "\n(lmsession --help lists every command)"
}

extension CLIError {
    var isUsage: Bool { if case .usage = self { true } else { false } }
}
