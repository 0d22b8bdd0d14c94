import LMJinja
import Testing

/// The JSON reader keeps object order (templates iterate dicts in insertion order) and refuses
/// malformed or too deeply nested input with its byte offset.
@Suite struct JinjaValueJSONTests {
    @Test func readsValuesKeepingKeyOrder() throws {
        let v = try JinjaValue(parsingJSON: #" {"z": 1, "a": [true, null, -2.5e3, "\u00e9\ud83d\ude0a\n"], "m": {}} "#)
        #expect(v == .object([(key: "z", value: 1), (key: "a", value: [true, nil, -2500.0, "é😊\n"]), (key: "m", value: .object([]))]))
        #expect(try JinjaValue(parsingJSON: "12345678901234567890") == .double(12345678901234567890))
        #expect(try JinjaValue(parsingJSON: "-0") == .int(0))
    }

    @Test func aRepeatedKeyKeepsItsFirstPlaceAndLastValue() throws {
        #expect(try JinjaValue(parsingJSON: #"{"a": 1, "b": 2, "a": 3}"#) == .object([(key: "a", value: 3), (key: "b", value: 2)]))
    }

    @Test(arguments: [
        ("", 0), ("{", 1), ("[1,]", 3), ("{\"a\" 1}", 5), ("01", 1), ("\"\\ud800\"", 7), ("\"a\u{01}\"", 2),
        ("tru", 3), ("1 2", 2), ("\"\\x\"", 3),
    ] as [(String, Int)])
    func malformedTextFailsWithItsOffset(_ text: String, _ offset: Int) {
        #expect(throws: JinjaError.self) { try JinjaValue(parsingJSON: text) }
        do { _ = try JinjaValue(parsingJSON: text) } catch let .invalidJSON(_, at) { #expect(at == offset) } catch {}
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JinjaError.self) { try JinjaValue(parsingJSON: deep) }
        #expect((try? JinjaValue(parsingJSON: String(repeating: "[", count: 100) + String(repeating: "]", count: 100))) != nil)
    }
}
