import Foundation
import LMTransformer

/// Minimal `--flag value` / `--switch` / positional parser for the command line tool.
struct CommandLineArguments {
    /// Every value given for each option, in order (more than one only for a repeatable option).
    private var values: [String: [String]] = [:]
    private(set) var switches: Set<String> = []
    private(set) var positional: [String] = []

    /// - Parameters:
    ///   - valueOptions: option names that take a value (`--model PATH`).
    ///   - repeatable: those of them that may be given more than once (`--image`).
    /// - Throws: ``CLIError/usage(_:)`` for an unknown option, a missing value, or a value option other than
    ///   a repeatable one given twice (which of the two was meant is not guessed).
    init(_ args: ArraySlice<String>, valueOptions: Set<String>, switches allowed: Set<String>,
         repeatable: Set<String> = []) throws(CLIError) {
        var i = args.startIndex
        while i < args.endIndex {
            let a = args[i]
            if a == "--" {
                positional.append(contentsOf: args[(i + 1)...])
                break
            }
            if a.hasPrefix("--") {
                let name = String(a.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    let key = String(name[..<eq])
                    guard valueOptions.contains(key) else { throw .usage("unknown option --\(key)") }
                    try add(String(name[name.index(after: eq)...]), to: key, repeatable: repeatable)
                } else if valueOptions.contains(name) {
                    guard i + 1 < args.endIndex else { throw .usage("--\(name) needs a value") }
                    try add(args[i + 1], to: name, repeatable: repeatable)
                    i += 1
                } else if allowed.contains(name) {
                    switches.insert(name)
                } else {
                    throw .usage("unknown option --\(name)")
                }
            } else {
                positional.append(a)
            }
            i += 1
        }
    }

    private mutating func add(_ value: String, to name: String, repeatable: Set<String>) throws(CLIError) {
        guard values[name] == nil || repeatable.contains(name) else { throw .usage("--\(name) given twice") }
        values[name, default: []].append(value)
    }

    /// The options and switches given, by name.
    var given: Set<String> { switches.union(values.keys) }

    /// A usage error naming the options given that `mode` does not take (rather than ignoring them).
    func only(_ accepted: Set<String>, in mode: String) throws(CLIError) {
        let extra = given.subtracting(accepted).sorted()
        if !extra.isEmpty { throw .usage("\(mode) does not take " + extra.map { "--" + $0 }.joined(separator: ", ")) }
    }

    /// The value of `--name` (the last of a repeatable option's).
    func string(_ name: String) -> String? { values[name]?.last }

    /// Every value given for `name` (a repeatable option such as `--image`), in order.
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String) throws(CLIError) -> Int? {
        guard let s = string(name) else { return nil }
        guard let v = Int(s) else { throw .usage("--\(name) expects an integer, got \"\(s)\"") }
        return v
    }

    func float(_ name: String) throws(CLIError) -> Float? {
        guard let s = string(name) else { return nil }
        guard let v = Float(s), v.isFinite else { throw .usage("--\(name) expects a number, got \"\(s)\"") }
        return v
    }

    func has(_ name: String) -> Bool { switches.contains(name) }

    /// `--threads N`, checked to be in 1...64.
    func threads() throws(CLIError) -> Int? {
        guard let n = try int("threads") else { return nil }
        let supported = InferenceContext.supportedThreadCounts
        guard supported.contains(n) else { throw .usage("--threads must be between \(supported.lowerBound) and \(supported.upperBound)") }
        return n
    }

    /// `--context N` (positions of the KV cache), or `defaultValue`; a usage error below 1.
    func contextSize(default defaultValue: Int = 4096) throws(CLIError) -> Int {
        let n = try int("context") ?? defaultValue
        guard n >= 1 else { throw .usage("--context must be at least 1") }
        return n
    }

    /// `--max-tokens N` (a response's token cap), or `defaultValue`; a usage error below `minimum`
    /// (`reason`, if given, says why).
    func maxTokens(default defaultValue: Int, minimum: Int = 0, reason: String? = nil) throws(CLIError) -> Int {
        let n = try int("max-tokens") ?? defaultValue
        guard n >= minimum else { throw .usage("--max-tokens must be at least \(minimum)\(reason.map { " \($0)" } ?? "")") }
        return n
    }
}

/// An error the tool reports on stderr before exiting non-zero.
enum CLIError: Error, CustomStringConvertible {
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case let .usage(s): "usage error: \(s)"
        case let .failed(s): s
        }
    }
}

/// The most a `--file` or `--schema` argument may hold: the reading stops there, so a device such
/// as /dev/zero cannot grow memory without bound.
let textFileByteLimit = 64 << 20

/// The UTF-8 text of the file at `path` (a `--file` or `--schema` argument), read before any model
/// loads. Throws ``CLIError/failed(_:)`` naming the path when it does not exist, is a directory,
/// cannot be read, holds more than ``textFileByteLimit`` bytes, or is not UTF-8 text (`what` says
/// what the file should be, e.g. "a text file"). An empty file (or /dev/null) is empty text.
func readTextFile(_ path: String, what: String) throws(CLIError) -> String {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (with none, the text is empty); blocking reads again
    // after, so a pipe whose writer is slow is read whole.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
        throw .failed(errno == ENOENT ? "file not found: \(path)" : "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw .failed("cannot read \(path): \(String(cString: strerror(errno)))") }
    guard status.st_mode & S_IFMT != S_IFDIR else { throw .failed("\(path) is a directory, not \(what)") }
    let tooLarge = CLIError.failed("\(path) holds more than \(textFileByteLimit >> 20) MiB, too much for \(what)")
    // A regular file is refused by its size before reading (devices and pipes tell none: read to the bound).
    guard status.st_mode & S_IFMT != S_IFREG || status.st_size <= textFileByteLimit else { throw tooLarge }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    let data: Data
    do {
        data = try handle.read(upToCount: textFileByteLimit + 1) ?? Data()
    } catch {
        throw .failed("cannot read \(path): \(error.localizedDescription)")
    }
    guard data.count <= textFileByteLimit else { throw tooLarge }
    guard let text = String(data: data, encoding: .utf8) else { throw .failed("\(path) is not UTF-8 text, not \(what)") }
    return text
}
