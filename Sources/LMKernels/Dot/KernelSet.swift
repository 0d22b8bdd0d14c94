import Foundation
import LMCPUFeatures
import LMGGUF
import LMKernelsCore
#if arch(x86_64)
import LMKernelsAVX2
import LMKernelsVNNI
#endif

/// A set of matrix kernels for one instruction set. The package is built for the baseline target
/// (x86-64 with SSE2, or arm64), so it runs everywhere; the instruction-set-specific kernels live
/// in modules compiled with their target features (LMKernelsAVX2) and are chosen once per process
/// from what the CPU reports (CPUID and XGETBV), never from build flags.
public enum KernelSet: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Swift SIMD code for the baseline target: every type, every CPU; the reference.
    case portable
    /// x86-64 with AVX2, FMA, F16C and BMI2 (x86-64-v3): byte multiply-adds (`vpmaddubsw`) for
    /// every quantized type (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q5_K, Q6_K); the portable
    /// kernels, compiled for the baseline, for the float types.
    case avx2
    /// The AVX2 kernels compiled again with AVX-512 VNNI on 256-bit registers (`vpdpbusd`, AVX-512
    /// VL and BW): one instruction for each byte multiply-add pair of the legacy formats' dot products.
    case avx512vnni

    /// The set this process uses: the best one the CPU supports, unless `$LMSESSION_KERNELS`
    /// names another supported set (`portable`, `avx2`, `avx512vnni`) to compare against. Read once.
    public static let active: KernelSet = {
        if let name = ProcessInfo.processInfo.environment["LMSESSION_KERNELS"],
           let requested = KernelSet(rawValue: name.lowercased()), requested.isSupported {
            return requested
        }
        return supported.last ?? .portable
    }()

    /// Every set this CPU can run, from the most portable to the fastest.
    public static var supported: [KernelSet] { allCases.filter(\.isSupported) }

    /// Whether this CPU (and OS) can run the set.
    public var isSupported: Bool {
        switch self {
        case .portable:
            return true
        case .avx2:
            #if arch(x86_64)
            let needed = UInt32(LM_CPU_AVX2 | LM_CPU_FMA | LM_CPU_F16C | LM_CPU_BMI2)
            return CPUFeatures.bits & needed == needed
            #else
            return false
            #endif
        case .avx512vnni:
            #if arch(x86_64)
            let needed = UInt32(LM_CPU_AVX512F | LM_CPU_AVX512VL | LM_CPU_AVX512BW | LM_CPU_AVX512VNNI)
            return KernelSet.avx2.isSupported && CPUFeatures.bits & needed == needed
            #else
            return false
            #endif
        }
    }

    /// `w` with the layout this set's decode kernel reads, when it has its own for `w.type` (AVX2 and
    /// AVX-512 VNNI: Q4_0, Q4_1, Q5_0, Q5_1, Q8_0 and Q6_K repacked into tiles of 8 rows, as large as the
    /// weights themselves; Q4_K too, 2.8% larger with its six-bit scales unpacked to bytes); `w`
    /// unchanged otherwise. Done once at load.
    ///
    /// - Parameter release: called with each stretch of `w`'s bytes (`start`, byte count) once it has
    ///   been copied into the tiles, in row order, so a caller that maps the file can let those pages
    ///   go while the rest is still being packed (peak memory stays near one copy). Not called when
    ///   nothing is repacked.
    public func prepare(_ w: WeightMatrix, release: ((UnsafeRawPointer, Int) -> Void)? = nil) -> WeightMatrix {
        var prepared = w
        #if arch(x86_64)
        switch self {
        case .portable: break
        case .avx2: prepared.tiles = LMKernelsAVX2.AVX2Kernels.decodeTiles(for: w, release: release)
        case .avx512vnni: prepared.tiles = LMKernelsVNNI.AVX2Kernels.decodeTiles(for: w, release: release)
        }
        #endif
        return prepared
    }

    /// This set's float-vector kernels (activations, attention).
    public var vectorKernels: VectorKernels { DotKernels.vector(in: self) }

    /// Weight types with kernels of this set's own; the others use the portable kernels.
    public var ownTypes: [GGMLType] { DotKernels.ownTypes(self) }

    public var description: String { rawValue }
}

/// The CPU's `LM_CPU_*` feature bits, read once.
enum CPUFeatures {
    static let bits: UInt32 = lm_cpu_features()
}
