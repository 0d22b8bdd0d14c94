import Foundation
import LMSession
import LMTransformer
import Testing

/// Scenarios 11-13 and 15 of scenarios.md on SmolLM2-135M: availability, the budget, per-request
/// limits and errors.
@Suite(.serialized) struct RealModelLimitTests {
    static func describe(_ availability: SystemLanguageModel.Availability) -> String {
        switch availability {
        case .available: "available"
        case .unavailable(.deviceNotEligible): "cannot run here"
        case .unavailable(.appleIntelligenceNotEnabled): "not enabled"
        case .unavailable(.modelNotReady): "not ready"
        @unknown default: "unknown"
        }
    }

    @Test func availabilityReportsEveryReasonWeCanProduce() throws {
        #expect(Self.describe(RealModel.model.availability) == "available")
        #expect(RealModel.model.isAvailable)
        #expect(RealModel.model.unavailabilityCause == nil)

        let missing = SystemLanguageModel(path: "/nonexistent/model.gguf")
        #expect(Self.describe(missing.availability) == "not ready")
        #expect(missing.unavailabilityCause == .fileNotFound(searched: ["/nonexistent/model.gguf"]))
        // One path given (fileURL:, or LMSESSION_MODEL): the message names it, with no search hint.
        #expect(missing.unavailabilityCause?.description == "no model file at /nonexistent/model.gguf")

        let tiny = SystemLanguageModel(path: RealModel.path, memoryLimit: 16 << 20)
        #expect(Self.describe(tiny.availability) == "cannot run here")
        guard case .insufficientMemory(let required, let available)? = tiny.unavailabilityCause else {
            Issue.record("cause: \(String(describing: tiny.unavailabilityCause))")
            return
        }
        #expect(available == 16 << 20)
        #expect(required > 80 << 20, "weights alone are about 90 MB")
    }

    /// The memory check counts one full KV cache as the engine maps it: keys and values as halves (llama.cpp's
    /// default f16 cache), not as 32-bit floats, so a machine with room for weights plus that cache is eligible.
    @Test func theMemoryCheckCountsTheKVCacheAsHalves() throws {
        let config = try TransformerModel(path: RealModel.path).config
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: RealModel.path)[.size] as? NSNumber).uint64Value
        let positions = (4096 + 7) / 8 * 8  // the key layout's blocks of 8 positions
        let cache = UInt64(2 * config.nLayer * positions * config.nKVHead * config.headDim * MemoryLayout<Float16>.size)
        #expect(cache == 94_371_840, "SmolLM2: 30 layers, 3 KV heads of 64, 4096 positions, keys and values")
        let exact = SystemLanguageModel(path: RealModel.path, memoryLimit: fileSize + cache)
        #expect(exact.availability == .available)
        let short = SystemLanguageModel(path: RealModel.path, memoryLimit: fileSize + cache - 1)
        #expect(short.availability == .unavailable(.deviceNotEligible))
        #expect(short.unavailabilityCause == .insufficientMemory(required: fileSize + cache, available: fileSize + cache - 1))
    }

    @Test func theDefaultModelIsFoundThroughTheEnvironmentVariableFirst() {
        let environment = [SystemLanguageModel.modelPathVariable: RealModel.path]
        #expect(SystemLanguageModel.defaultModelCandidates(environment: environment) == [RealModel.path])
        guard case .success(let found) = SystemLanguageModel.defaultModelPath(environment: environment) else {
            Issue.record("not found")
            return
        }
        #expect(found == RealModel.path)
        let candidates = SystemLanguageModel.defaultModelCandidates(environment: [:])
        #expect(candidates.first == FileManager.default.currentDirectoryPath + "/Models/SmolLM2-135M-Instruct.Q4_1.gguf")
    }

    @Test func aMissingModelFailsRequestsWithAssetsUnavailable() async throws {
        let session = LanguageModelSession(model: SystemLanguageModel(path: "/nonexistent/model.gguf"))
        do {
            try await session.respond(to: "Hello")
            Issue.record("no error")
        } catch SystemLanguageModel.Error.assetsUnavailable(let assets) {
            #expect(assets.debugDescription.contains("/nonexistent/model.gguf"))
        }
        #expect(throws: LocalModelError.fileNotFound(searched: ["/nonexistent/model.gguf"])) {
            try SystemLanguageModel(fileURL: URL(fileURLWithPath: "/nonexistent/model.gguf"))
        }
    }

    @Test("a thread count outside 1...64 is a typed error at load, as on the command line", arguments: [0, -1, 65, 1000])
    func threadCountOutOfRangeIsRefused(threads: Int) throws {
        let url = URL(fileURLWithPath: RealModel.path)
        #expect(throws: LocalModelError.invalidThreadCount(threads)) { try SystemLanguageModel(fileURL: url, threads: threads) }
    }

    @Test func contextSizeIs4096AndThePartsAddUpToTheBudgetCount() async throws {
        let model = RealModel.model
        #expect(model.contextSize == 4096)
        let instructions = Instructions("You are a concise technical editor.")
        let prompt = "Shorten: The meeting that we had yesterday was really very long."
        let instructionTokens = try await model.tokenCount(for: instructions)
        let promptTokens = try await model.tokenCount(for: prompt)
        #expect(instructionTokens > 5)
        #expect(promptTokens > 10)

        let session = LanguageModelSession(model: model, instructions: instructions)
        let response = try await session.respond(to: prompt, options: RealModel.greedy(8))
        let entries = try await model.tokenCount(for: session.transcript.prefix(2))
        #expect(entries == instructionTokens + promptTokens)
        // The request's input is the parts plus the assistant turn's opening "<|im_start|>assistant\n",
        // 4 tokens in SmolLM2's vocabulary (ids 1, 520, 9531, 198).
        #expect(response.usage.input.totalTokenCount == entries + 4)
    }

    @Test func anOverBudgetPromptThrowsAndANewSessionRecovers() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 64)
        #expect(model.contextSize == 64)
        let long = Array(repeating: "The quick brown fox jumps over the lazy dog.", count: 10).joined(separator: " ")
        let needed = try await model.tokenCount(for: long)
        let session = LanguageModelSession(model: model, instructions: "Summarize.")
        do {
            try await session.respond(to: long, options: RealModel.greedy(8))
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.debugDescription.contains("which exceeds the maximum allowed context size of 64"))
            #expect(overflow.contextSize == 64)
            #expect(overflow.tokenCount > needed, "instructions and turn markers come on top of the prompt")
        }
        #expect(session.transcript.count == 1)
        // Map-reduce: each part in its own session fits.
        let part = try await LanguageModelSession(model: model).respond(to: "Summarize: The quick brown fox jumps.", options: RealModel.greedy(8))
        #expect(!part.content.isEmpty)
    }

    @Test func maximumResponseTokensTruncatesWithoutAnError() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let options = GenerationOptions(temperature: 0.7, maximumResponseTokens: 5)
        let response = try await session.respond(to: "Write a long story about a dragon.", options: options)
        #expect(response.usage.output.totalTokenCount == 5)
        #expect(!response.content.isEmpty)
        #expect(session.transcript.count == 2)
    }

    /// A value that cannot close within `maximumResponseTokens` is refused before its prompt (which describes the
    /// schema) is prefilled: a deep schema took seconds to prefill before decoding found it could not close.
    @Test func aStructuredResponseThatCannotCloseFailsBeforeTakingAKVCache() async throws {
        // One KV cache: a request that prefills takes it from the idle session holding it.
        let model = SystemLanguageModel(path: RealModel.path, maximumConcurrentSessions: 1)
        let holder = LanguageModelSession(model: model)
        let first = try await holder.respond(to: "Name a fruit.", options: RealModel.greedy(6))
        let other = LanguageModelSession(model: model)
        other.errorConvention = .sdk27
        await #expect(throws: GeneratedContent.ParsingError.self) {
            _ = try await other.respond(to: "A weeknight pasta for two.", generating: Recipe.self, options: RealModel.greedy(3))
        }
        #expect(other.transcript.isEmpty)
        // The holder's cache was not taken for the refused prompt: its next request finds its conversation there.
        let second = try await holder.respond(to: "Name another.", options: RealModel.greedy(6))
        #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
    }

    @Test func aResponseThatRunsOutOfWindowThrowsContextSizeExceeded() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 40)
        let session = LanguageModelSession(model: model)
        let prompt = "Write a long story about a dragon."
        let input = try await model.tokenCount(for: prompt)
        do {
            // No maximumResponseTokens: the answer runs into the 40-token window.
            try await session.respond(to: prompt, options: GenerationOptions(samplingMode: .greedy))
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.debugDescription == "Content contains 41 tokens, which exceeds the maximum allowed context size of 40.")
            #expect(overflow.tokenCount == 41)
            #expect(overflow.contextSize == 40)
        }
        #expect(input < 40)
        #expect(session.transcript.isEmpty)
    }

    @Test func aSecondRequestOnTheRealModelThrowsConcurrentRequests() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let first = Task { try await session.respond(to: "Count from one to ten.", options: RealModel.greedy(30)) }
        while !session.isResponding { try await Task.sleep(for: .milliseconds(1)) }
        await #expect(throws: LanguageModelSession.Error.concurrentRequests) {
            try await session.respond(to: "Hello", options: RealModel.greedy(4))
        }
        #expect(try await first.value.usage.output.totalTokenCount > 0)
        #expect(session.transcript.count == 2)
    }
}
