import Foundation

/// The real-world JSON Schemas of `Scripts/schema-corpus` and its validator (Python's jsonschema).
/// The corpus is fetched by `Models/fetch --all` (or here, when missing); `LMSESSION_SCHEMA_CORPUS`
/// names another corpus file (e.g. one written by `Scripts/schema-corpus fetch --all`).
public enum SchemaCorpus {
    public struct Case: Sendable {
        public let id: String
        /// The schema as JSON text.
        public let schema: String
    }

    public struct Summary: Sendable {
        public let checked: Int
        /// One line per invalid value: its id and the validator's messages.
        public let invalid: [String]
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    static var script: URL { TestPaths.repoRoot.appendingPathComponent("Scripts/schema-corpus") }

    /// The corpus file, fetched first when it is missing.
    public static func path() throws -> String {
        if let path = ProcessInfo.processInfo.environment["LMSESSION_SCHEMA_CORPUS"], !path.isEmpty { return path }
        let path = try run(["path"]).trimmingCharacters(in: .whitespacesAndNewlines)
        if !FileManager.default.fileExists(atPath: path) { _ = try run(["fetch"]) }
        return path
    }

    /// The corpus cases. Each line is `{"id":…,"source":…,"schema":…}` with the schema last, so
    /// its text is the rest of the line (no JSON round trip for schemas of megabytes).
    public static func load() throws -> [Case] {
        let text = try String(contentsOfFile: try path(), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let marker = line.range(of: #","schema":"#),
                  let head = try JSONSerialization.jsonObject(with: Data((line[..<marker.lowerBound] + "}").utf8)) as? [String: Any],
                  let id = head["id"] as? String else {
                throw Failure(description: "malformed corpus line: \(line.prefix(100))")
            }
            return Case(id: id, schema: String(line[marker.upperBound...].dropLast()))
        }
    }

    /// A line for `validate`: a corpus case's id and the text generated for it.
    public static func line(id: String, text: String) -> String {
        let object: [String: String] = ["id": id, "text": text]
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    /// A line for `validate` with its own schema (JSON text), for schemas outside the corpus.
    public static func line(id: String, schema: String, text: String) -> String {
        // Raw newlines can only be whitespace between JSON tokens: one line per case.
        String(line(id: id, text: text).dropLast()) + ",\"schema\":\(schema.replacingOccurrences(of: "\n", with: " "))}"
    }

    /// Checks generated values with Python's jsonschema.
    public static func validate(_ lines: [String]) throws -> Summary {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-schema-values-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var environment = ProcessInfo.processInfo.environment
        environment["LMSESSION_SCHEMA_CORPUS"] = try path()
        let output = try run(["validate", file.path], environment: environment)
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let checked = object["checked"] as? Int, let invalid = object["invalid"] as? [[String: Any]] else {
            throw Failure(description: "schema-corpus validate printed \(output.prefix(200))")
        }
        return Summary(checked: checked, invalid: invalid.map { "\($0["id"] ?? "?"): \($0["errors"] ?? "")" })
    }

    /// A seed derived from a case id (FNV-1a), so each case's value is the same on every run.
    public static func seed(_ id: String) -> UInt64 {
        id.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let result = try Subprocess.run(script, arguments, environment: environment)
        guard result.status == 0 else {
            throw Failure(description: "Scripts/schema-corpus \(arguments.joined(separator: " ")) exited with \(result.status): \(String(decoding: result.standardError.suffix(600), as: UTF8.self))")
        }
        return result.text
    }
}
