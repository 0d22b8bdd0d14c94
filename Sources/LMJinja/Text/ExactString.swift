/// A string compared and hashed by its Unicode scalars, as Python compares `str`.
///
/// Swift's `String ==` treats canonically equivalent strings (`é` and `e` + combining acute) as
/// equal; Python does not, and dict keys and `==` in templates must follow Python.
struct ExactString: Hashable, Sendable {
    let value: String
    init(_ value: String) { self.value = value }
    static func == (a: ExactString, b: ExactString) -> Bool { a.value.utf8.elementsEqual(b.value.utf8) }
    func hash(into hasher: inout Hasher) {
        for byte in value.utf8 { hasher.combine(byte) }
    }
}

extension String {
    /// Python's `==` on strings: same scalars.
    func isExactly(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }

    /// Python's `<` on strings: code point order, which UTF-8 byte order preserves.
    func isBefore(_ other: String) -> Bool { utf8.lexicographicallyPrecedes(other.utf8) }
}
