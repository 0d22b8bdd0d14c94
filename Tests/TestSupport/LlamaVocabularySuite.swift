import Foundation

/// llama.cpp's tokenizer conformance files (`models/ggml-vocab-<name>.gguf` with `.inp` texts and
/// `.out` expected ids), read from the tree `Scripts/llama-cpp-source` provides, as
/// `tests/test-tokenizer-0.cpp` reads them: the `.inp` holds the cases separated by the line
/// `__ggml_vocab_test__` (the newlines around it belong to the separator), the `.out` one line of
/// space-separated ids per case. llama.cpp tokenizes them with `add_special` and `parse_special`
/// both false.
public enum LlamaVocabularySuite {
    /// The 15 vocabularies that come with cases (llama.cpp b11312), and how many each has.
    public static let files: [(name: String, cases: Int)] = [
        ("bert-bge", 46), ("command-r", 46), ("deepseek-coder", 46), ("deepseek-llm", 46), ("falcon", 46),
        ("gemma-4", 46), ("gpt-2", 46), ("llama-bpe", 46), ("llama-spm", 46), ("mpt", 46), ("phi-3", 46),
        ("qwen2", 46), ("qwen35", 50), ("refact", 46), ("starcoder", 46),
    ]

    public struct Case: Sendable {
        public let text: String
        public let ids: [Int]
    }

    public enum ReadError: Error, CustomStringConvertible {
        case mismatchedCounts(file: String, inputs: Int, outputs: Int)
        case badID(file: String, line: Int, text: String)
        case notUTF8(file: String, index: Int)

        public var description: String {
            switch self {
            case let .mismatchedCounts(file, inputs, outputs): "\(file): \(inputs) inputs but \(outputs) output lines"
            case let .badID(file, line, text): "\(file).out line \(line): \(text.debugDescription) is not a token id"
            case let .notUTF8(file, index): "\(file).inp case \(index) is not UTF-8"
            }
        }
    }

    public static func vocabularyPath(_ name: String) throws -> String {
        try LlamaCppSource.model("ggml-vocab-\(name).gguf").path
    }

    /// The cases of `ggml-vocab-<name>.gguf`; throws when either file is missing or they disagree.
    public static func cases(_ name: String) throws -> [Case] {
        let base = try vocabularyPath(name)
        let input = try Data(contentsOf: URL(fileURLWithPath: base + ".inp"))
        let output = try String(contentsOf: URL(fileURLWithPath: base + ".out"), encoding: .utf8)
        let texts = split(Array(input), separator: Array("\n__ggml_vocab_test__\n".utf8))
        var lines = output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() } // getline yields no line after the final newline
        guard texts.count == lines.count else {
            throw ReadError.mismatchedCounts(file: name, inputs: texts.count, outputs: lines.count)
        }
        return try zip(texts, lines).enumerated().map { index, pair in
            guard let text = String(validating: pair.0, as: UTF8.self) else { throw ReadError.notUTF8(file: name, index: index) }
            let ids = try pair.1.split(separator: " ", omittingEmptySubsequences: true).map { field in
                guard let id = Int(field.trimmingCharacters(in: .whitespaces)) else {
                    throw ReadError.badID(file: name, line: index + 1, text: String(field))
                }
                return id
            }
            return Case(text: text, ids: ids)
        }
    }

    /// `bytes` cut at every `separator`, as test-tokenizer-0's loop: text after the last separator
    /// is a case only when non-empty.
    static func split(_ bytes: [UInt8], separator: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        var i = 0
        while start < bytes.count {
            var found: Int?
            i = start
            while i + separator.count <= bytes.count {
                if bytes[i] == separator[0] && Array(bytes[i ..< i + separator.count]) == separator { found = i; break }
                i += 1
            }
            guard let at = found else {
                parts.append(Array(bytes[start...]))
                break
            }
            parts.append(Array(bytes[start ..< at]))
            start = at + separator.count
        }
        return parts
    }
}
