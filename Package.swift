// swift-tools-version: 6.2
import PackageDescription

// Module arrows point one way:
//   LMGGUF (file format) -> LMKernels (tensor kernels) -> LMTransformer (model) -> LMSession (API)
//   LMTokenizer depends only on LMGGUF; LMGrammar, LMJinja and LMImage (PNG and JPEG decoded to RGB for image
//   attachments) depend on nothing;
//   LMTransformer uses LMJinja to render a GGUF's own chat template.
//   LMVision (the image encoder and projector of llama.cpp's mmproj GGUFs) sits on LMGGUF, LMKernels and LMImage.
//   LMGeneration (the decode step: sample, constrain, detokenize; stop rules) sits on LMTransformer,
//   LMTokenizer and LMGrammar; the session and the command line both decode through it. A module of its
//   own: `lmsession generate` needs the step without the session (raw prompts, repetition penalty), and it
//   is tested with a scripted forward pass, no model; its per-sequence state is what a batching scheduler
//   steps for many sequences before one batched forward pass.
// LMKernels is split by instruction set: LMKernelsCore holds the types and the generic row loops
// (`@inlinable public`, so each kernel module specialises them for its own instruction set; Swift
// 6.3.1 did not specialise `@inlinable package` bodies in other modules, hence public),
// LMKernelsAVX2 the x86-64 AVX2 kernels, and LMKernels the portable kernels, the public API and
// the run-time choice between them (LMCPUFeatures reads CPUID).
//
// The package builds for the baseline target (x86-64 with SSE2, arm64) and picks the fastest
// kernels at run time, so `swift build -c release` with no flags is the fast build. Only the
// AVX2 module gets target features: `-target-feature` through clang's cc1 options, which Swift's
// code generation honours as `-march` would, and which an arm64 build only warns about ("not a
// recognized feature for this target (ignoring feature)") where `-mavx2`/`-march` are errors.
// Its code is `#if arch(x86_64)` and is called only after the run-time check. SwiftPM accepts
// these unsafeFlags in a versioned dependency from tools-version 6.2 (checked with a tagged
// file:// dependency). The Builtin module gives the AVX2 code LLVM's x86 intrinsics.
func targetFeatures(_ features: [String]) -> [String] {
    features.flatMap { ["-Xcc", "-Xclang", "-Xcc", "-target-feature", "-Xcc", "-Xclang", "-Xcc", "+" + $0] }
}
let avx2Kernels: [SwiftSetting] = [
    .enableExperimentalFeature("BuiltinModule"),
    .unsafeFlags(targetFeatures(["avx2", "fma", "f16c", "bmi2"])),
]
// The same sources (Sources/LMKernelsVNNI holds symbolic links to LMKernelsAVX2's files) built again
// with AVX-512 VNNI on 256-bit registers (EVEX `vpdpbusd`, AVX-512 VL): `LM_VNNI` swaps the byte
// multiply-add pairs for it. Chosen at run time only where CPUID and XGETBV report all of these.
let vnniKernels: [SwiftSetting] = [
    .enableExperimentalFeature("BuiltinModule"),
    .define("LM_VNNI"),
    .unsafeFlags(targetFeatures(["avx2", "fma", "f16c", "bmi2", "avx512f", "avx512vl", "avx512bw", "avx512vnni"])),
]

let package = Package(
    name: "LMSession",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LMSession", targets: ["LMSession"]),
        .executable(name: "lmsession", targets: ["lmsession"]),
    ],
    targets: [
        .target(name: "LMGGUF"),
        .target(name: "LMCPUFeatures"),
        .target(name: "LMKernelsCore", dependencies: ["LMGGUF"]),
        .target(name: "LMKernelsAVX2", dependencies: ["LMKernelsCore", "LMGGUF"], swiftSettings: avx2Kernels),
        .target(name: "LMKernelsVNNI", dependencies: ["LMKernelsCore", "LMGGUF"], swiftSettings: vnniKernels),
        .target(name: "LMKernels", dependencies: ["LMGGUF", "LMKernelsCore", "LMKernelsAVX2", "LMKernelsVNNI", "LMCPUFeatures"]),
        .target(name: "LMTokenizer", dependencies: ["LMGGUF"]),
        .target(name: "LMTransformer", dependencies: ["LMGGUF", "LMKernels", "LMTokenizer", "LMJinja"]),
        .target(name: "LMGrammar"),
        .target(name: "LMJinja"),
        .target(name: "LMImage"),
        .target(name: "LMVision", dependencies: ["LMGGUF", "LMKernels", "LMKernelsCore", "LMImage"]),
        .target(name: "LMGeneration", dependencies: ["LMTransformer", "LMTokenizer", "LMGrammar"]),
        .target(name: "LMSession", dependencies: ["LMGeneration", "LMTransformer", "LMTokenizer", "LMGrammar", "LMJinja", "LMVision", "LMImage"]),
        .executableTarget(name: "lmsession", dependencies: ["LMSession", "LMGeneration", "LMTransformer", "LMKernels", "LMTokenizer", "LMGGUF", "LMVision", "LMImage"]),

        .testTarget(name: "LMGGUFTests", dependencies: ["LMGGUF", "TestSupport"]),
        .testTarget(name: "LMKernelsTests", dependencies: ["LMKernels", "LMKernelsCore", "LMGGUF", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LMTokenizerTests", dependencies: ["LMTokenizer", "LMGGUF", "TestSupport"]),
        .testTarget(name: "LMTransformerTests", dependencies: ["LMTransformer", "LMTokenizer", "LMGGUF", "LMKernelsCore", "TestSupport"],
                    exclude: ["Architectures/Reference"]),
        .testTarget(name: "LMGenerationTests", dependencies: ["LMGeneration", "LMTransformer", "LMTokenizer", "LMGrammar", "TestSupport"]),
        .testTarget(name: "LMSessionTests", dependencies: ["LMSession", "LMGeneration", "LMTransformer", "LMTokenizer", "LMGGUF", "LMJinja", "LMImage", "TestSupport"],
                    exclude: ["Reference"]),
        // Providers written only from Apple's guide to its model contract; they import LMSession and nothing else of it.
        .testTarget(name: "AppleProviderTests", dependencies: ["LMSession", "TestSupport"]),
        .testTarget(name: "LMGrammarTests", dependencies: ["LMGrammar", "TestSupport"]),
        .testTarget(name: "LMImageTests", dependencies: ["LMImage"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LMVisionTests", dependencies: ["LMVision", "LMImage", "LMGGUF"], exclude: ["Reference"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "LMJinjaTests", dependencies: ["LMJinja", "TestSupport"], exclude: ["Reference", "make_expected.py"]),
        // Runs the built `lmsession` binary (built with the tests), so it imports no module of it.
        .testTarget(name: "lmsessionTests", dependencies: ["LMSession", "TestSupport"]),
        .target(name: "TestSupport", dependencies: ["LMGeneration", "LMGGUF"], path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
