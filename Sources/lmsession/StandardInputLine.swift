#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The most bytes one line of `chat` input may hold (1 MiB): far more than a turn that fits a context.
let chatLineByteLimit = 1 << 20

/// The next line of standard input without its `\n` or `\r\n` (invalid UTF-8 repaired), or nil at the end of input.
/// Unlike `readLine()`, stops at `limit` bytes: input with no newline (`/dev/zero`) grew memory without bound.
/// - Throws: ``CLIError/failed(_:)`` when a line runs past `limit` bytes.
func readStandardInputLine(limit: Int = chatLineByteLimit) throws(CLIError) -> String? {
    var bytes: [UInt8] = []
    while true {
        let c = getchar()
        if c == EOF {
            if bytes.isEmpty { return nil }
            break
        }
        if c == 10 { break }
        guard bytes.count < limit else { throw .failed("a line of standard input holds more than \(limit >> 20) MiB; chat reads one turn a line") }
        bytes.append(UInt8(truncatingIfNeeded: c))
    }
    if bytes.last == 13 { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
}
