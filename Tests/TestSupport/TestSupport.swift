import Foundation

/// Paths the tests share: the repository root, the llama.cpp reference outputs in
/// `Tests/Reference` (committed, see its README; override with `LMSESSION_REFS`), and the real
/// model files in `Models/`.
public enum TestPaths {
    /// The package root, found from this file's location.
    public static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Directory of llama.cpp reference outputs (`Tests/Reference`).
    public static var refs: URL {
        if let env = ProcessInfo.processInfo.environment["LMSESSION_REFS"] { return URL(fileURLWithPath: env) }
        return repoRoot.appendingPathComponent("Tests/Reference")
    }

    public static func ref(_ name: String) -> URL { refs.appendingPathComponent(name) }

    /// Reads a JSON-lines reference file into one dictionary per line.
    public static func jsonLines(_ name: String) throws -> [[String: Any]] {
        let text = try String(contentsOf: ref(name), encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }
}

public enum TestModelError: Error, CustomStringConvertible {
    case fetchFailed(name: String, status: Int32)
    case llamaCppSourceFailed(status: Int32)
    public var description: String {
        switch self {
        case let .fetchFailed(name, status): "Models/fetch \(name) failed with status \(status)"
        case let .llamaCppSourceFailed(status): "Scripts/llama-cpp-source failed with status \(status)"
        }
    }
}

/// llama.cpp b11312's source tree (chat templates, tokenizer suites), fetched by
/// `Scripts/llama-cpp-source` on first use, never skipped.
public enum LlamaCppSource {
    /// One download at a time when suites ask concurrently.
    private static let lock = NSLock()

    /// The tree's root (`.../vendor/llama.cpp`).
    public static func root() throws -> URL {
        lock.lock(); defer { lock.unlock() }
        let p = Process()
        p.executableURL = TestPaths.repoRoot.appendingPathComponent("Scripts/llama-cpp-source")
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestModelError.llamaCppSourceFailed(status: p.terminationStatus) }
        let path = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: path)
    }

    /// `models/templates/*.jinja`, sorted by name.
    public static func chatTemplates() throws -> [URL] {
        let dir = try root().appendingPathComponent("models/templates")
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jinja" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// The real models the tests run against. A missing model is fetched with `Models/fetch`, never
/// silently skipped.
public enum TestModels {
    public static let smolLM2 = (name: "smollm2-135m-instruct-q4_1", file: "SmolLM2-135M-Instruct.Q4_1.gguf")
    public static let gemma3 = (name: "gemma-3-270m-q4_k_m", file: "gemma-3-270m-q4_k_m.gguf")

    private static let lock = NSLock()

    /// Path of the model file, fetching it first if it is missing.
    public static func path(_ model: (name: String, file: String)) throws -> String {
        lock.lock(); defer { lock.unlock() }
        let url = TestPaths.repoRoot.appendingPathComponent("Models").appendingPathComponent(model.file)
        if FileManager.default.fileExists(atPath: url.path) { return url.path }
        let p = Process()
        p.executableURL = TestPaths.repoRoot.appendingPathComponent("Models/fetch")
        p.arguments = [model.name]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestModelError.fetchFailed(name: model.name, status: p.terminationStatus) }
        return url.path
    }
}
