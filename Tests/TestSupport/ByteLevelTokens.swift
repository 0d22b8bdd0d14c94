/// The 256 byte tokens of a byte-level BPE vocabulary in GPT-2's byte-to-unicode spelling (printable
/// bytes stand for themselves, the others map to U+0100 and up), byte `b` at index `b`: the start of
/// the tiny vocabularies the tests write into GGUFs (with no merges every byte is one token).
public let byteLevelTokens: [String] = {
    var printable = Array(33...126) + Array(161...172) + Array(174...255)
    var codes = printable
    var extra = 0
    for b in 0..<256 where !printable.contains(b) {
        printable.append(b)
        codes.append(256 + extra)
        extra += 1
    }
    var byByte = [String](repeating: "", count: 256)
    for (b, c) in zip(printable, codes) { byByte[b] = String(Character(Unicode.Scalar(UInt32(c))!)) }
    return byByte
}()
