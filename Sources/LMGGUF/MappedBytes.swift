#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Read-only bytes of a GGUF file: either a private read-only memory mapping of the file (never
/// copied; pages load on first touch) or an owned copy of an in-memory buffer (for tests).
///
/// `@unchecked Sendable`: the bytes are never written after `init`, so sharing them is safe.
public final class MappedBytes: @unchecked Sendable {
    /// First byte of the file; valid for `count` bytes while this object lives.
    public let base: UnsafeRawPointer
    /// Size in bytes.
    public let count: Int
    private let isMapped: Bool

    /// Maps `path` read-only.
    /// - Throws: ``GGUFError/cannotOpen(path:reason:)`` when the file cannot be opened, stat'ed or mapped.
    public init(mapping path: String) throws(GGUFError) {
        // O_NONBLOCK: opening a named pipe must not wait for a writer; it is then refused below
        // as not a regular file. It has no effect on reading or mapping a regular file.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .cannotOpen(path: path, reason: "not a regular file") }
        let size = Int(st.st_size)
        guard size > 0 else { throw .truncated(what: "header", offset: 0, needed: 4) }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        base = UnsafeRawPointer(p)
        count = size
        isMapped = true
    }

    /// Copies `bytes` into a buffer aligned to 64 bytes.
    public init(copying bytes: [UInt8]) {
        let p = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 64)
        bytes.withUnsafeBytes { if let src = $0.baseAddress { p.copyMemory(from: src, byteCount: bytes.count) } }
        base = UnsafeRawPointer(p)
        count = bytes.count
        isMapped = false
    }

    /// Drops the pages lying wholly inside `start ..< start + byteCount` from this process's resident
    /// memory (`madvise(MADV_DONTNEED)` on a private read-only file mapping: the bytes stay the file's
    /// and load again on the next touch). For tensors the runtime has copied into another layout.
    /// A no-op for an in-memory copy, and for a range outside the bytes.
    public func releasePages(_ start: UnsafeRawPointer, byteCount: Int) {
        guard isMapped, start >= base, byteCount > 0, start + byteCount <= base + count else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lo = (Int(bitPattern: start) + page - 1) / page * page
        let hi = (Int(bitPattern: start) + byteCount) / page * page
        guard hi > lo, let p = UnsafeMutableRawPointer(bitPattern: lo) else { return }
        _ = madvise(p, hi - lo, MADV_DONTNEED)
    }

    deinit {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }
}
