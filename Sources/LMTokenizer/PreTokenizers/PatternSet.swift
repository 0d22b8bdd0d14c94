/// A character class of a pre-tokenizer pattern (`[\r\n]`, `\p{L}`, `[\p{P}\$\+<=>\^~\|]`,
/// `[一-龥ࠀ-一가-퟿]`...): Unicode category groups, explicit code point ranges, or both.
///
/// llama.cpp runs the patterns it has no hand-written splitter for through `std::regex`, on text in
/// which every non-ASCII `White_Space` code point has been replaced by U+000B (and, for patterns
/// with `\p{..}`, every other non-ASCII code point by a byte standing for its category). So a
/// non-ASCII space never matches a class here, even one whose range covers it (U+3000 in
/// `[　-。]`), and `\s` is exactly the `White_Space` property.
struct PatternSet: Sendable, Equatable {
    /// Category groups in the class (`\p{L}` is ``CodePointFlags/letter``...).
    var categories: CodePointFlags = []
    /// Code point ranges in the class, sorted and disjoint (so they can be binary-searched).
    var ranges: [ClosedRange<UInt32>] = []

    init(categories: CodePointFlags = [], ranges: [ClosedRange<UInt32>] = []) {
        self.categories = categories
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = self.ranges.last, r.lowerBound <= last.upperBound &+ 1 {
                self.ranges[self.ranges.count - 1] = last.lowerBound ... max(last.upperBound, r.upperBound)
            } else {
                self.ranges.append(r)
            }
        }
    }

    @inline(__always)
    func contains(_ cp: UInt32, _ flags: CodePointFlags) -> Bool {
        if cp >= 0x80 && flags.contains(.whitespace) { return false }
        if !flags.isDisjoint(with: categories) { return true }
        guard !ranges.isEmpty else { return false }
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound < cp { lo = mid + 1 } else { hi = mid }
        }
        return lo < ranges.count && ranges[lo].contains(cp)
    }

    /// `[\r\n]`.
    static let newline = PatternSet(ranges: [0x0A ... 0x0A, 0x0D ... 0x0D])
    /// `\p{L}`.
    static let letter = PatternSet(categories: .letter)
    /// `\p{N}`.
    static let number = PatternSet(categories: .number)
    /// `\p{P}`.
    static let punctuation = PatternSet(categories: .punctuation)
    /// `[\p{P}\$\+<=>\^~\|]`: punctuation and the ASCII operator symbols (not `` ` ``).
    static let punctuationAndOperators = PatternSet(
        categories: .punctuation, ranges: [0x24 ... 0x24, 0x2B ... 0x2B, 0x3C ... 0x3E, 0x5E ... 0x5E, 0x7C ... 0x7C, 0x7E ... 0x7E])
    /// `[一-龥ࠀ-一가-퟿]` (DeepSeek): U+4E00-U+9FA5, U+0800-U+4E00, U+AC00-U+D7FF.
    static let deepSeekCJK = PatternSet(ranges: [0x0800 ... 0x4E00, 0x4E00 ... 0x9FA5, 0xAC00 ... 0xD7FF])
    /// DeepSeek LLM's ASCII and full-width punctuation `[!-/:-~！-／：-～‘-‟　-。]` (`:-~` also
    /// covers ASCII letters, which an earlier stage has taken by then).
    static let deepSeekPunctuation = PatternSet(ranges: [
        0x21 ... 0x2F, 0x3A ... 0x7E, 0x2018 ... 0x201F, 0x3000 ... 0x3002, 0xFF01 ... 0xFF0F, 0xFF1A ... 0xFF5E,
    ])
    /// DeepSeek LLM's letter class `[A-Za-zµÀ-ÖØ-öø-ƺ...𞤀-𞥃]`, as its tokenizer.json spells it:
    /// the cased letters (Lu, Ll, Lt) of Latin, Greek, Coptic, Cyrillic, Armenian, Georgian,
    /// Cherokee, Glagolitic, Deseret, Osage, Old Hungarian, Warang Citi and Adlam, and letterlike
    /// symbols, as of an older Unicode (letters added since, such as U+A7C0, are not in it).
    static let deepSeekLetter = PatternSet(ranges: [
        0x41 ... 0x5A, 0x61 ... 0x7A, 0xB5 ... 0xB5, 0xC0 ... 0xD6, 0xD8 ... 0xF6, 0xF8 ... 0x1BA,
        0x1BC ... 0x1BF, 0x1C4 ... 0x293, 0x295 ... 0x2AF, 0x370 ... 0x373, 0x376 ... 0x377, 0x37B ... 0x37D,
        0x37F ... 0x37F, 0x386 ... 0x386, 0x388 ... 0x38A, 0x38C ... 0x38C, 0x38E ... 0x3A1, 0x3A3 ... 0x3F5,
        0x3F7 ... 0x481, 0x48A ... 0x52F, 0x531 ... 0x556, 0x10A0 ... 0x10C5, 0x13A0 ... 0x13F5, 0x13F8 ... 0x13FD,
        0x1C90 ... 0x1CBA, 0x1CBD ... 0x1CBF, 0x1D00 ... 0x1D2B, 0x1D6B ... 0x1D77, 0x1D79 ... 0x1D9A,
        0x1E00 ... 0x1F15, 0x1F18 ... 0x1F1D, 0x1F20 ... 0x1F45, 0x1F48 ... 0x1F4D, 0x1F50 ... 0x1F57,
        0x1F59 ... 0x1F59, 0x1F5B ... 0x1F5B, 0x1F5D ... 0x1F5D, 0x1F5F ... 0x1F7D, 0x1F80 ... 0x1FB4,
        0x1FB6 ... 0x1FBC, 0x1FBE ... 0x1FBE, 0x1FC2 ... 0x1FC4, 0x1FC6 ... 0x1FCC, 0x1FD0 ... 0x1FD3,
        0x1FD6 ... 0x1FDB, 0x1FE0 ... 0x1FEC, 0x1FF2 ... 0x1FF4, 0x1FF6 ... 0x1FFC, 0x2102 ... 0x2102,
        0x2107 ... 0x2107, 0x210A ... 0x2113, 0x2115 ... 0x2115, 0x2119 ... 0x211D, 0x2124 ... 0x2124,
        0x2126 ... 0x2126, 0x2128 ... 0x2128, 0x212A ... 0x212D, 0x212F ... 0x2134, 0x2139 ... 0x2139,
        0x213C ... 0x213F, 0x2145 ... 0x2149, 0x214E ... 0x214E, 0x2183 ... 0x2184, 0x2C00 ... 0x2C7B,
        0x2C7E ... 0x2CE4, 0x2CEB ... 0x2CEE, 0x2CF2 ... 0x2CF3, 0xA640 ... 0xA66D, 0xA680 ... 0xA69B,
        0xA722 ... 0xA76F, 0xA771 ... 0xA787, 0xA78B ... 0xA78E, 0xAB70 ... 0xABBF, 0xFB00 ... 0xFB06,
        0xFB13 ... 0xFB17, 0xFF21 ... 0xFF3A, 0xFF41 ... 0xFF5A, 0x10400 ... 0x1044F, 0x104B0 ... 0x104D3,
        0x104D8 ... 0x104FB, 0x10C80 ... 0x10CB2, 0x10CC0 ... 0x10CF2, 0x118A0 ... 0x118DF, 0x1E900 ... 0x1E943,
    ])
}
