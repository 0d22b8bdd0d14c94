// The stdlib's canonical decomposition (`String._nfd`) is SPI: public, tested with the stdlib, but
// without a stability promise. It is the only Unicode normalisation in the toolchain that needs no
// Foundation; UnicodeTableTests checks the mapping below against llama.cpp's table, so a toolchain
// that changes it is caught.
@_spi(_Unicode) import Swift

/// One-to-one code point mappings the BERT normaliser uses, as llama.cpp's `unicode_tolower` and
/// `unicode_cpts_normalize_nfd`, derived from the toolchain's Unicode tables and frozen at
/// ``CodePointFlags/unicodeVersion`` (later code points map to themselves).
enum CodePointMappings {
    /// The simple lowercase mapping of `cp` (UnicodeData.txt field 13), or `cp` itself.
    ///
    /// The stdlib gives the full mapping (SpecialCasing.txt); for every code point with a one-to-one
    /// simple mapping its first scalar is that mapping (the only unconditional multi-scalar
    /// lowercase, U+0130 → "i̇", starts with the simple mapping U+0069).
    static func lowercase(_ cp: UInt32) -> UInt32 {
        if cp < 0x80 { return (0x41 ... 0x5A).contains(cp) ? cp + 0x20 : cp }
        guard let scalar = Unicode.Scalar(cp) else { return cp }
        let p = scalar.properties
        guard p.changesWhenLowercased, CodePointFlags.isAssigned(p) else { return cp }
        return p.lowercaseMapping.unicodeScalars.first?.value ?? cp
    }

    /// The first code point of the canonical decomposition (NFD) of `cp` alone, or `cp` itself.
    ///
    /// llama.cpp's "NFD" keeps one code point per code point: `é` becomes `e` (the combining accent
    /// is dropped, not appended) and a Hangul syllable becomes its leading consonant jamo.
    static func nfdFirst(_ cp: UInt32) -> UInt32 {
        if cp < 0xC0 { return cp } // no decomposition below U+00C0
        guard let scalar = Unicode.Scalar(cp), CodePointFlags.isAssigned(scalar.properties) else { return cp }
        var decomposed = String(Character(scalar))._nfd.makeIterator()
        return decomposed.next()?.value ?? cp
    }
}

extension Tokenizer {
    /// llama.cpp's `unicode_cpt_flags` bits of `cp` (category bits `0x01`...`0x80` and `0x100` for
    /// `White_Space`), for tests comparing with llama.cpp's table.
    package static func unicodeFlags(_ cp: UInt32) -> UInt16 { CodePointFlags.compute(cp).rawValue }

    /// ``CodePointMappings/lowercase(_:)``, for tests.
    package static func simpleLowercase(_ cp: UInt32) -> UInt32 { CodePointMappings.lowercase(cp) }

    /// ``CodePointMappings/nfdFirst(_:)``, for tests.
    package static func nfdFirst(_ cp: UInt32) -> UInt32 { CodePointMappings.nfdFirst(cp) }
}
