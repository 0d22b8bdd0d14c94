import Foundation
import LMKernels
import LMTransformer

/// `lmsession bench --memory-bandwidth [--threads N] [--repetitions 5] [--json]`: the machine's
/// read bandwidth from main memory, the ceiling of decode speed (each decoded token reads every
/// weight once), measured with the thread pool the matmuls use.
///
/// Fills a 1 GiB buffer (far larger than any last-level cache; every thread writes its own share,
/// so its pages sit near the thread that reads them), then reads all of it `--repetitions` times,
/// each thread summing its contiguous share with 16-byte loads, and reports the fastest pass in
/// GB/s (10^9 bytes a second), with every pass listed for spread. Default threads: as `bench`. Throws ``CLIError/failed(_:)`` when the buffer cannot be allocated.
enum BandwidthBench {
    static let bufferBytes = 1 << 30

    static func run(_ a: CommandLineArguments) throws(CLIError) {
        let passes = try a.int("repetitions") ?? 5
        guard passes > 0 else { throw .usage("--repetitions must be positive") }
        let threads = try a.threads() ?? InferenceContext.defaultThreadCount
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, 1 << 21, bufferBytes) == 0, let buffer = raw else {
            throw .failed("cannot allocate the \(bufferBytes >> 20) MiB buffer")
        }
        defer { free(buffer) }
        let pool = ThreadPool(threads: threads)
        let words = bufferBytes / MemoryLayout<UInt64>.stride
        let base = buffer.bindMemory(to: UInt64.self, capacity: words)
        let sums = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: threads)
        defer { sums.deallocate() }
        pool.run { part, parts in
            let share = ThreadPool.chunk(0..<words, index: part, count: parts, alignment: 64)
            for i in share { base[i] = UInt64(truncatingIfNeeded: i) }
        }
        var rates: [Double] = []
        for _ in 0..<passes {
            let t0 = DispatchTime.now().uptimeNanoseconds
            pool.run { part, parts in
                let share = ThreadPool.chunk(0..<words, index: part, count: parts, alignment: 64)
                sums[part] = readSum(UnsafeRawPointer(base + share.lowerBound), bytes: share.count * 8)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            rates.append(Double(bufferBytes) / seconds / 1e9)
        }
        // The sums are printed nowhere; reading them keeps the loads from being optimised away.
        let check = sums.reduce(0, &+)
        let best = rates.max() ?? 0
        let passList = rates.map { BenchCommand.fmt($0) }.joined(separator: ",")
        if a.has("json") {
            print("{\"read_bandwidth_gb_s\":\(BenchCommand.fmt(best)),\"threads\":\(threads),\"buffer_bytes\":\(bufferBytes),"
                + "\"passes_gb_s\":[\(passList)],\"checksum\":\(check)}")
        } else {
            print("read bandwidth: \(BenchCommand.fmt(best)) GB/s (fastest of \(passes) passes over \(bufferBytes >> 20) MiB, \(threads) threads)")
            print("passes: \(passList) GB/s")
        }
    }

    /// The wrapping sum of `bytes` (a multiple of 64) at `start`, as 16-byte lanes in four
    /// independent accumulators so the loads are not serialised behind the adds.
    @inline(never)
    static func readSum(_ start: UnsafeRawPointer, bytes: Int) -> UInt64 {
        var a = SIMD2<UInt64>(), b = SIMD2<UInt64>(), c = SIMD2<UInt64>(), d = SIMD2<UInt64>()
        var offset = 0
        while offset < bytes {
            a &+= start.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
            b &+= start.loadUnaligned(fromByteOffset: offset + 16, as: SIMD2<UInt64>.self)
            c &+= start.loadUnaligned(fromByteOffset: offset + 32, as: SIMD2<UInt64>.self)
            d &+= start.loadUnaligned(fromByteOffset: offset + 48, as: SIMD2<UInt64>.self)
            offset += 64
        }
        let s = a &+ b &+ c &+ d
        return s[0] &+ s[1]
    }
}
