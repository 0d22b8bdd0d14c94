import LMTokenizer
import Testing

/// Word splits of each pre-tokenizer, worked out by hand from the patterns llama.cpp lists for it
/// (applied in order, each to the pieces the previous ones left).
@Suite("BPE pre-tokenizers")
struct PreTokenizerTests {
    static let cases: [(pre: String, text: String, words: [String])] = [
        ("gpt-2", "Hello world", ["Hello", " world"]),
        ("gpt-2", "I'm  fine!!  ", ["I", "'m", " ", " fine", "!!", "  "]),
        ("gpt-2", "abc123 45", ["abc", "123", " 45"]),
        ("gpt-2", "IT'S", ["IT", "'", "S"]),
        ("gpt-2", "a\n\nb", ["a", "\n", "\n", "b"]),
        ("smollm", "abc123 45", ["abc", "1", "2", "3", " ", "4", "5"]),
        ("smollm", "x²+½", ["x", "²", "+", "½"]),
        ("llama-bpe", "abc12345 \n\nX's", ["abc", "123", "45", " \n\n", "X", "'s"]),
        ("llama-bpe", "IT'S (hello)", ["IT", "'S", " (", "hello", ")"]),
        ("llama-bpe", "a  b", ["a", " ", " b"]),
        ("qwen2", "abc12345", ["abc", "1", "2", "3", "4", "5"]),
        ("qwen2", "x?!\n\ny", ["x", "?!\n\n", "y"]),
        ("qwen2", "e\u{301}x 12", ["e", "\u{301}x", " ", "1", "2"]),
        ("qwen35", "e\u{301}x 12", ["e\u{301}x", " ", "1", "2"]),
        ("default", "Hello!!  12345 $x", ["Hello", "!!", " ", " ", "123", "45", " ", "$", "x"]),
        ("falcon", "a+b=100,000!", ["a", "+", "b", "=", "100", ",", "000", "!"]),
        ("deepseek-coder", "ab 12\n中文 x!", ["ab", " ", "1", "2", "\n", "中文", " x", "!"]),
        ("deepseek-llm", "Hi 12 ！\n  ", ["Hi", " ", "12", " ！", "\n", "  "]),
        ("gemma4", "a b\n\nc", ["a b", "\n\n", "c"]),
    ]

    @Test("Splits text into the words the pattern matches", arguments: cases)
    func splits(_ pre: String, _ text: String, _ words: [String]) throws {
        let got = try #require(Tokenizer.preTokenizedWords(of: text, preTokenizer: pre))
        #expect(got == words)
        #expect(got.joined() == text)
    }

    @Test func unknownNamesAreNotGuessed() {
        #expect(Tokenizer.preTokenizedWords(of: "x", preTokenizer: "gpt2") == nil) // llama.cpp spells it gpt-2
        #expect(Tokenizer.preTokenizedWords(of: "x", preTokenizer: "tekken") == nil)
    }
}
