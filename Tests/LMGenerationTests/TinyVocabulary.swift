import LMTokenizer

/// A tiny vocabulary: token 0 ends generation, then the printable ASCII characters, then a few words.
enum TinyVocabulary {
    static let words = ["Hello", " world", "{\"", "\":", "<tool"]
    static let tokens: [[UInt8]] = [[]] + (32...126).map { [UInt8($0)] } + words.map { Array($0.utf8) }
    static let eos = 0
    static let size = tokens.count
    static let pieces = TokenPieces(tokens)

    static func id(_ text: String) -> Int {
        tokens.firstIndex(of: Array(text.utf8)) ?? -1
    }

    static func ids(_ texts: [String]) -> [Int] { texts.map(id) }
}
