import LMTokenizer
import Testing

@Suite("Streaming detokenizer")
struct StreamingDetokenizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let model: String, text: String
        var testDescription: String { "\(model) \(text)" }
        var tokenizer: Tokenizer { get throws { try model == "SmolLM2" ? RealModels.smolLM2.get() : RealModels.gemma3.get() } }
    }

    static let cases = [
        Case(model: "SmolLM2", text: "naïve café — déjà vu; 東京タワー 🚀🚀"),
        Case(model: "SmolLM2", text: "ÄÖÜ äöü ß Привет мир مرحبا 👩‍👩‍👧 𝔘𝔫𝔦"),
        Case(model: "Gemma 3", text: "naïve 東京タワー 🚀🚀 𝔘𝔫𝔦 🫠 \u{10FFFD}"),
    ]

    @Test("Chunks are whole characters and join to the text", arguments: cases)
    func emitsOnlyWholeCharacters(_ c: Case) throws {
        let t = try c.tokenizer
        let ids = t.encode(c.text, addBOS: false)
        var stream = StreamingDetokenizer(tokenizer: t)
        var chunks: [String] = []
        var heldBack = 0
        for id in ids {
            let chunk = stream.append(id)
            if chunk.isEmpty && !t.tokenBytes(id).isEmpty { heldBack += 1 }
            chunks.append(chunk)
        }
        chunks.append(stream.finish())
        #expect(chunks.joined() == c.text)
        #expect(chunks.allSatisfy { !$0.unicodeScalars.contains("\u{FFFD}") })
        // The text really has characters split across tokens.
        #expect(heldBack > 0)
    }

    @Test func byteTokensOfOneCharacterAreHeldUntilItIsComplete() throws {
        let t = try Tokenizer(metadata: Fixtures.spm(addSpacePrefix: false))
        var stream = StreamingDetokenizer(tokenizer: t)
        // U+1F680 ROCKET is F0 9F 9A 80.
        #expect(stream.append(Fixtures.byteID(0xF0)) == "")
        #expect(stream.append(Fixtures.byteID(0x9F)) == "")
        #expect(stream.append(Fixtures.byteID(0x9A)) == "")
        #expect(stream.append(Fixtures.byteID(0x80)) == "🚀")
        #expect(stream.append(Fixtures.spmID("a")) == "a")
        #expect(stream.finish() == "")
    }

    @Test func anUnfinishedCharacterIsFlushedAsReplacementCharacter() throws {
        let t = try Tokenizer(metadata: Fixtures.spm(addSpacePrefix: false))
        var stream = StreamingDetokenizer(tokenizer: t)
        #expect(stream.append(Fixtures.spmID("a")) == "a")
        #expect(stream.append(Fixtures.byteID(0xE6)) == "")
        #expect(stream.finish() == "\u{FFFD}")
        #expect(stream.append(Fixtures.spmID("b")) == "b")
    }

    @Test func invalidBytesAreNotHeldBack() throws {
        let t = try Tokenizer(metadata: Fixtures.spm(addSpacePrefix: false))
        var stream = StreamingDetokenizer(tokenizer: t)
        // A lone continuation byte can never complete: it comes out at once as U+FFFD.
        #expect(stream.append(Fixtures.byteID(0x80)) == "\u{FFFD}")
    }

    @Test func controlTokensStreamOnlyWhenAskedFor() throws {
        let t = try RealModels.smolLM2.get()
        var plain = StreamingDetokenizer(tokenizer: t)
        #expect(plain.append(2) == "")
        var special = StreamingDetokenizer(tokenizer: t, includeSpecial: true)
        #expect(special.append(2) == "<|im_end|>")
    }
}
