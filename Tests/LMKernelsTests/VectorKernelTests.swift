import Foundation
import LMKernels
import TestSupport
import Testing

/// The float-vector kernels of every kernel set against scalar references.
@Suite struct VectorKernelTests {
    @Test("SiLU and tanh-GELU gating match libm's formulas", arguments: [Gating.silu, .geluTanh])
    func gatingMatchesScalarFormulas(_ gating: Gating) {
        var rng = SplitMix64(seed: 3)
        let n = 1003   // a tail that is not a multiple of 8
        let g0 = (0..<n).map { i in i < 40 ? Float(i - 20) * 5 : Float(rng.nextUnit() * 24 - 12) }
        let u = (0..<n).map { _ in Float(rng.nextUnit() * 2 - 1) }
        for set in KernelSet.supported {
            var g = g0
            g.withUnsafeMutableBufferPointer { gp in
                u.withUnsafeBufferPointer { set.vectorKernels.gate(gating, gp.baseAddress!, $0.baseAddress!, 0..<n) }
            }
            for i in 0..<n {
                let x = Double(g0[i])
                let act = gating == .silu ? x / (1 + exp(-x))
                    : 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
                let expected = act * Double(u[i])
                #expect(abs(Double(g[i]) - expected) <= 2e-6 * max(1, abs(expected)), "\(set) \(gating) x=\(x): \(g[i]) vs \(expected)")
            }
        }
    }

    @Test func vectorFloatToHalfEqualsTheScalarConversion() {
        // Specials, the half boundaries (subnormal, normal, overflow to infinity, ties), and a
        // stride over every Float bit pattern.
        var inputs: [Float] = [0, -0, .infinity, -.infinity, .nan, -.nan, 65504, 65519.99, 65520, -65520, 6.1035156e-05,
                               6.097555e-05, 5.9604645e-08, 2.9802322e-08, 2.9802326e-08, 1e-10, -1e-10, 1, 1.0009766, 1.00048828125]
        var bits: UInt32 = 0
        while bits < UInt32.max - 65_521 { inputs.append(Float(bitPattern: bits)); bits += 65_521 }
        var mismatches = 0
        var i = 0
        while i + 8 <= inputs.count {
            let v = SIMD8<Float>(inputs[i..<(i + 8)])
            let h = floatToHalf(v)
            for j in 0..<8 where h[j] != floatToHalf(inputs[i + j]) {
                mismatches += 1
                if mismatches < 5 { Issue.record("\(inputs[i + j]) (\(inputs[i + j].bitPattern)): \(h[j]) vs \(floatToHalf(inputs[i + j]))") }
            }
            i += 8
        }
        #expect(mismatches == 0)
        #expect(inputs.count > 60_000)
    }
}

/// The vector argmax of every kernel set against a scalar scan (first index of the largest value).
@Suite struct VectorArgmaxTests {
    static func scalar(_ x: [Float]) -> (Int, Float) {
        var best = 0
        for i in x.indices where x[i] > x[best] || x[best].isNaN && !x[i].isNaN { best = i }
        return (best, x[best])
    }

    @Test("first index of the largest value, ties, tails, infinities and NaNs", arguments: [1, 7, 8, 9, 63, 1003, 262_144])
    func matchesTheScalarScan(count: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        for trial in 0..<6 {
            // Few distinct values, so the largest recurs in many lanes (ties decide the index).
            var x = (0..<count).map { _ in Float(Int(rng.nextUnit() * 5)) - 2 }
            switch trial {
            case 1: x = x.map { $0 == 2 ? -.infinity : $0 }
            case 2: x = Array(repeating: -.infinity, count: count)
            case 3: if count > 3 { x[3] = .nan; x[count - 1] = 100 }
            case 4: x[count - 1] = .infinity
            case 5: x = x.map { _ in Float(rng.nextUnit() * 60 - 30) }
            default: break
            }
            let expected = Self.scalar(x)
            for set in KernelSet.supported {
                let found = x.withUnsafeBufferPointer { set.vectorKernels.argmax($0.baseAddress!, count) }
                #expect(found.index == expected.0 && found.value == expected.1, "\(set) n=\(count) trial \(trial): \(found) vs \(expected)")
            }
        }
    }
}
