/// Code points of the text being pre-tokenized, with their flags.
struct SplitText {
    let scalars: UnsafeBufferPointer<UInt32>
    let flags: UnsafeBufferPointer<CodePointFlags>
}

/// One pattern of a pre-tokenizer. llama.cpp's `unicode_regex_split` applies a model's patterns in
/// order, each to every piece the previous ones left: the text a pattern matches becomes pieces,
/// and so does the text between matches (patterns only ever split, never drop text).
///
/// The GPT-2 and Llama 3 patterns are llama.cpp's hand-written splitters. The other cases stand
/// for the `std::regex` patterns llama.cpp runs for the remaining families; each is simple enough
/// (a class, repeated, with an optional leading `\s`) that leftmost-first matching is the scan
/// written here.
enum SplitStage: Sendable, Equatable {
    /// ``GPT2Split``.
    case gpt2
    /// ``Llama3Split`` with `\p{N}{1,maxDigits}` (Llama 3: 3, Qwen 2: 1) and Qwen 3.5's marks.
    case llama3(maxDigits: Int, marksAreLetters: Bool)
    /// `[^\n]+|[\n]+`: runs of newlines and runs of anything else (Gemma 4).
    case newlineRuns
    /// `C` (`repeated` false), `C+`, or with `leadingSpace` `\s?C+`, for the class `C`.
    case match(PatternSet, repeated: Bool, leadingSpace: Bool)
    /// `[0-9][0-9][0-9]`: ASCII digits three at a time, leftmost first.
    case asciiDigitTriples
    /// `\s+$`: the whitespace that ends a piece.
    case trailingWhitespace

    /// Splits `lo ..< hi` and appends the end of every (non-empty) piece to `ends`.
    func split(_ text: SplitText, _ lo: Int, _ hi: Int, into ends: inout [Int]) {
        switch self {
        case .gpt2:
            GPT2Split.split(text, lo, hi, &ends)
        case let .llama3(maxDigits, marksAreLetters):
            Llama3Split.split(text, lo, hi, maxDigits: maxDigits, marksAreLetters: marksAreLetters, &ends)
        case .newlineRuns:
            var pos = lo
            while pos < hi {
                let newline = text.scalars[pos] == 0x0A
                while pos < hi && (text.scalars[pos] == 0x0A) == newline { pos += 1 }
                ends.append(pos)
            }
        case let .match(set, repeated, leadingSpace):
            Self.matchClass(text, lo, hi, set, repeated: repeated, leadingSpace: leadingSpace, &ends)
        case .asciiDigitTriples:
            Self.matchDigitTriples(text, lo, hi, &ends)
        case .trailingWhitespace:
            var start = hi
            while start > lo && text.flags[start - 1].isWhitespace { start -= 1 }
            if start > lo && start < hi { ends.append(start) }
            ends.append(hi)
        }
    }

    /// Leftmost-first matches of `\s?C+` / `C+` / `C`; unmatched text between them is kept.
    private static func matchClass(_ text: SplitText, _ lo: Int, _ hi: Int, _ set: PatternSet,
                                   repeated: Bool, leadingSpace: Bool, _ ends: inout [Int]) {
        @inline(__always) func inSet(_ p: Int) -> Bool { p < hi && set.contains(text.scalars[p], text.flags[p]) }
        var gapStart = lo
        var pos = lo
        while pos < hi {
            var end: Int
            if inSet(pos) {
                end = pos + 1
            } else if leadingSpace && text.flags[pos].isWhitespace && inSet(pos + 1) {
                end = pos + 2
            } else {
                pos += 1
                continue
            }
            if repeated { while inSet(end) { end += 1 } }
            if pos > gapStart { ends.append(pos) }
            ends.append(end)
            gapStart = end
            pos = end
        }
        if gapStart < hi { ends.append(hi) }
    }

    private static func matchDigitTriples(_ text: SplitText, _ lo: Int, _ hi: Int, _ ends: inout [Int]) {
        @inline(__always) func digit(_ p: Int) -> Bool { p < hi && (0x30 ... 0x39).contains(text.scalars[p]) }
        var gapStart = lo
        var pos = lo
        while pos < hi {
            guard digit(pos) && digit(pos + 1) && digit(pos + 2) else { pos += 1; continue }
            if pos > gapStart { ends.append(pos) }
            pos += 3
            ends.append(pos)
            gapStart = pos
        }
        if gapStart < hi { ends.append(hi) }
    }
}
