import LMGrammar
import Testing

/// Numeric bounds beyond the digits a plain number spells (15 integer digits): a value the schema
/// rejects is never produced. Bounds a Double reads exactly are enforced with exponents; integer
/// bounds past 2^53 (which a Double cannot hold exactly) are refused before decoding, naming the
/// keyword and its JSON pointer. The verdict tables agree with Python's jsonschema 4.26
/// (`Draft202012Validator(schema).is_valid(json.loads(text))`); the subsets the grammar keeps on
/// purpose are checked apart.
@Suite("Number bounds past the plain digits")
struct NumberBoundTests {
    /// Random walks over the byte tokens the grammar allows, each ending when it may: spellings
    /// the grammar lets a model write, whatever the model prefers.
    static func samples(_ schema: String, count: Int = 200) throws -> [String] {
        let grammar = try CompiledGrammar(try Grammar(jsonSchema: schema))
        let index = SyntheticVocabulary.index
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var out: [String] = []
        for _ in 0..<count {
            let matcher = GrammarMatcher(grammar: grammar, index: index)
            var text: [UInt8] = []
            while text.count < 64 {
                var mask = [UInt64](repeating: 0, count: index.wordCount)
                mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
                let allowed = (0..<index.tokenCount).filter { mask[$0 >> 6] >> UInt64($0 & 63) & 1 == 1 }
                if allowed.isEmpty { break }
                if allowed.contains(SyntheticVocabulary.eos), next() % 4 == 0 { break }
                let bytes = allowed.filter { $0 != SyntheticVocabulary.eos }
                if bytes.isEmpty { break }
                let token = bytes[Int(next() % UInt64(bytes.count))]
                _ = matcher.accept(token: token)
                text += SyntheticVocabulary.vocabulary.tokens[token]
            }
            if matcher.isComplete { out.append(String(decoding: text, as: UTF8.self)) }
        }
        return out
    }

    @Test("bounds past 15 digits are enforced exactly, with exponents", arguments: [
        (#"{"type":"number","minimum":1e20}"#, 1e20, Double.greatestFiniteMagnitude, false, false),
        (#"{"type":"number","minimum":1e308}"#, 1e308, Double.greatestFiniteMagnitude, false, false),
        (#"{"type":"number","maximum":-1e20}"#, -Double.greatestFiniteMagnitude, -1e20, false, false),
        (#"{"type":"number","exclusiveMinimum":1e308}"#, 1e308, Double.greatestFiniteMagnitude, true, false),
        (#"{"type":"number","minimum":1e300,"maximum":1e301}"#, 1e300, 1e301, false, false),
        (#"{"type":"number","exclusiveMinimum":2.5e17,"exclusiveMaximum":2.5e18}"#, 2.5e17, 2.5e18, true, true),
        (#"{"type":"number","minimum":-3e40,"exclusiveMaximum":-1e16}"#, -3e40, -1e16, false, true),
        (#"{"type":"number","minimum":1000000000000000.5}"#, 1000000000000000.5, Double.greatestFiniteMagnitude, false, false),
    ])
    func exponentBounds(schema: String, lo: Double, hi: Double, exclusiveLo: Bool, exclusiveHi: Bool) throws {
        let values = try Self.samples(schema)
        #expect(values.count > 50)
        for text in values {
            let v = try #require(Double(text), "\(text) is not a number")
            #expect(v.isFinite, "\(text)")
            #expect(exclusiveLo ? v > lo : v >= lo, "\(text) below \(lo)")
            #expect(exclusiveHi ? v < hi : v <= hi, "\(text) above \(hi)")
        }
    }

    @Test("the bound itself and its neighbours get JSON Schema's verdicts", arguments: [
        (#"{"type":"number","minimum":1e20}"#, "1e20", true),
        (#"{"type":"number","minimum":1e20}"#, "1.5e20", true),
        (#"{"type":"number","minimum":1e20}"#, "9.99e19", false),
        (#"{"type":"number","minimum":1e20}"#, "1e308", true),
        (#"{"type":"number","exclusiveMinimum":1e20}"#, "1e20", false),
        (#"{"type":"number","exclusiveMinimum":1e20}"#, "1.000000000000001e20", true),
        (#"{"type":"number","maximum":-1e20}"#, "-1e20", true),
        (#"{"type":"number","maximum":-1e20}"#, "-2e21", true),
        (#"{"type":"number","maximum":-1e20}"#, "-999999999999999", false),
        (#"{"type":"number","minimum":1e300,"maximum":1e301}"#, "1E+301", true),
        (#"{"type":"number","minimum":1e300,"maximum":1e301}"#, "1.1e301", false),
        (#"{"type":"number","exclusiveMinimum":999999999999999}"#, "999999999999999", false),
        (#"{"type":"number","exclusiveMinimum":999999999999999}"#, "1e15", true),
        // A fraction of the full 15 digits equal to a bound is the bound itself.
        (#"{"type":"number","minimum":0.123456789012345,"maximum":1}"#, "0.123456789012345", true),
        (#"{"type":"number","minimum":0.123456789012345,"maximum":1}"#, "0.123456789012344", false),
        // 9007199254740993 is not a Double: the smallest Double at or above it is 9007199254740994.
        (#"{"type":"number","minimum":9007199254740993}"#, "9.007199254740994e15", true),
        (#"{"type":"number","minimum":9007199254740993}"#, "9.007199254740992e15", false),
    ])
    func verdicts(schema: String, text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(try Grammar(jsonSchema: schema), text) == valid)
    }

    @Test("integer bounds a Double cannot hold are refused with their keyword and pointer", arguments: [
        (#"{"type":"integer","minimum":9007199254740993,"maximum":9007199254740995}"#, "/minimum", "minimum"),
        (#"{"type":"integer","minimum":1e20}"#, "/minimum", "minimum"),
        (#"{"type":"object","properties":{"n":{"type":"integer","maximum":-1e20}}}"#, "/properties/n/maximum", "maximum"),
        (#"{"type":"integer","exclusiveMinimum":9223372036854775000}"#, "/exclusiveMinimum", "exclusiveMinimum"),
        (#"{"type":"number","multipleOf":1,"minimum":1e16}"#, "/minimum", "minimum"),
    ])
    func integerBoundsRefused(schema: String, path: String, keyword: String) {
        #expect {
            try Grammar(jsonSchema: schema)
        } throws: { error in
            guard case let .unsupportedKeyword(p, k, _) = error as? GrammarError else { return false }
            return p == path && k == keyword
        }
    }

    @Test("the grammar keeps to values a Double reads back: no infinity, no integer past 2^53 - 1")
    func doubleSubset() throws {
        // Valid for JSON Schema (2e308 reads as infinity in Python), but not a value a Double writes back.
        #expect(!(try GrammarProbe.accepts(try Grammar(jsonSchema: #"{"type":"number","minimum":1e20}"#), "2e308")))
        #expect(!(try GrammarProbe.accepts(try Grammar(jsonSchema: #"{"type":"integer","minimum":9007199254740990}"#), "9007199254740992")))
    }

    @Test("integer bounds up to 2^53 - 1 are enforced digit by digit", arguments: [
        (#"{"type":"integer","minimum":9007199254740990}"#, "9007199254740991", true),
        (#"{"type":"integer","minimum":9007199254740990}"#, "9007199254740989", false),
        (#"{"type":"integer","minimum":1000000000000000,"maximum":1000000000000002}"#, "1000000000000001", true),
        (#"{"type":"integer","minimum":1000000000000000,"maximum":1000000000000002}"#, "999999999999999", false),
        (#"{"type":"integer","maximum":-1000000000000000}"#, "-1000000000000007", true),
        (#"{"type":"integer","maximum":-1000000000000000}"#, "-999999999999999", false),
    ])
    func integerBoundsNearTheLimit(schema: String, text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(try Grammar(jsonSchema: schema), text) == valid)
    }
}
