/// The Unicode properties of a code point that pre-tokenizers and the BERT normaliser test, as
/// llama.cpp's `unicode_cpt_flags` (`src/unicode.h`): exactly one general-category group
/// (`\p{N}`, `\p{L}`, `\p{Z}`, `\p{M}`, `\p{P}`, `\p{S}`, `\p{C}`, or ``undefined`` for unassigned
/// code points) plus the `White_Space` property. Every code point has a category bit, so an empty
/// set means "past the end of the piece", which is how llama.cpp's splitters stop.
///
/// Derived from the toolchain's Unicode tables (`Unicode.Scalar.Properties.generalCategory`,
/// `isWhitespace`), frozen at Unicode 15.1: llama.cpp b11312 generated its table
/// (`src/unicode-data.cpp`) from UnicodeData.txt 15.1, and code points assigned later
/// (`properties.age` above 15.1) count as unassigned here, as they do there.
/// `UnicodeTableTests` checks all 1,114,112 code points against llama.cpp's table.
struct CodePointFlags: OptionSet, Sendable {
    let rawValue: UInt16

    static let undefined = CodePointFlags(rawValue: 1 << 0)
    static let number = CodePointFlags(rawValue: 1 << 1)
    static let letter = CodePointFlags(rawValue: 1 << 2)
    static let separator = CodePointFlags(rawValue: 1 << 3)
    static let mark = CodePointFlags(rawValue: 1 << 4)
    static let punctuation = CodePointFlags(rawValue: 1 << 5)
    static let symbol = CodePointFlags(rawValue: 1 << 6)
    static let control = CodePointFlags(rawValue: 1 << 7)
    static let whitespace = CodePointFlags(rawValue: 1 << 8)

    /// The Unicode version llama.cpp's tables describe.
    static let unicodeVersion = (major: 15, minor: 1)

    /// Flags of `cp`: ASCII from a table, other code points from the toolchain's tables (a few
    /// lookups; a table of the whole plane would cost more to build than most texts take).
    @inline(__always)
    static func of(_ cp: UInt32) -> CodePointFlags {
        cp < 0x80 ? CodePointFlags(rawValue: ascii[Int(cp)]) : compute(cp)
    }

    private static let ascii: [UInt16] = (0 ..< 0x80).map { compute(UInt32($0)).rawValue }

    /// Flags of `cp` from the toolchain's tables.
    static func compute(_ cp: UInt32) -> CodePointFlags {
        // Surrogates (which UTF-8 decoding never yields for a String) are category Cs, \p{C}.
        guard let scalar = Unicode.Scalar(cp) else { return cp < 0x110000 ? .control : .undefined }
        let p = scalar.properties
        guard isAssigned(p) else { return .undefined }
        var flags: CodePointFlags
        switch p.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: flags = .letter
        case .nonspacingMark, .spacingMark, .enclosingMark: flags = .mark
        case .decimalNumber, .letterNumber, .otherNumber: flags = .number
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation: flags = .punctuation
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: flags = .symbol
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: flags = .separator
        case .control, .format, .privateUse, .surrogate: flags = .control
        case .unassigned: flags = .undefined
        @unknown default: flags = .undefined
        }
        if p.isWhitespace { flags.insert(.whitespace) }
        return flags
    }

    /// Whether the code point was assigned by ``unicodeVersion`` (private-use code points have no
    /// age but are assigned).
    static func isAssigned(_ p: Unicode.Scalar.Properties) -> Bool {
        guard let age = p.age else { return p.generalCategory == .privateUse }
        return (age.major, age.minor) <= unicodeVersion
    }

    var isLetter: Bool { contains(.letter) }
    var isNumber: Bool { contains(.number) }
    var isWhitespace: Bool { contains(.whitespace) }
    var isMark: Bool { contains(.mark) }
}
