// swift-tools-version: 6.2
import PackageDescription

// Module arrows point one way:
//   LMGGUF (file format) -> LMKernels (tensor kernels) -> LMTransformer (model) -> LMSession (API)
//   LMTokenizer depends only on LMGGUF; LMGrammar depends on nothing.
//
// No unsafeFlags by default: a package that sets them cannot be a versioned dependency.
// The opt-in trait `X86V3` compiles for x86-64-v3 (AVX2, FMA, F16C); never enable it for ARM.
let x86v3: [SwiftSetting] = [
    .unsafeFlags(["-Xcc", "-march=x86-64-v3"], .when(traits: ["X86V3"])),
]
// The AVX2 kernels (Sources/LMKernels/Dot/AVX2, `#if X86V3`) call x86 instructions through the
// compiler's Builtin module; only that trait's builds need it.
let avx2Kernels: [SwiftSetting] = x86v3 + [
    .enableExperimentalFeature("BuiltinModule", .when(traits: ["X86V3"])),
]

let package = Package(
    name: "LMSession",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LMSession", targets: ["LMSession"]),
        .executable(name: "lmsession", targets: ["lmsession"]),
    ],
    traits: [
        .trait(name: "X86V3", description: "Compile kernels for x86-64-v3 (AVX2/FMA/F16C). Opt-in; x86-64 only."),
    ],
    targets: [
        .target(name: "LMGGUF", swiftSettings: x86v3),
        .target(name: "LMKernels", dependencies: ["LMGGUF"], swiftSettings: avx2Kernels),
        .target(name: "LMTokenizer", dependencies: ["LMGGUF"], swiftSettings: x86v3),
        .target(name: "LMTransformer", dependencies: ["LMGGUF", "LMKernels", "LMTokenizer"], swiftSettings: x86v3),
        .target(name: "LMGrammar", swiftSettings: x86v3),
        .target(name: "LMSession", dependencies: ["LMTransformer", "LMTokenizer", "LMGrammar"], swiftSettings: x86v3),
        .executableTarget(name: "lmsession", dependencies: ["LMSession", "LMTransformer", "LMTokenizer", "LMGGUF"], swiftSettings: x86v3),

        .testTarget(name: "LMGGUFTests", dependencies: ["LMGGUF", "TestSupport"]),
        .testTarget(name: "LMKernelsTests", dependencies: ["LMKernels", "LMGGUF", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LMTokenizerTests", dependencies: ["LMTokenizer", "LMGGUF", "TestSupport"]),
        .testTarget(name: "LMTransformerTests", dependencies: ["LMTransformer", "LMTokenizer", "LMGGUF", "TestSupport"]),
        .testTarget(name: "LMSessionTests", dependencies: ["LMSession", "TestSupport"]),
        .testTarget(name: "LMGrammarTests", dependencies: ["LMGrammar", "TestSupport"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
