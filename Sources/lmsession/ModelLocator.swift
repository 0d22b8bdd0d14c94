import Foundation
import LMGGUF
import LMSession
import LMTokenizer
import LMTransformer

/// Finds and loads the model a command runs on.
enum ModelLocator {
    /// `--model PATH`, else the library's default model (``SystemLanguageModel/defaultModelPath(environment:)``:
    /// `$LMSESSION_MODEL`, else `Models/<default>` under the current directory, the executable's directory or
    /// its parents), else the first place it looked, for the error to name.
    static func path(_ explicit: String?) -> String {
        if let explicit { return explicit }
        switch SystemLanguageModel.defaultModelPath() {
        case .success(let found): return found
        case .failure: return SystemLanguageModel.defaultModelCandidates().first ?? "Models/" + SystemLanguageModel.defaultModelFile
        }
    }

    static func load(_ explicit: String?) throws(CLIError) -> TransformerModel {
        let p = try existingPath(explicit)
        do {
            return try TransformerModel(path: p)
        } catch {
            throw .failed("cannot load \(p): \(error)")
        }
    }

    /// The GGUF file and its tokenizer only: reads metadata, not tensors, so vocabulary-only files
    /// (llama.cpp's `ggml-vocab-*.gguf`) and architectures LMSession cannot run work too.
    static func loadTokenizer(_ explicit: String?) throws(CLIError) -> (path: String, file: GGUFFile, tokenizer: Tokenizer) {
        let p = try existingPath(explicit)
        do {
            let file = try GGUFFile(path: p)
            try TransformerModel.refuseVisionProjector(file)
            return (p, file, try Tokenizer(gguf: file))
        } catch {
            throw .failed("cannot load \(p): \(error)")
        }
    }

    private static func existingPath(_ explicit: String?) throws(CLIError) -> String {
        if explicit?.isEmpty == true { throw .usage("--model needs a path") }
        let p = path(explicit)
        var status = stat()
        guard stat(p, &status) == 0 else {
            let error = errno
            // A loop of symbolic links or a directory without search permission: the system's reason, not "not found".
            guard error == ENOENT else { throw .failed("cannot open \(p): \(String(cString: strerror(error)))") }
            if explicit == nil, let variable = ProcessInfo.processInfo.environment[SystemLanguageModel.modelPathVariable],
               !variable.isEmpty {
                // The user chose this path: fetching the default model would not help.
                throw .failed("model not found at \(p) (\(SystemLanguageModel.modelPathVariable))")
            }
            if explicit == nil {
                let searched = SystemLanguageModel.defaultModelCandidates().joined(separator: "\n  ")
                throw .failed("model not found; looked at:\n  \(searched)\nFetch the default model with:\n  Models/fetch\nor pass --model PATH (or set LMSESSION_MODEL).")
            }
            throw .failed("model not found at \(p)")
        }
        return p
    }
}

/// `s` with control characters other than newline and tab written as `\u{1B}`: messages quote model files and
/// templates, whose bytes must not reach the terminal as escape sequences or NULs.
func escapingControlCharacters(_ s: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars {
        if scalar.properties.generalCategory == .control, scalar != "\n", scalar != "\t" {
            out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}

/// Writes to standard error, control characters escaped; a failed write is dropped (there is nowhere left to
/// report it).
func printError(_ s: String) {
    try? FileHandle.standardError.write(contentsOf: Data((escapingControlCharacters(s) + "\n").utf8))
}

/// Writes to standard output without a newline and unbuffered, for streaming. A failed write (a full disk,
/// a closed file) ends the program with exit 1 and a message on stderr, not a crash.
func writeOut(_ s: String) {
    do { try FileHandle.standardOutput.write(contentsOf: Data(s.utf8)) } catch {
        // Foundation wraps the system's error (EBADF, ENOSPC) in a generic one ("error 512"); name the system's.
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        outputFailed(underlying.map { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : $0.localizedDescription }
                     ?? error.localizedDescription)
    }
}

/// Ends the program for output that could not be written.
func outputFailed(_ reason: String) -> Never {
    printError("error: cannot write the output: \(reason)")
    exit(1)
}

/// Says on stderr when `--context` asked for more positions than the model was trained on: the context is capped
/// at the model's length (`contextLength` in the GGUF), so the run does not silently use less than was asked.
func noteContextCap(requested: Int, used: Int) {
    if used < requested { printError("note: --context \(requested) is more than the model's trained context length; using \(used)") }
}
