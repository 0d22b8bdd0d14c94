import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Counts heap allocations that go through the Swift runtime (`swift_slowAlloc`, under every class
/// instance, array or set buffer, closure context, box and `UnsafeMutablePointer.allocate`) made
/// by one measured thread and by the compute pool's workers.
///
/// glibc 2.34+ has no malloc hooks, Swift cannot interpose `malloc`, and the runtime's own
/// allocation hook (`_swift_allocObject`) breaks retains on Linux once enabled, so this redirects
/// libswiftCore's PLT slot for `malloc` (its `R_X86_64_JUMP_SLOT` relocation, found through the
/// loaded image's dynamic section) to a counting wrapper. Other tests' threads are not counted,
/// so tests may run in parallel.
///
/// Where the patch is expected to work (``isExpectedToWork``: Linux with glibc on x86-64 or arm64, whose
/// `R_AARCH64_JUMP_SLOT` entries have the same `Elf64_Rela` layout) a counter that cannot install or
/// does not see a known allocation fails the allocation tests (``requireCounting()``) instead of
/// letting them pass with nothing measured.
public enum AllocationCounter {
    typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?

    /// Whether this platform's libswiftCore calls `malloc` through a PLT slot the counter can patch.
    public static let isExpectedToWork: Bool = {
        #if os(Linux) && canImport(Glibc) && (arch(x86_64) || arch(arm64))
        true
        #else
        false
        #endif
    }()

    /// Whether the allocation suites run: always where the counter is expected to work (they then fail
    /// when it does not), elsewhere only when it happens to install.
    public static var isEnabled: Bool { isExpectedToWork || installed }

    public struct NotCounting: Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks that the counter is installed and counts a heap allocation made on this thread (a new
    /// buffer stored where it outlives the measurement, so the optimizer cannot put it on the stack).
    /// Call it in every test that expects zero allocations, so that zero means none were made.
    /// - Throws: ``NotCounting`` when it is not installed or counted nothing.
    public static func requireCounting() throws(NotCounting) {
        guard let seen = count({ canary.withLock { $0 = [Int](repeating: $0.count + 1, count: 64) } }) else {
            throw NotCounting(description: "the malloc hook did not install (libswiftCore's malloc slot not found or not writable)")
        }
        guard seen >= 1 else { throw NotCounting(description: "the malloc hook is installed but counted no allocation of a new array") }
    }

    private static let canary = Mutex<[Int]>([])

    /// Counts `body`'s allocations on the calling thread and on pool worker threads, or returns
    /// `nil` when the slot could not be found (then nothing can be measured).
    public static func count(_ body: () throws -> Void) rethrows -> Int? {
        guard installed else { return nil }
        return try measuring.withLock { _ in
            allocations.store(0, ordering: .sequentiallyConsistent)
            measuredThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
            defer { measuredThread.store(0, ordering: .sequentiallyConsistent) }
            try body()
            return allocations.load(ordering: .sequentiallyConsistent)
        }
    }

    private static let allocations = Atomic<Int>(0)
    /// `pthread_self()` of the measured thread, 0 when not measuring.
    private static let measuredThread = Atomic<UInt>(0)
    /// One measurement at a time.
    private static let measuring = Mutex<Void>(())
    private static let libcMalloc: Malloc? = dlsym(nil, "malloc").map { unsafeBitCast($0, to: Malloc.self) }

    private static let installed: Bool = {
        guard libcMalloc != nil, threadName != nil, let slot = mallocSlot(inLibrary: "libswiftCore.so") else { return false }
        _ = allocations.load(ordering: .relaxed)
        _ = measuredThread.load(ordering: .relaxed)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = UnsafeMutableRawPointer(bitPattern: Int(bitPattern: slot) & ~(page - 1))
        guard mprotect(start, page, PROT_READ | PROT_WRITE) == 0 else { return false }
        let counting: Malloc = { size in
            let measured = AllocationCounter.measuredThread.load(ordering: .relaxed)
            if measured != 0, measured == UInt(pthread_self()) || AllocationCounter.isPoolWorker() {
                AllocationCounter.allocations.add(1, ordering: .relaxed)
            }
            return AllocationCounter.libcMalloc?(size)
        }
        slot.storeBytes(of: counting, as: Malloc.self)
        return true
    }()

    /// Address of the GOT entry through which `library` calls `malloc`, from the ELF64 image
    /// mapped in this process (System V gABI: program headers, `PT_DYNAMIC`, `DT_JMPREL`).
    private static func mallocSlot(inLibrary library: String) -> UnsafeMutableRawPointer? {
        // Read to the end: procfs reports size 0, so whole-file readers stop after one page.
        guard let data = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd(),
              let maps = String(data: data, encoding: .utf8),
              let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/" + library) }),
              let baseHex = line.split(separator: "-").first, let baseAddress = UInt(baseHex, radix: 16),
              let base = UnsafeRawPointer(bitPattern: baseAddress),
              base.load(as: UInt32.self) == 0x464C_457F else { return nil }  // "\u{7F}ELF"
        let phoff = Int(base.load(fromByteOffset: 32, as: UInt64.self))
        let phentsize = Int(base.load(fromByteOffset: 54, as: UInt16.self))
        let phnum = Int(base.load(fromByteOffset: 56, as: UInt16.self))
        var dynamic: UnsafeRawPointer?
        for i in 0..<phnum where base.load(fromByteOffset: phoff + i * phentsize, as: UInt32.self) == 2 {  // PT_DYNAMIC
            dynamic = base + Int(base.load(fromByteOffset: phoff + i * phentsize + 16, as: UInt64.self))
        }
        guard let dynamic else { return nil }
        // ld.so may have relocated the address entries in place; either way make them absolute.
        func address(_ value: UInt64) -> UnsafeRawPointer {
            value >= UInt64(baseAddress) ? UnsafeRawPointer(bitPattern: UInt(value))! : base + Int(value)
        }
        var jmprel: UnsafeRawPointer?, symtab: UnsafeRawPointer?, strtab: UnsafeRawPointer?, relSize = 0
        var entry = dynamic
        while case let tag = entry.load(as: Int64.self), tag != 0 {
            let value = entry.load(fromByteOffset: 8, as: UInt64.self)
            switch tag {
            case 23: jmprel = address(value)       // DT_JMPREL
            case 2: relSize = Int(value)           // DT_PLTRELSZ
            case 6: symtab = address(value)        // DT_SYMTAB
            case 5: strtab = address(value)        // DT_STRTAB
            default: break
            }
            entry += 16
        }
        guard let jmprel, let symtab, let strtab else { return nil }
        for r in stride(from: 0, to: relSize, by: 24) {                       // Elf64_Rela
            let info = jmprel.load(fromByteOffset: r + 8, as: UInt64.self)
            let nameOffset = Int(symtab.load(fromByteOffset: Int(info >> 32) * 24, as: UInt32.self))  // Elf64_Sym.st_name
            if strcmp(strtab.assumingMemoryBound(to: CChar.self) + nameOffset, "malloc") == 0 {
                return UnsafeMutableRawPointer(mutating: base + Int(jmprel.load(fromByteOffset: r, as: UInt64.self)))
            }
        }
        return nil
    }

    private typealias GetName = @convention(c) (pthread_t, UnsafeMutablePointer<CChar>?, Int) -> Int32
    /// glibc's `pthread_getname_np` (a GNU extension the Glibc module does not import).
    private static let threadName: GetName? = dlsym(nil, "pthread_getname_np").map { unsafeBitCast($0, to: GetName.self) }

    /// Whether the current thread is one of `ThreadPool`'s workers (named "LMKernels.worker.N";
    /// the kernel keeps the first 15 bytes). Allocates nothing: it runs inside `malloc`.
    private static func isPoolWorker() -> Bool {
        var name = (UInt64(0), UInt64(0))
        let prefix: StaticString = "LMKernels.w"
        return withUnsafeMutableBytes(of: &name) { buffer -> Bool in
            guard let base = buffer.baseAddress, let threadName,
                  threadName(pthread_self(), base.assumingMemoryBound(to: CChar.self), 16) == 0 else { return false }
            return memcmp(base, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
        }
    }
}
