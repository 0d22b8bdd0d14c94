/// `lmsession chat`: a multi-turn REPL on ``LanguageModelSession``; the session keeps the
/// conversation in its KV cache, so each turn only prefills what is new. See ``ChatTools``.
enum ChatCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: ["model", "system", "max-tokens", "tools", "tool-calling"],
                                         switches: ["greedy"])
        guard a.positional.isEmpty else { throw .usage("chat reads its turns from standard input") }
        try ChatTools.run(a, toolSet: a.string("tools"))
    }
}
