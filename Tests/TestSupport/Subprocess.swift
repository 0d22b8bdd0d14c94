import Dispatch
import Foundation

/// Runs a program to its end for a test: the scripts (`Models/fetch`, `Scripts/schema-corpus`, ...), the
/// `lmsession` command and the compiler.
///
/// The exit is awaited through `terminationHandler` (set before the launch, so a fast exit is not missed)
/// and a semaphore, not `Process.waitUntilExit()`, which spins the calling thread's run loop and is reported
/// to wait forever under load when called off the main thread (swift-corelibs-foundation); a CI run of this
/// suite stopped making progress with tests waiting on programs they had started. Both
/// pipes are read to their end on threads of their own, so a full pipe cannot block the program, and a
/// program still running after `timeout` is terminated and reported, so a test fails instead of hanging.
public enum Subprocess {
    public struct Output: Sendable {
        public let status: Int32
        /// Standard output (with standard error when they were merged).
        public let standardOutput: Data
        public let standardError: Data

        public var text: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` with `arguments` and returns its exit status and output.
    /// - Parameters:
    ///   - environment: the program's environment (nil: this process's).
    ///   - input: written to the program's standard input, which is then closed (nil: the input is this process's).
    ///   - mergingStandardError: standard error goes to the same pipe as standard output.
    ///   - timeout: seconds the program may run.
    /// - Throws: what `Process.run()` throws when the program cannot start; ``Failure`` when it runs past `timeout`.
    public static func run(_ executable: URL, _ arguments: [String] = [], environment: [String: String]? = nil,
                           input: Data? = nil, mergingStandardError: Bool = false,
                           timeout: TimeInterval = 900, currentDirectory: URL? = nil) throws -> Output {
        let p = Process()
        p.executableURL = executable
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        p.arguments = arguments
        if let environment { p.environment = environment }
        let out = Pipe()
        let err = mergingStandardError ? nil : Pipe()
        p.standardOutput = out
        p.standardError = err ?? out
        let inPipe = input.map { _ in Pipe() }
        if let inPipe { p.standardInput = inPipe }
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try p.run()

        let outData = Reader(out.fileHandleForReading)
        let errData = err.map { Reader($0.fileHandleForReading) }
        if let inPipe, let input {
            inPipe.fileHandleForWriting.write(input)
            try? inPipe.fileHandleForWriting.close()
        }
        guard exited.wait(timeout: .now() + timeout) == .success else {
            p.terminate()
            throw Failure(description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) ran past \(Int(timeout)) s and was terminated")
        }
        // The program has exited: its ends of the pipes are closed, so the readers reach the end unless a
        // program it started still holds them; they are given the same bound.
        let stdout = outData.result(within: timeout)
        let stderr = errData.map { $0.result(within: timeout) } ?? Data()
        guard let stdout, let stderr else {
            throw Failure(description: "\(executable.lastPathComponent) exited but its output did not end within \(Int(timeout)) s")
        }
        return Output(status: p.terminationStatus, standardOutput: stdout, standardError: stderr)
    }

    /// Reads a pipe to its end on a thread of its own.
    private final class Reader: @unchecked Sendable {
        // @unchecked: `data` is written once by the thread before `done` is signalled and read after it.
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            let thread = Thread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
            thread.start()
        }

        func result(within seconds: TimeInterval) -> Data? {
            done.wait(timeout: .now() + seconds) == .success ? data : nil
        }
    }
}
