import LMTransformer

/// `lmsession generate`: one answer to PROMPT, streamed to stdout; timings on stderr.
/// With `--schema FILE` the answer is a JSON value following that schema (`SchemaGeneration`).
enum GenerateCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        // Which generation this is, from the options given before `--` (the rest may be the prompt).
        func given(_ option: String) -> Bool {
            args.prefix(while: { $0 != "--" }).contains { $0 == "--" + option || $0.hasPrefix("--\(option)=") }
        }
        if given("schema"), given("image") || given("mmproj") {
            throw .usage("--schema cannot be combined with --image or --mmproj (a vision answer is text here)")
        }
        if given("raw"), given("image") || given("mmproj") {
            throw .usage("--raw cannot be combined with --image (the image is placed by the chat template)")
        }
        if given("schema") {
            // Options of plain generation that guided generation has no use for: named, not "unknown".
            let plainOnly = SamplingOptions.valueOptions.union(["raw"]).subtracting(SchemaGeneration.valueOptions)
            for option in plainOnly.sorted() where given(option) {
                throw .usage("--\(option) cannot be combined with --schema")
            }
            return try SchemaGeneration.run(args)
        }
        if given("no-schema-in-prompt") { throw .usage("--no-schema-in-prompt needs --schema FILE.json") }
        if given("image") { return try ImageGeneration.run(args) }
        if given("mmproj") {
            throw .usage("generate --mmproj needs --image FILE (the image the vision model reads)")
        }
        let a = try CommandLineArguments(args, valueOptions: SamplingOptions.valueOptions.union(["model", "system", "max-tokens", "threads", "context"]),
                                         switches: ["raw", "greedy"])
        guard a.positional.count == 1 else { throw .usage("generate takes exactly one PROMPT argument") }
        if a.has("raw"), a.string("system") != nil {
            throw .usage("--raw cannot be combined with --system (the raw prompt goes in without a chat template)")
        }
        let (params, seed) = try SamplingOptions.parse(a)
        // Every option is checked before the model loads, so a usage error is reported as one (exit 2) at once.
        let threads = try a.threads()
        let contextSize = try a.contextSize()
        let maxTokens = try a.maxTokens(default: 256)
        let model = try ModelLocator.load(a.string("model"))
        let prompt: [Int]
        if a.has("raw") {
            prompt = model.tokenizer.encode(a.positional[0], parseSpecial: false)
        } else {
            var messages: [ChatMessage] = []
            if let system = a.string("system") { messages.append(ChatMessage(role: .system, content: system)) }
            messages.append(ChatMessage(role: .user, content: a.positional[0]))
            let rendered: String
            do {
                switch try ChatFormat(tokenizer: model.tokenizer, architecture: model.config.architecture) {
                case .jinja(let template):
                    let rendering = try template.render(messages, addGenerationPrompt: true)
                    rendered = rendering.text
                    prompt = template.tokens(rendering, tokenizer: model.tokenizer)
                case .native(let template):
                    let segments = template.segments(messages, addGenerationPrompt: true)
                    rendered = segments.map(\.text).joined()
                    prompt = ChatTemplate.tokens(segments, tokenizer: model.tokenizer)
                }
            } catch {
                throw .failed("\(error) (use --raw to feed the prompt as is)")
            }
            // Not a usage error: the prompt given was not empty, the model's template made nothing of it
            // (a BOS alone, when the model adds one, is no prompt either).
            guard !rendered.isEmpty else { throw .failed("the model's chat template rendered nothing for this prompt (use --raw to feed the prompt as is)") }
        }
        let context: InferenceContext
        do { context = try InferenceContext(model: model, contextSize: contextSize, threads: threads) } catch {
            throw .failed("\(error)")
        }
        noteContextCap(requested: contextSize, used: context.contextSize)
        var loop = GenerationLoop(context: context, sampler: Sampler(params, seed: seed), maxTokens: maxTokens)
        let timing = try loop.run(prompt: prompt) { writeOut($0) }
        writeOut("\n")
        printError(timing.report())
        // The text printed is cut: a failure (exit 1), as the library throws contextSizeExceeded there.
        if timing.contextFull {
            throw .failed("the context is full after \(timing.generatedTokens) generated tokens: the answer is cut (--context \(context.contextSize))")
        }
    }
}
