import Foundation

/// Files the tests build (tiny models, images), kept by content under the temporary directory: a test run writes
/// each distinct file once and later runs find it, so repeated runs leave no new files behind (each call wrote a
/// file of its own, never removed, and /tmp filled run by run). Nothing removes them: a suite may still read one
/// another suite asked for.
public enum TestFiles {
    /// `bytes` as the file `name` in a directory named by their SHA-256, written atomically when absent.
    public static func write(_ bytes: Data, named name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lmsession-test-files")
            .appendingPathComponent(String(SHA256.hex(bytes).prefix(32)))
        let url = directory.appendingPathComponent(name)
        if let existing = try? Data(contentsOf: url), existing == bytes { return url }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try bytes.write(to: url, options: .atomic)
        return url
    }
}
