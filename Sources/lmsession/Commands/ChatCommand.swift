import LMTransformer

/// `lmsession chat`: a multi-turn REPL; the conversation stays in the KV cache and each turn only
/// prefills what is new.
enum ChatCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: SamplingOptions.valueOptions.union(["model", "system", "max-tokens", "threads", "context", "tools", "tool-calling"]),
                                         switches: ["greedy"])
        // `--tools SET`: chat through LanguageModelSession with that tool set (ChatTools.swift).
        if let toolSet = a.string("tools") { return try ChatTools.run(a, toolSet: toolSet) }
        let (params, seed) = try SamplingOptions.parse(a)
        let model = try ModelLocator.load(a.string("model"))
        let template: ChatTemplate
        do { template = try ChatTemplate(detecting: model.tokenizer.chatTemplate, architecture: model.config.architecture) } catch {
            throw .failed("\(error)")
        }
        let context: InferenceContext
        do { context = try InferenceContext(model: model, contextSize: try a.int("context") ?? 4096, threads: try a.threads()) } catch {
            throw .failed("\(error)")
        }
        var messages: [ChatMessage] = a.string("system").map { [ChatMessage(role: .system, content: $0)] } ?? []
        var loop = GenerationLoop(context: context, sampler: Sampler(params, seed: seed), maxTokens: try a.int("max-tokens") ?? 512)
        printError("Chatting with \(model.name). Empty line or Ctrl-D to quit.")
        while true {
            writeOut("> ")
            guard let line = readLine(), !line.isEmpty else { break }
            messages.append(ChatMessage(role: .user, content: line))
            let prompt = model.tokenizer.encode(template.render(messages, addGenerationPrompt: true), parseSpecial: true)
            var answer = ""
            let timing: GenerationLoop.Timing
            do {
                (_, timing) = try loop.run(prompt: prompt) { answer += $0; writeOut($0) }
            } catch {
                printError("error: \(error) (this turn is dropped; the conversation goes on)")
                messages.removeLast()
                continue
            }
            writeOut("\n")
            printError(timing.report())
            messages.append(ChatMessage(role: .assistant, content: answer))
        }
    }
}
