import Foundation
import LMGrammar
import TestSupport

/// The real SmolLM2 vocabulary, read straight from the model's GGUF header (this test target
/// does not depend on LMGGUF): `tokenizer.ggml.tokens` in GPT-2 byte-level form, decoded to
/// bytes, and `tokenizer.ggml.token_type` (3 = control).
enum SmolLM2Vocabulary {
    // Also the GGUF token reader Gemma3Vocabulary uses.
    /// End-of-generation ids of SmolLM2 (llama.cpp: 0 `<|endoftext|>`, 2 `<|im_end|>`, 4).
    static let endOfGeneration: Set<Int> = [0, 2, 4]

    static let shared: Result<ArrayVocabulary, any Error> = Result { try load() }
    static let sharedIndex: Result<TokenIndex, any Error> = shared.map { TokenIndex($0) }

    static func vocabulary() throws -> ArrayVocabulary { try shared.get() }
    static func index() throws -> TokenIndex { try sharedIndex.get() }

    struct ReadError: Error, CustomStringConvertible { let description: String }

    static func load() throws -> ArrayVocabulary {
        let (tokens, types) = try readTokens(path: try TestModels.path(TestModels.smolLM2))
        let decode = byteDecoder()
        let bytes = tokens.map { t in t.unicodeScalars.map { decode[$0] ?? 0 } }
        let special = Set(types.enumerated().filter { $0.element == 3 }.map(\.offset))
        return ArrayVocabulary(tokens: bytes, special: special, endOfGeneration: endOfGeneration)
    }

    /// `tokenizer.ggml.tokens` and `tokenizer.ggml.token_type` of a GGUF file.
    static func readTokens(path: String) throws -> (tokens: [String], types: [Int]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        var reader = Reader(data: data)
        guard try reader.u32() == 0x4655_4747 else { throw ReadError(description: "not a GGUF file") }
        _ = try reader.u32()
        _ = try reader.u64()
        let kvCount = try reader.u64()
        var tokens: [String] = []
        var types: [Int] = []
        for _ in 0..<kvCount {
            let key = try reader.string()
            let type = try reader.u32()
            switch key {
            case "tokenizer.ggml.tokens":
                guard type == 9, try reader.u32() == 8 else { throw ReadError(description: "tokens are not strings") }
                let n = try reader.u64()
                tokens = try (0..<n).map { _ in try reader.string() }
            case "tokenizer.ggml.token_type":
                guard type == 9, try reader.u32() == 5 else { throw ReadError(description: "token types are not i32") }
                let n = try reader.u64()
                types = try (0..<n).map { _ in Int(Int32(bitPattern: try reader.u32())) }
            default:
                try reader.skip(type: type)
            }
            if !tokens.isEmpty, !types.isEmpty { break }
        }
        return (tokens, types)
    }

    /// The inverse of GPT-2's `bytes_to_unicode`: printable bytes stand for themselves, the
    /// others for U+0100 onwards in byte order.
    static func byteDecoder() -> [Unicode.Scalar: UInt8] {
        var map: [Unicode.Scalar: UInt8] = [:]
        var next: UInt32 = 256
        for b in 0...255 {
            let printable = (33...126).contains(b) || (161...172).contains(b) || (174...255).contains(b)
            if printable {
                map[Unicode.Scalar(UInt8(b))] = UInt8(b)
            } else if let scalar = Unicode.Scalar(next) {
                map[scalar] = UInt8(b)
                next += 1
            }
        }
        return map
    }

    struct Reader {
        let data: Data
        var offset = 0

        mutating func take(_ n: Int) throws -> Data {
            guard n >= 0, offset + n <= data.count else { throw ReadError(description: "GGUF header cut at \(offset)") }
            defer { offset += n }
            return data[data.startIndex + offset ..< data.startIndex + offset + n]
        }
        mutating func u32() throws -> UInt32 { try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        mutating func u64() throws -> UInt64 { try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        mutating func string() throws -> String { String(decoding: try take(Int(try u64())), as: UTF8.self) }

        mutating func skip(type: UInt32) throws {
            switch type {
            case 0, 1, 7: _ = try take(1)
            case 2, 3: _ = try take(2)
            case 4, 5, 6: _ = try take(4)
            case 10, 11, 12: _ = try take(8)
            case 8: _ = try string()
            case 9:
                let inner = try u32()
                let n = try u64()
                for _ in 0..<n { try skip(type: inner) }
            default: throw ReadError(description: "unknown GGUF type \(type)")
            }
        }
    }
}

/// The real Gemma 3 vocabulary (SentencePiece, 262,144 tokens): U+2581 stands for a space,
/// `<0xNN>` byte tokens (type 6) for their byte, control tokens are type 3.
enum Gemma3Vocabulary {
    /// `<eos>` and `<end_of_turn>`.
    static let endOfGeneration: Set<Int> = [1, 106]

    static let shared: Result<ArrayVocabulary, any Error> = Result { try load() }
    static let sharedIndex: Result<TokenIndex, any Error> = shared.map { TokenIndex($0) }

    static func load() throws -> ArrayVocabulary {
        let (tokens, types) = try SmolLM2Vocabulary.readTokens(path: try TestModels.path(TestModels.gemma3))
        let bytes = zip(tokens, types).map { text, type -> [UInt8] in
            if type == 6, text.hasPrefix("<0x"), let b = UInt8(text.dropFirst(3).prefix(2), radix: 16) { return [b] }
            return Array(text.replacingOccurrences(of: "\u{2581}", with: " ").utf8)
        }
        let special = Set(types.enumerated().filter { $0.element == 3 || $0.element == 2 }.map(\.offset))
        return ArrayVocabulary(tokens: bytes, special: special, endOfGeneration: endOfGeneration)
    }
}

/// Tokenizes text by longest match over a vocabulary: a valid, usually non-canonical token
/// sequence, the kind a model may produce.
struct LongestMatchTokenizer {
    let ids: [[UInt8]: Int]
    let maxLength: Int

    init(_ vocabulary: ArrayVocabulary) {
        var ids: [[UInt8]: Int] = [:]
        for (id, bytes) in vocabulary.tokens.enumerated() where !bytes.isEmpty && !vocabulary.special.contains(id) && ids[bytes] == nil {
            ids[bytes] = id
        }
        self.ids = ids
        maxLength = min(24, vocabulary.tokens.map(\.count).max() ?? 1)
    }

    func tokenize(_ text: String) -> [Int]? {
        let bytes = Array(text.utf8)
        var out: [Int] = []
        var i = 0
        while i < bytes.count {
            var found = false
            for n in stride(from: min(maxLength, bytes.count - i), through: 1, by: -1) {
                if let id = ids[Array(bytes[i..<(i + n)])] {
                    out.append(id)
                    i += n
                    found = true
                    break
                }
            }
            if !found { return nil }
        }
        return out
    }
}
