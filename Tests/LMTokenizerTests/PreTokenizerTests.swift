import LMTokenizer
import Testing

/// Word splits of each pre-tokenizer, worked out by hand from the regex llama.cpp names for it.
@Suite("BPE pre-tokenizers")
struct PreTokenizerTests {
    static let cases: [(pre: String, text: String, words: [String])] = [
        ("gpt2", "Hello world", ["Hello", " world"]),
        ("gpt2", "I'm  fine!!  ", ["I", "'m", " ", " fine", "!!", "  "]),
        ("gpt2", "abc123 45", ["abc", "123", " 45"]),
        ("gpt2", "IT'S", ["IT", "'", "S"]),
        ("gpt2", "a\n\nb", ["a", "\n", "\n", "b"]),
        ("smollm", "abc123 45", ["abc", "1", "2", "3", " ", "4", "5"]),
        ("smollm", "x²+½", ["x", "²", "+", "½"]),
        ("llama-bpe", "abc12345 \n\nX's", ["abc", "123", "45", " \n\n", "X", "'s"]),
        ("llama-bpe", "IT'S (hello)", ["IT", "'S", " (", "hello", ")"]),
        ("llama-bpe", "a  b", ["a", " ", " b"]),
        ("qwen2", "abc12345", ["abc", "1", "2", "3", "4", "5"]),
        ("qwen2", "x?!\n\ny", ["x", "?!\n\n", "y"]),
    ]

    @Test("Splits text into the words the pattern matches", arguments: cases)
    func splits(_ pre: String, _ text: String, _ words: [String]) throws {
        let got = try #require(Tokenizer.preTokenizedWords(of: text, preTokenizer: pre))
        #expect(got == words)
        #expect(got.joined() == text)
    }

    @Test func unknownNamesAreNotGuessed() {
        #expect(Tokenizer.preTokenizedWords(of: "x", preTokenizer: "default") == nil)
        #expect(Tokenizer.preTokenizedWords(of: "x", preTokenizer: "tekken") == nil)
    }
}
