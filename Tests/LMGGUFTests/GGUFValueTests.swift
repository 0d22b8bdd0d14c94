import LMGGUF
import Testing

/// The typed accessors on ``GGUFValue`` and ``GGUFArray`` convert what they can and nothing else.
struct GGUFValueTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let value: GGUFValue
        let int: Int?
        let double: Double?
        var testDescription: String { "\(value)" }
    }

    @Test("int and double convert numeric values only", arguments: [
        Case(value: .uint8(200), int: 200, double: 200),
        Case(value: .int16(-5), int: -5, double: -5),
        Case(value: .uint32(4_000_000_000), int: 4_000_000_000, double: 4e9),
        Case(value: .uint64(.max), int: nil, double: nil),
        Case(value: .int64(.min), int: Int(Int64.min), double: -9.223372036854775808e18),
        Case(value: .float32(0.5), int: nil, double: 0.5),
        Case(value: .float64(-1e-9), int: nil, double: -1e-9),
        Case(value: .bool(true), int: nil, double: nil),
        Case(value: .string("7"), int: nil, double: nil),
    ])
    func numericAccessors(c: Case) {
        #expect(c.value.int == c.int)
        #expect(c.value.double == c.double)
    }

    @Test("arrays convert to ints, floats and strings by element type")
    func arrayAccessors() {
        #expect(GGUFArray.int32([1, -2]).ints == [1, -2])
        #expect(GGUFArray.int32([1, -2]).floats == [1, -2])
        #expect(GGUFArray.bool([true, false]).ints == [1, 0])
        #expect(GGUFArray.uint64([1, .max]).ints == nil)
        #expect(GGUFArray.float64([0.25]).floats == [0.25])
        #expect(GGUFArray.float32([0.25]).ints == nil)
        #expect(GGUFArray.string(["a"]).strings == ["a"])
        #expect(GGUFArray.string(["a"]).floats == nil)
        #expect(GGUFArray.array([.int8([1])]).count == 1)
        #expect(GGUFValue.array(.uint8([1, 2])).array?.count == 2)
        #expect(GGUFValue.string("x").array == nil)
        #expect(GGUFValue.bool(false).bool == false)
    }
}
