import Foundation
import LMTokenizer
import TestSupport
import Testing

/// The Unicode data the pre-tokenizers and the BERT normaliser use comes from the toolchain, frozen
/// at Unicode 15.1; llama.cpp's comes from its generated `src/unicode-data.cpp`. These compare the
/// two for every code point, so a toolchain whose tables differ is caught here rather than as a
/// wrong token somewhere.
@Suite("Unicode tables match llama.cpp's")
struct UnicodeTableTests {
    /// `src/unicode-data.cpp` of the llama.cpp tree.
    static func source() throws -> String {
        try String(contentsOf: LlamaCppSource.root().appendingPathComponent("src/unicode-data.cpp"), encoding: .utf8)
    }

    /// The hex numbers inside `{...}` entries of the C++ initializer named `name`.
    static func entries(_ name: String, in source: String) throws -> [[UInt32]] {
        let start = try #require(source.range(of: name + " = {"), "unicode-data.cpp has no \(name)")
        let end = try #require(source.range(of: "};", range: start.upperBound ..< source.endIndex))
        let body = source[start.upperBound ..< end.lowerBound]
        var rows: [[UInt32]] = []
        for line in body.split(separator: "\n") {
            let numbers = line.split(whereSeparator: { !$0.isHexDigit && $0 != "x" })
                .compactMap { $0.hasPrefix("0x") ? UInt32($0.dropFirst(2), radix: 16) : nil }
            if !numbers.isEmpty { rows.append(numbers) }
        }
        return rows
    }

    @Test func categoriesAndWhitespaceMatchForEveryCodePoint() throws {
        let src = try Self.source()
        let ranges = try Self.entries("unicode_ranges_flags", in: src)
        let whitespace = Set(try Self.entries("unicode_set_whitespace", in: src).map { $0[0] })
        #expect(ranges.count > 2000)
        #expect(whitespace.count == 25)
        var mismatches: [String] = []
        for (range, next) in zip(ranges, ranges.dropFirst()) {
            for cp in range[0] ..< next[0] {
                let expected = UInt16(range[1]) | (whitespace.contains(cp) ? 0x100 : 0)
                let got = Tokenizer.unicodeFlags(cp)
                if got != expected && mismatches.count < 10 { mismatches.append("U+\(String(cp, radix: 16)): \(got) vs \(expected)") }
            }
        }
        #expect(ranges.last?[0] == 0x110000)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func lowercaseMatchesForEveryCodePoint() throws {
        let pairs = try Self.entries("unicode_map_lowercase", in: Self.source())
        #expect(pairs.count > 1000)
        let map = Dictionary(pairs.map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
        var mismatches: [String] = []
        for cp in UInt32(0) ..< 0x110000 where (0xD800 ... 0xDFFF).contains(cp) == false {
            let expected = map[cp] ?? cp
            let got = Tokenizer.simpleLowercase(cp)
            if got != expected && mismatches.count < 10 { mismatches.append("U+\(String(cp, radix: 16)): \(got) vs \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func firstCodePointOfTheDecompositionMatchesForEveryCodePoint() throws {
        let ranges = try Self.entries("unicode_ranges_nfd", in: Self.source()) // first, last, nfd
        #expect(ranges.count > 1000)
        var expected = [UInt32: UInt32]()
        for r in ranges where r[2] != 0 { for cp in r[0] ... r[1] { expected[cp] = r[2] } }
        var mismatches: [String] = []
        for cp in UInt32(0) ..< 0x110000 where (0xD800 ... 0xDFFF).contains(cp) == false {
            let want = expected[cp] ?? cp
            let got = Tokenizer.nfdFirst(cp)
            if got != want && mismatches.count < 10 { mismatches.append("U+\(String(cp, radix: 16)): \(got) vs \(want)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
