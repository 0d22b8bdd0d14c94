import Foundation
import LMSession

/// `lmsession generate --schema FILE.json PROMPT`: one value following the JSON Schema in FILE
/// (Apple's shape or plain JSON Schema), generated through `LanguageModelSession` with token masks,
/// printed as JSON on stdout; token counts and time on stderr. `--no-schema-in-prompt` leaves the schema's
/// description out of the prompt (Apple's `includeSchemaInPrompt: false`); the grammar enforces it either way.
enum SchemaGeneration {
    static let valueOptions: Set<String> = ["schema", "model", "system", "max-tokens", "threads", "context",
                                            "temperature", "top-k", "top-p", "seed"]

    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: valueOptions, switches: ["greedy", "no-schema-in-prompt"])
        guard a.positional.count == 1 else { throw .usage("generate --schema takes exactly one PROMPT argument") }
        // Options first (usage errors, exit 2), then the files.
        let contextSize = try a.contextSize()
        let threads = try a.threads()
        let schemaPath = a.string("schema") ?? ""
        let schema = try readSchema(at: schemaPath)
        let options = try generationOptions(a)
        let modelPath = ModelLocator.path(a.string("model"))
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw .failed("model not found at \(modelPath) (pass --model PATH, set LMSESSION_MODEL, or run Models/fetch)")
        }
        let (prompt, instructions) = (a.positional[0], a.string("system"))
        let includeSchema = !a.has("no-schema-in-prompt")

        let start = ContinuousClock.now
        let outcome = blocking { () async throws -> (json: String, usage: LanguageModelSession.Usage) in
            let model = try SystemLanguageModel(fileURL: URL(fileURLWithPath: modelPath), contextSize: contextSize, threads: threads)
            noteContextCap(requested: contextSize, used: model.contextSize)
            let session = LanguageModelSession(model: model, instructions: instructions)
            let response = try await session.respond(to: prompt, schema: schema, includeSchemaInPrompt: includeSchema, options: options)
            return (response.content.jsonString, response.usage)
        }
        switch outcome {
        case .success(let (json, usage)):
            writeOut(json + "\n")
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            printError(String(format: "%d prompt tokens, %d generated tokens, %.2f s (model load included)",
                              usage.input.totalTokenCount, usage.output.totalTokenCount, seconds))
        case .failure(let error as any LocalizedError):
            // The schema described in the prompt is the cause: say the remedy in this command's words (the
            // session's suggestion, trimming the transcript, does not apply to one prompt).
            var suggestion = error.recoverySuggestion.map { " \($0)" } ?? ""
            if includeSchema, case LanguageModelError.contextSizeExceeded(let overflow) = error, overflow.debugDescription.contains("includeSchemaInPrompt") {
                suggestion = " Here: --no-schema-in-prompt, or a larger --context."
            }
            throw .failed("\(error.errorDescription ?? "\(error)")\(suggestion)")
        case .failure(let error):
            throw .failed("\(error)")
        }
    }

    /// The schema in the file at `path`, read as text so properties keep their written order.
    static func readSchema(at path: String) throws(CLIError) -> GenerationSchema {
        guard !path.isEmpty else { throw .usage("--schema needs a file path") }
        let text = try readTextFile(path, what: "a JSON Schema file")
        do { return try GenerationSchema(jsonSchema: text) } catch {
            throw .failed("invalid schema in \(path): \(error)")
        }
    }

    /// `--greedy`; `--top-p P` (nucleus); `--top-k K` or `--seed S` (top-k, K default 40; 0: off);
    /// `--temperature T`; `--max-tokens N`. Nothing given: the session's default sampling.
    /// Ranges are checked by `GenerationOptions.validate()`, the check every request makes.
    static func generationOptions(_ a: CommandLineArguments) throws(CLIError) -> GenerationOptions {
        let seed = try a.int("seed").map { UInt64(bitPattern: Int64($0)) }
        let topK = try a.int("top-k"), topP = try a.float("top-p")
        let sampling: GenerationOptions.SamplingMode?
        if a.has("greedy") {
            guard topK == nil, topP == nil, seed == nil else { throw .usage("--greedy excludes --top-k, --top-p and --seed") }
            sampling = .greedy
        } else if let topP {
            guard topK == nil else { throw .usage("--top-p and --top-k cannot be combined with --schema") }
            sampling = .random(probabilityThreshold: Double(topP), seed: seed)
        } else if topK == 0 {
            // As in plain generation, top-k 0 is off: the whole distribution (a nucleus of probability 1).
            sampling = .random(probabilityThreshold: 1, seed: seed)
        } else if topK != nil || seed != nil {
            sampling = .random(top: topK ?? 40, seed: seed)
        } else {
            sampling = nil
        }
        let maxTokens = try a.maxTokens(default: 512, minimum: 1, reason: "with --schema (an empty response is not a value of the schema)")
        let options = GenerationOptions(samplingMode: sampling, temperature: try a.float("temperature").map(Double.init), maximumResponseTokens: maxTokens)
        do { try options.validate() } catch {
            let flag = ["temperature": "--temperature", "samplingMode.top": "--top-k", "samplingMode.probabilityThreshold": "--top-p"][error.option] ?? error.option
            throw .usage("\(flag): \(error.reason)")
        }
        return options
    }
}
