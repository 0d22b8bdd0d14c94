import Foundation
import Synchronization

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
    case scriptFailed(script: String, status: Int32)
    public var description: String {
        switch self {
        case let .fetchFailed(name, status): "Models/fetch \(name) failed with status \(status)"
        case let .scriptFailed(script, status): "\(script) failed with status \(status)"
        }
    }
}

/// llama.cpp b11312's source tree, which `Scripts/llama-cpp-source` fetches (once, cached under
/// `Models/.cache/`) and whose path it prints; its `models/` holds the `ggml-vocab-*.gguf`
/// tokenizer suites.
public enum LlamaCppSource {
    private static let cached = Mutex<URL?>(nil)

    /// The tree's root, running the script on first use.
    public static func root() throws -> URL {
        try cached.withLock { cached in
            if let cached { return cached }
            let result = try Subprocess.run(TestPaths.repoRoot.appendingPathComponent("Scripts/llama-cpp-source"))
            let path = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard result.status == 0, !path.isEmpty else {
                throw TestModelError.scriptFailed(script: "Scripts/llama-cpp-source", status: result.status)
            }
            let url = URL(fileURLWithPath: path)
            cached = url
            return url
        }
    }

    /// `models/templates/*.jinja`, sorted by name.
    public static func chatTemplates() throws -> [URL] {
        let dir = try root().appendingPathComponent("models/templates")
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jinja" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// `models/<name>` in the tree.
    public static func model(_ name: String) throws -> URL {
        try root().appendingPathComponent("models").appendingPathComponent(name)
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
        let result = try Subprocess.run(TestPaths.repoRoot.appendingPathComponent("Models/fetch"), [model.name])
        guard result.status == 0 else { throw TestModelError.fetchFailed(name: model.name, status: result.status) }
        return url.path
    }
}
