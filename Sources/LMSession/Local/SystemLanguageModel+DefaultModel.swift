import Foundation

extension SystemLanguageModel {
    /// The default model's file name, looked for in a `Models/` directory.
    public static let defaultModelFile = "SmolLM2-135M-Instruct.Q4_1.gguf"

    /// Environment variable naming the default model's path; it wins over every other place.
    public static let modelPathVariable = "LMSESSION_MODEL"

    /// Paths tried for the default model, in order: `$LMSESSION_MODEL` if set (and only it); otherwise
    /// `Models/<defaultModelFile>` under the current directory, then under the executable's directory and its
    /// three parent directories (a `swift build` product lives in `.build/<config>/`).
    public static func defaultModelCandidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let path = environment[modelPathVariable], !path.isEmpty { return [path] }
        let relative = "Models/" + defaultModelFile
        var directories = [FileManager.default.currentDirectoryPath]
        var executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            directories.append(executable.path)
            executable.deleteLastPathComponent()
        }
        var seen = Set<String>()
        return directories.map { URL(fileURLWithPath: $0).appendingPathComponent(relative).standardizedFileURL.path }
            .filter { seen.insert($0).inserted }
    }

    /// The first candidate that exists, or ``LocalModelError/fileNotFound(searched:)`` listing all of them.
    public static func defaultModelPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, LocalModelError> {
        let candidates = defaultModelCandidates(environment: environment)
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) { return .success(found) }
        return .failure(.fileNotFound(searched: candidates))
    }
}
