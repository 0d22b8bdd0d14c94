import Foundation
import TestSupport
import Testing

/// Code that switches over LMSession's error enums as Apple's documentation and forums write it for
/// FoundationModels, type-checked by `swiftc` against the modules this build made, as a user's own package
/// would import them (docs/differences.md, "Switching over the error enums").
///
/// Apple's enums are resilient (library evolution); ours are not. A switch listing every case plus
/// `@unknown default` compiles cleanly on both; a switch listing some cases plus `@unknown default` warns
/// "switch must be exhaustive" on both (SE-0192: `@unknown default` matches only cases unknown at compile
/// time), and `default:` is the spelling for such a switch.
@Suite struct AppleSwitchSpellingTests {
    static let source = """
        import LMSession

        @available(*, deprecated, message: "Apple's 26 type, deprecated in 27")
        func describe26(_ error: LanguageModelSession.GenerationError) -> String {
            switch error {
            case .exceededContextWindowSize(let context): context.debugDescription
            case .assetsUnavailable(let context): context.debugDescription
            case .guardrailViolation(let context): context.debugDescription
            case .unsupportedGuide(let context): context.debugDescription
            case .unsupportedLanguageOrLocale(let context): context.debugDescription
            case .decodingFailure(let context): context.debugDescription
            case .rateLimited(let context): context.debugDescription
            case .concurrentRequests(let context): context.debugDescription
            case .refusal(_, let context): context.debugDescription
            @unknown default: "unknown"
            }
        }

        func describe27(_ error: LanguageModelError) -> String {
            switch error {
            case .contextSizeExceeded(let e): "\\(e.contextSize) \\(e.tokenCount)"
            case .rateLimited(let e): e.debugDescription
            case .guardrailViolation(let e): e.debugDescription
            case .refusal(let e): e.debugDescription
            case .unsupportedCapability(let e): e.debugDescription
            case .unsupportedTranscriptContent(let e): e.debugDescription
            case .unsupportedGenerationGuide(let e): e.debugDescription
            case .unsupportedLanguageOrLocale(let e): e.debugDescription
            case .timeout(let e): e.debugDescription
            @unknown default: "unknown"
            }
        }

        func somePlainDefault(_ error: LanguageModelError) -> String {
            switch error {
            case .contextSizeExceeded: "too long"
            case .guardrailViolation: "rejected"
            default: "other"
            }
        }

        func availability(_ a: SystemLanguageModel.Availability) -> String {
            switch a {
            case .available: "available"
            case .unavailable(.deviceNotEligible): "device"
            case .unavailable(.appleIntelligenceNotEnabled): "not enabled"
            case .unavailable(.modelNotReady): "not ready"
            @unknown default: "unknown"
            }
        }

        func someUnknownDefault(_ error: LanguageModelError) -> String {
            switch error {  // warns
            case .contextSizeExceeded: "too long"
            @unknown default: "other"
            }
        }
        """

    /// `swiftc` from the PATH (the toolchain that runs `swift test`).
    static func swiftc() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let found = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "no swiftc on the PATH")
    }

    @Test func appleSpelledSwitchesCompileWithoutWarningsAndOnlyASomeCasesUnknownDefaultWarns() throws {
        let build = try CommandLineVocabularyTests.binary().deletingLastPathComponent()
        let moduleMap = build.appendingPathComponent("LMCPUFeatures.build/module.modulemap")
        #expect(FileManager.default.fileExists(atPath: build.appendingPathComponent("Modules/LMSession.swiftmodule").path))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lmsession-switch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Client.swift")
        try Self.source.write(to: file, atomically: true, encoding: .utf8)

        let result = try Subprocess.run(try Self.swiftc(), ["-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path,
                                                            "-Xcc", "-fmodule-map-file=\(moduleMap.path)", "-module-cache-path",
                                                            directory.appendingPathComponent("cache").path, file.path],
                                        mergingStandardError: true)
        let output = result.text
        #expect(result.status == 0, "\(output)")
        let line = try #require(Self.source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasSuffix("// warns") }) + 1
        let diagnostics = output.split(separator: "\n").filter { $0.hasPrefix(file.path + ":") }
        #expect(diagnostics == ["\(file.path):\(line):5: warning: switch must be exhaustive"], "\(output)")
    }
}
