/// `lmsession tokenize`: prints the token ids of TEXT as a JSON array on one line. Only the
/// tokenizer is loaded, so any GGUF with a supported vocabulary works, even one without weights.
enum TokenizeCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: ["model"], switches: ["parse-special", "add-bos", "no-add-bos"])
        guard a.positional.count == 1 else { throw .usage("tokenize takes exactly one TEXT argument") }
        if a.has("add-bos"), a.has("no-add-bos") { throw .usage("--add-bos and --no-add-bos are alternatives") }
        let tokenizer = try ModelLocator.loadTokenizer(a.string("model")).tokenizer
        let addBOS: Bool? = a.has("add-bos") ? true : a.has("no-add-bos") ? false : nil
        let ids = tokenizer.encode(a.positional[0], addBOS: addBOS, parseSpecial: a.has("parse-special"))
        print("[" + ids.map(String.init).joined(separator: ", ") + "]")
    }
}
