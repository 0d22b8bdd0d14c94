// swift-tools-version: 6.2
import PackageDescription

// Module arrows point one way:
//   LMGGUF (file format) -> LMKernels (tensor kernels) -> LMTransformer (model) -> LMSession (API)
//   LMTokenizer depends only on LMGGUF; LMGrammar depends on nothing.
//
// No unsafeFlags: a package that sets them cannot be a versioned dependency. The opt-in trait
// `X86V3` swaps in the AVX2 kernels (Sources/LMKernels/Dot/AVX2, `#if X86V3`), which call x86
// instructions through the compiler's Builtin module; they compile only for an x86-64-v3 target,
// given on the command line (Scripts/x86v3 passes both, see the README). Never enable it for ARM.
let avx2Kernels: [SwiftSetting] = [
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
        .trait(name: "X86V3", description: "AVX2 kernels; build with -Xcc -march=x86-64-v3 -Xswiftc -Xcc -Xswiftc -march=x86-64-v3 (Scripts/x86v3). Opt-in; x86-64 only."),
    ],
    targets: [
        .target(name: "LMGGUF"),
        .target(name: "LMKernels", dependencies: ["LMGGUF"], swiftSettings: avx2Kernels),
        .target(name: "LMTokenizer", dependencies: ["LMGGUF"]),
        .target(name: "LMTransformer", dependencies: ["LMGGUF", "LMKernels", "LMTokenizer"]),
        .target(name: "LMGrammar"),
        .target(name: "LMSession", dependencies: ["LMTransformer", "LMTokenizer", "LMGrammar"]),
        .executableTarget(name: "lmsession", dependencies: ["LMSession", "LMTransformer", "LMTokenizer", "LMGGUF"]),

        .testTarget(name: "LMGGUFTests", dependencies: ["LMGGUF", "TestSupport"]),
        .testTarget(name: "LMKernelsTests", dependencies: ["LMKernels", "LMGGUF", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LMTokenizerTests", dependencies: ["LMTokenizer", "LMGGUF", "TestSupport"]),
        .testTarget(name: "LMTransformerTests", dependencies: ["LMTransformer", "LMTokenizer", "LMGGUF", "TestSupport"]),
        .testTarget(name: "LMSessionTests", dependencies: ["LMSession", "TestSupport"]),
        .testTarget(name: "LMGrammarTests", dependencies: ["LMGrammar", "TestSupport"]),
        // Runs the built `lmsession` binary (built with the tests), so it imports no module of it.
        .testTarget(name: "lmsessionTests", dependencies: ["TestSupport"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
