/// A BPE pre-tokenizer: the patterns that split text into words before merges, applied in order as
/// llama.cpp's `unicode_regex_split` does (see ``SplitStage``).
struct PreTokenizer: Sendable, Equatable {
    let stages: [SplitStage]

    /// Reusable buffers for ``split(_:into:scratch:)``.
    struct Scratch {
        var codePoints = CodePoints()
        var previous: [Int] = []
    }

    /// Splits `text` into words and writes the exclusive end of every word, in code points of
    /// `text`, to `ends` (emptied first).
    func split(_ text: SplitText, into ends: inout [Int], scratch previous: inout [Int]) {
        ends.removeAll(keepingCapacity: true)
        let n = text.scalars.count
        guard n > 0, let first = stages.first else { return }
        first.split(text, 0, n, into: &ends)
        for stage in stages.dropFirst() {
            swap(&ends, &previous)
            ends.removeAll(keepingCapacity: true)
            var start = 0
            for end in previous {
                stage.split(text, start, end, into: &ends)
                start = end
            }
        }
    }

    /// The words of UTF-8 `bytes`, as byte ranges.
    func words(_ bytes: UnsafeBufferPointer<UInt8>, scratch s: inout Scratch, into ends: inout [Int]) {
        s.codePoints.decode(bytes)
        s.codePoints.scalars.withUnsafeBufferPointer { cps in
            s.codePoints.flags.withUnsafeBufferPointer { cls in
                split(SplitText(scalars: cps, flags: cls), into: &ends, scratch: &s.previous)
            }
        }
    }
}

extension Tokenizer {
    /// The words the BPE pre-tokenizer named `name` (a `tokenizer.ggml.pre` value) splits `text`
    /// into, before merges; `nil` for names not implemented. For tests and tools.
    package static func preTokenizedWords(of text: String, preTokenizer name: String) -> [String]? {
        guard let family = BPEFamily(name: name) else { return nil }
        let bytes = Array(text.utf8)
        var scratch = PreTokenizer.Scratch()
        var ends: [Int] = []
        bytes.withUnsafeBufferPointer { family.preTokenizer.words($0, scratch: &scratch, into: &ends) }
        let starts = scratch.codePoints.byteStarts
        var start = 0
        return ends.map { end in
            defer { start = end }
            return String(decoding: bytes[Int(starts[start]) ..< Int(starts[end])], as: UTF8.self)
        }
    }
}
