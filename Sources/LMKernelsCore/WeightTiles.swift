/// A weight matrix repacked once at load for a kernel set's decode kernel: whole tiles of 8 rows,
/// each tile's blocks contiguous (`blockBytes` bytes per block of 8 rows), so one pass over a tile
/// computes 8 rows' dot products with the rows in the lanes of one register. Which layout a tile
/// block has is the kernel set's business (see the AVX2 module's `AVX2DecodeTiles`); this type
/// only owns the memory and finds tiles.
///
/// `@unchecked Sendable`: written once while the model loads, read-only afterwards.
public struct WeightTiles: @unchecked Sendable {
    /// Owns the allocation; the pointers below stay valid while any copy of this value lives.
    public final class Storage: @unchecked Sendable {
        public let base: UnsafeMutableRawPointer
        public let byteCount: Int

        /// Allocates `byteCount` bytes, 64-byte aligned, uninitialised.
        public init(byteCount: Int) {
            self.byteCount = byteCount
            base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
        }

        deinit { base.deallocate() }
    }

    public let storage: Storage
    /// Tile 0's first byte (a slice's tiles start inside its parent's storage).
    public let base: UnsafeRawPointer
    /// Rows covered, a multiple of 8: rows `0..<rows` are tiled, later rows are not.
    public let rows: Int
    /// Bytes of one tile (8 rows, all blocks of a row).
    public let tileBytes: Int

    public init(storage: Storage, base: UnsafeRawPointer, rows: Int, tileBytes: Int) {
        precondition(rows % 8 == 0, "tiles cover whole groups of 8 rows")
        self.storage = storage
        self.base = base
        self.rows = rows
        self.tileBytes = tileBytes
    }

    /// The tile holding rows `8 * index ..< 8 * index + 8`.
    @inlinable @inline(__always)
    public func tile(_ index: Int) -> UnsafeRawPointer { base + index * tileBytes }

    /// The tiles of rows `range` of the matrix, when `range` starts on a tile boundary; nil otherwise.
    public func slice(rows range: Range<Int>) -> WeightTiles? {
        guard range.lowerBound % 8 == 0, range.lowerBound < rows else { return nil }
        let covered = min(rows - range.lowerBound, range.count) / 8 * 8
        guard covered > 0 else { return nil }
        return WeightTiles(storage: storage, base: tile(range.lowerBound / 8), rows: covered, tileBytes: tileBytes)
    }
}
