import Foundation
import LMSession
import TestSupport
import Testing

/// The command line's errors say what is wrong: option errors are usage errors (exit 2) found before the model
/// loads, and a missing input file is named.
@Suite("lmsession reports bad options and missing files clearly")
struct CommandLineErrorTests {
    @Test("--threads outside 1...64 is a usage error before anything loads", arguments: [
        ["generate", "--threads", "0", "Hi"], ["generate", "--threads", "65", "Hi"], ["perplexity", "--file", "x.txt", "--threads", "0"],
        ["generate", "--schema", "s.json", "--threads", "0", "Hi"],
    ])
    func threadsOutOfRangeIsAUsageError(_ arguments: [String]) throws {
        // A model path that does not exist: the usage error must come first.
        let (status, output) = try CommandLineVocabularyTests.run(arguments + ["--model", "/nonexistent/model.gguf"])
        #expect(status == 2, "\(output)")
        #expect(output.hasPrefix("error: usage error: --threads must be between 1 and 64"), "\(output)")
        #expect(!output.contains("model not found"))
    }

    @Test func perplexityNamesAMissingFile() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["perplexity", "--file", "/nonexistent/wiki.test.raw", "--model", "/nonexistent/model.gguf"])
        #expect(status == 1, "\(output)")
        #expect(output == "error: file not found: /nonexistent/wiki.test.raw\n")
    }

    @Test func schemaFilesAreCheckedLikeTextFiles() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--schema", NSTemporaryDirectory(), "Hi"])
        #expect(status == 1, "\(output)")
        #expect(output == "error: \(NSTemporaryDirectory()) is a directory, not a JSON Schema file\n")
        let (missingStatus, missing) = try CommandLineVocabularyTests.run(["generate", "--schema", "/nonexistent/s.json", "Hi"])
        #expect(missingStatus == 1)
        #expect(missing == "error: file not found: /nonexistent/s.json\n")
    }

    @Test("chat and bench check their options before loading", arguments: [
        (["chat", "--max-tokens", "-3"], "--max-tokens must be at least 0"),
        (["chat", "--tool-calling", "required"], "--tool-calling needs --tools demo"),
        (["bench", "--sessions", "100000"], "--sessions must be between 1 and 256"),
        (["bench", "--threads", "0"], "--threads must be between 1 and"),
        (["bench", "--sessions", "2", "--threads", "0"], "--threads must be between 1 and"),
        // One token a sequence leaves no decode step: the rate was inf, printed as invalid JSON.
        (["bench", "--json", "--sessions", "1", "--gen-tokens", "1"], "--gen-tokens must be at least 2 with --sessions"),
        (["bench", "--shared-instructions", "--instructions-tokens", "999999"], "--instructions-tokens must be at most 3968"),
        (["bench", "--json", "--sessions", "2", "--memory-bandwidth"], "bench --memory-bandwidth does not take --model, --sessions"),
        (["bench", "--shared-instructions", "--json"], "bench --shared-instructions does not take --json"),
        (["generate", "--schema", "s.json", "--repeat-penalty", "1.3", "Hi"], "--repeat-penalty cannot be combined with --schema"),
        (["generate", "--schema", "s.json", "--raw", "Hi"], "--raw cannot be combined with --schema"),
        (["generate", "--schema", "s.json", "--min-p", "0.1", "Hi"], "--min-p cannot be combined with --schema"),
        (["generate", "--no-schema-in-prompt", "Hi"], "--no-schema-in-prompt needs --schema FILE.json"),
        // An option given twice was read as its last value; which was meant is not guessed.
        (["generate", "--max-tokens", "5", "--max-tokens=9", "Hi"], "--max-tokens given twice"),
        (["bench", "--threads", "1", "--threads", "2"], "--threads given twice"),
        // The kernel set is the CPU's: a model given with it was ignored.
        (["info", "--kernels"], "info --kernels does not take --model"),
        // A raw prompt has no chat template to put instructions in: --system was ignored.
        (["generate", "--raw", "--system", "Be brief.", "Hi"], "--raw cannot be combined with --system"),
    ])
    func chatChecksItsOptionsFirst(_ arguments: [String], _ message: String) throws {
        let (status, output) = try CommandLineVocabularyTests.run(arguments + ["--model", "/nonexistent/model.gguf"])
        #expect(status == 2, "\(output)")
        #expect(output.hasPrefix("error: usage error: \(message)"), "\(output)")
    }

    /// After a usage error the command's own usage follows, not the whole help (which buried the error).
    @Test("a usage error is followed by the usage of its command alone", arguments: [
        (["bench", "--sessions", "0"], "bench    --memory-bandwidth"),
        (["generate", "--threads", "0", "Hi"], "generate --schema FILE.json"),
        (["perplexity", "--context"], "perplexity [--model PATH] --file F"),
    ])
    func usageErrorsShowTheirCommand(_ arguments: [String], _ usageLine: String) throws {
        let (status, output) = try CommandLineVocabularyTests.run(arguments)
        #expect(status == 2, "\(output)")
        #expect(output.contains("usage:\n"), "\(output)")
        #expect(output.contains(usageLine), "\(output)")
        #expect(output.hasSuffix("(lmsession --help lists every command)\n"), "\(output)")
        for other in ["chat     [--model", "tokenize [--model", "info     [--model", "perplexity [--model", "bench    [--model",
                      "generate [--model", "With no --model"] where !usageLine.hasPrefix(other.prefix(8)) {
            #expect(!output.contains(other), "\(other) in \(output)")
        }
    }

    /// The command line finds the default model where the library does (a tester ran the binary from another
    /// directory: the library would have found the model, the command line looked only in ./Models).
    @Test func theDefaultModelIsFoundAsTheLibraryFindsIt() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LMSESSION_MODEL"] = nil
        let elsewhere = FileManager.default.temporaryDirectory
        let result = try Subprocess.run(try CommandLineVocabularyTests.binary(), ["info"], environment: environment,
                                        mergingStandardError: true, currentDirectory: elsewhere)
        // The library's search from this test binary, which sits beside the command's.
        var library = environment
        library["LMSESSION_MODEL"] = nil
        switch SystemLanguageModel.defaultModelPath(environment: library) {
        case .success(let path):
            #expect(result.status == 0, "\(result.text)")
            #expect(result.text.contains("file:          \(path)"), "\(path) in \(result.text)")
        case .failure:
            #expect(result.status == 1, "\(result.text)")
            #expect(result.text.contains("model not found; looked at:"), "\(result.text)")
        }
    }

    /// A path set in LMSESSION_MODEL is named as the user's choice, without the advice to fetch the default model.
    @Test func aMissingModelFromTheEnvironmentIsNamedAsSuch() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LMSESSION_MODEL"] = "/nonexistent/chosen.gguf"
        let result = try Subprocess.run(try CommandLineVocabularyTests.binary(), ["info"], environment: environment,
                                        mergingStandardError: true)
        #expect(result.status == 1, "\(result.text)")
        #expect(result.text == "error: model not found at /nonexistent/chosen.gguf (LMSESSION_MODEL)\n")
    }

    @Test func anEmptyModelPathIsAUsageError() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["tokenize", "--model=", "Hi"])
        #expect(status == 2, "\(output)")
        #expect(output.hasPrefix("error: usage error: --model needs a path\n"), "\(output)")
    }

    /// A chat model whose template raises an error quoting control characters (a NUL, an ANSI colour sequence).
    static func raisingChatModel() throws -> String {
        let template = "{{ raise_exception('nope \u{0} \u{1B}[31m red') }}"
        return try TestFiles.write(Data(try TinyChatModel.build(vocabulary: "llama-bpe", template: nil, extraTemplate: template)),
                                   named: "tiny-llama-bpe-raising.gguf").path
    }

    /// A tester piped turns into `chat` whose every turn failed and got exit status 0; the template's control
    /// characters reached the terminal raw.
    @Test func chatFailsWhenATurnFailedAndEscapesWhatItQuotes() throws {
        let result = try Subprocess.run(try CommandLineVocabularyTests.binary(), ["chat", "--model", try Self.raisingChatModel()],
                                        input: Data("hi\nagain\n".utf8), mergingStandardError: true)
        #expect(result.status == 1, "\(result.text)")
        #expect(result.text.contains(#"nope \u{0} \u{1B}[31m red"#), "\(result.text)")
        #expect(!result.text.unicodeScalars.contains { $0.value == 0 || $0.value == 0x1B }, "\(result.text.debugDescription)")
        #expect(result.text.hasSuffix("error: 2 of 2 turns failed\n"), "\(result.text)")
    }

    /// `chat < /dev/zero` grew to 7.7 GB in 30 s: a line is read up to 1 MiB.
    @Test func chatRefusesALineWithoutEnd() throws {
        let result = try Subprocess.run(try CommandLineVocabularyTests.binary(), ["chat", "--model", try Self.raisingChatModel()],
                                        input: Data(repeating: 0x61, count: (1 << 20) + 1), mergingStandardError: true)
        #expect(result.status == 1, "\(result.text.prefix(500))")
        #expect(result.text.hasSuffix("error: a line of standard input holds more than 1 MiB; chat reads one turn a line\n"),
                "\(result.text.prefix(500))")
    }

    /// A tester's script could not tell a cut answer from a whole one: generation that reaches the end of the
    /// context prints what it made, then fails (exit 1), as the library throws contextSizeExceeded there.
    @Test func anAnswerCutByTheContextExitsWithAFailure() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--raw", "--context", "40", "--max-tokens", "200",
                                                                   "--greedy", "Once upon a time, a dragon"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("error: the context is full after "), "\(output)")
        #expect(output.contains("the answer is cut (--context 40)"), "\(output)")
    }

    @Test func helpAfterACommandPrintsTheUsage() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--help"])
        #expect(status == 0, "\(output)")
        #expect(output.hasPrefix("lmsession: run GGUF language models"), "\(output)")
    }

    @Test func perplexityRefusesADirectory() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["perplexity", "--file", NSTemporaryDirectory()])
        #expect(status == 1, "\(output)")
        #expect(output == "error: \(NSTemporaryDirectory()) is a directory, not a text file\n")
    }

    /// An empty file reads as empty text (too few tokens, said as such), a device that never ends is
    /// read only up to the limit, and bytes that are not UTF-8 are named as such.
    @Test func perplexityReadsDevicesAndBinaryFilesWithinBounds() throws {
        let (emptyStatus, empty) = try CommandLineVocabularyTests.run(["perplexity", "--file", "/dev/null"])
        #expect(emptyStatus == 1, "\(empty)")
        #expect(empty.contains("error: need at least 1024 tokens, the text has 0"), "\(empty)")
        let (zeroStatus, zero) = try CommandLineVocabularyTests.run(["perplexity", "--file", "/dev/zero"])
        #expect(zeroStatus == 1, "\(zero)")
        #expect(zero == "error: /dev/zero holds more than 64 MiB, too much for a text file\n", "\(zero)")
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-binary-\(UUID().uuidString).raw")
        try Data([0x41, 0xff, 0xfe, 0x42]).write(to: binary)
        defer { try? FileManager.default.removeItem(at: binary) }
        let (binaryStatus, notText) = try CommandLineVocabularyTests.run(["perplexity", "--file", binary.path])
        #expect(binaryStatus == 1, "\(notText)")
        #expect(notText == "error: \(binary.path) is not UTF-8 text, not a text file\n", "\(notText)")
    }

    /// A FIFO nobody writes to is read as empty text, at once: opening it waited for a writer for good.
    @Test func perplexityDoesNotWaitForAFIFOsWriter() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-fifo-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let (status, output) = try CommandLineVocabularyTests.run(["perplexity", "--file", fifo.path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("error: need at least 1024 tokens, the text has 0"), "\(output)")
    }

    /// A loop of symbolic links is named as one (it read as "file not found"), for a text file and for an image.
    @Test func aLoopOfSymbolicLinksIsNamed() throws {
        let a = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-loop-a-\(UUID().uuidString)")
        let b = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-loop-b-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: b.path)
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: a.path)
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        let loop = String(cString: strerror(ELOOP))
        let (textStatus, text) = try CommandLineVocabularyTests.run(["perplexity", "--file", a.path])
        #expect(textStatus == 1, "\(text)")
        #expect(text == "error: cannot open \(a.path): \(loop)\n", "\(text)")
        let (imageStatus, image) = try CommandLineVocabularyTests.run(["bench", "--mmproj", "/dev/null", "--image", a.path])
        #expect(imageStatus == 1, "\(image)")
        #expect(image == "error: cannot read \(a.path): \(loop)\n", "\(image)")
        let (modelStatus, model) = try CommandLineVocabularyTests.run(["info", "--model", a.path])
        #expect(modelStatus == 1, "\(model)")
        #expect(model == "error: cannot open \(a.path): \(loop)\n", "\(model)")
    }

    /// An image that cannot be read is named before the model and its mmproj load (here /dev/null, which would
    /// then fail as a projector).
    @Test func anUnreadableImageIsNamedBeforeAnythingLoads() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--mmproj", "/dev/null", "--image", "/dev/zero", "Hi"])
        #expect(status == 1, "\(output)")
        #expect(output == "error: cannot read /dev/zero: it is not a regular file\n", "\(output)")
    }

    /// Output that cannot be written (a full disk) is a failure with a message, streamed (`generate`) or printed
    /// (`tokenize`): the first crashed on a `try!` in Foundation, the second exited 0.
    @Test(arguments: [["generate", "--greedy", "--max-tokens", "3", "hi"], ["tokenize", "hello"]])
    func outputThatCannotBeWrittenFails(_ arguments: [String]) throws {
        let result = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"),
                                        ["-c", "exec \"$0\" \"$@\" > /dev/full", try CommandLineVocabularyTests.binary().path] + arguments,
                                        mergingStandardError: true)
        #expect(result.status == 1, "\(result.text)")
        // The system's reason, not Foundation's generic "error 512" around it.
        #expect(result.text.contains("error: cannot write the output: \(String(cString: strerror(ENOSPC)))"), "\(result.text)")
    }

    /// The default model (SmolLM2, trained on 8192 positions) caps a larger `--context`, and says so.
    @Test func aContextOverTheModelsLengthIsCappedWithANote() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--context", "20000", "--max-tokens", "1", "--greedy", "Hi"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("note: --context 20000 is more than the model's trained context length; using 8192"), "\(output)")
        let (_, within) = try CommandLineVocabularyTests.run(["generate", "--context", "600", "--max-tokens", "1", "--greedy", "Hi"])
        #expect(!within.contains("note: --context"), "\(within)")
    }

    /// The vision options name what is missing, and `bench` reports missing files as `generate` does.
    @Test func visionOptionsNameWhatIsMissing() throws {
        let (status, output) = try CommandLineVocabularyTests.run(["generate", "--mmproj", "/nonexistent/m.gguf", "Hi"])
        #expect(status == 2, "\(output)")
        #expect(output.contains("generate --mmproj needs --image FILE"), "\(output)")
        let (benchStatus, bench) = try CommandLineVocabularyTests.run(["bench", "--mmproj", "/nonexistent/m.gguf", "--image", "/nonexistent/i.png"])
        #expect(benchStatus == 1, "\(bench)")
        #expect(bench == "error: mmproj file not found at /nonexistent/m.gguf\n", "\(bench)")
    }

    @Test(arguments: [["generate", "--context", "0", "Hi"], ["generate", "--context", "-5", "--schema", "s.json", "Hi"]])
    func aContextBelowOneIsAUsageError(_ arguments: [String]) throws {
        let (status, output) = try CommandLineVocabularyTests.run(arguments + ["--model", "/nonexistent/model.gguf"])
        #expect(status == 2, "\(output)")
        #expect(output.hasPrefix("error: usage error: --context must be at least 1"), "\(output)")
    }
}
