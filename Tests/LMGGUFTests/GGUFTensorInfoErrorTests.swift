import LMGGUF
import TestSupport
import Testing

/// Corrupt tensor infos are rejected with the error that names the tensor. The files have no
/// key-values, so the first tensor info starts right after the 24-byte header.
struct GGUFTensorInfoErrorTests {
    typealias Case = GGUFCorruptionCase
    typealias Tensor = GGUFBuilder.Tensor

    /// Offset of the type id of a first tensor named "t" with one dimension: name length (8),
    /// name (1), dimension count (4), one dimension (8).
    static let firstTypeID = Layout.header + 8 + 1 + 4 + 8

    static let typeCases: [Case] = [UInt32(4), 5, 9, 15, 16, 39, .max].map { id in
        Case("tensor type \(id)", .unknownTensorType(tensor: "t", typeID: id, offset: firstTypeID)) {
            $0.tensors = [.info("t", dims: [256], typeID: id)]
        }
    }

    static let shapeCases: [Case] = [
        Case("five dimensions", .invalidShape(tensor: "t", dims: [5], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [1, 1, 1, 1, 1], typeID: 0)]
        },
        Case("zero dimensions", .invalidShape(tensor: "t", dims: [0], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [], typeID: 0)]
        },
        Case("dimension count UInt32.max", .invalidShape(tensor: "t", dims: [4_294_967_295], offset: Layout.header)) {
            var t = Tensor.info("t", dims: [1, 1], typeID: 0)
            t.dimCount = .max
            $0.tensors = [t]
        },
        Case("dimension above Int.max", .invalidShape(tensor: "t", dims: [.max], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [.max], typeID: 0)]
        },
        Case("element count overflows", .invalidShape(tensor: "t", dims: [1 << 32, 1 << 32], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [1 << 32, 1 << 32], typeID: 0)]
        },
        Case("four dimensions overflow", .invalidShape(tensor: "t", dims: [1 << 16, 1 << 16, 1 << 16, 1 << 16], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [1 << 16, 1 << 16, 1 << 16, 1 << 16], typeID: 0)]
        },
        Case("byte count overflows", .invalidShape(tensor: "t", dims: [1 << 62], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [1 << 62], typeID: 0)]
        },
        Case("Q4_1 row of 33", .invalidShape(tensor: "t", dims: [33, 2], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [33, 2], typeID: GGMLType.q4_1.rawValue)]
        },
        Case("Q8_0 row of 16 with 64 elements", .invalidShape(tensor: "t", dims: [16, 4], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [16, 4], typeID: GGMLType.q8_0.rawValue)]
        },
        Case("Q4_K row of 128", .invalidShape(tensor: "t", dims: [128], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [128], typeID: GGMLType.q4_K.rawValue)]
        },
        Case("Q6_K row of 288", .invalidShape(tensor: "t", dims: [288, 1], offset: Layout.header)) {
            $0.tensors = [.info("t", dims: [288, 1], typeID: GGMLType.q6_K.rawValue)]
        },
        Case("second tensor's shape", .invalidShape(tensor: "b", dims: [31], offset: Layout.header + 33)) {
            $0.tensors = [.info("a", dims: [32], typeID: 0), .info("b", dims: [31], typeID: GGMLType.q8_0.rawValue)]
        },
    ]

    static let placementCases: [Case] = [
        Case("duplicate tensor name", .duplicateTensor("t", offset: Layout.header + 33)) {
            $0.addTensor("t", .f32, dims: [4])
            $0.addTensor("t", .f32, dims: [4])
        },
        Case("offset 16 at alignment 32", .misalignedTensor(tensor: "t", dataOffset: 16, alignment: 32)) {
            $0.addTensor("t", .f32, dims: [4])
            $0.tensors[0].offset = 16
        },
        Case("offset 1", .misalignedTensor(tensor: "t", dataOffset: 1, alignment: 32)) {
            $0.addTensor("t", .f32, dims: [4])
            $0.tensors[0].offset = 1
        },
        Case("offset 32 at alignment 64", .misalignedTensor(tensor: "b", dataOffset: 32, alignment: 64)) {
            $0.alignment = 64
            $0.add("general.alignment", .uint32(64))
            $0.addTensor("a", .f32, dims: [4])
            $0.addTensor("b", .f32, dims: [4])
            $0.tensors[1].offset = 32
        },
        Case("data past the end", .tensorOutOfRange(tensor: "t", dataOffset: 32, byteCount: 16, dataSectionSize: 16)) {
            $0.addTensor("t", .f32, dims: [4])
            $0.tensors[0].offset = 32
        },
        Case("offset near UInt64.max", .tensorOutOfRange(tensor: "t", dataOffset: .max & ~31, byteCount: 16, dataSectionSize: 16)) {
            $0.addTensor("t", .f32, dims: [4])
            $0.tensors[0].offset = .max & ~31
        },
        Case("data running over the end", .tensorOutOfRange(tensor: "a", dataOffset: 32, byteCount: 32, dataSectionSize: 48)) {
            $0.addTensor("a", .f32, dims: [8])
            $0.addTensor("b", .f32, dims: [4])
            $0.tensors[0].offset = 32
        },
        Case("a huge tensor in a small file", .tensorOutOfRange(tensor: "t", dataOffset: 0, byteCount: 1 << 40, dataSectionSize: 16)) {
            $0.addTensor("t", .f32, dims: [4])
            $0.tensors[0].dims = [1 << 20, 1 << 18]
        },
    ]

    @Test("an unknown or unsupported tensor type throws naming the tensor", arguments: typeCases)
    func unknownTensorType(c: Case) {
        #expect(throws: c.expected) { try GGUFFile(bytes: MappedBytes(copying: c.bytes)) }
    }

    @Test("an invalid tensor shape throws naming the tensor", arguments: shapeCases)
    func invalidShape(c: Case) {
        #expect(throws: c.expected) { try GGUFFile(bytes: MappedBytes(copying: c.bytes)) }
    }

    @Test("duplicate, misaligned or out-of-range tensor data throws naming the tensor", arguments: placementCases)
    func badPlacement(c: Case) {
        #expect(throws: c.expected) { try GGUFFile(bytes: MappedBytes(copying: c.bytes)) }
    }
}
