import Foundation
import LMSession
import Testing

/// A profile's settings reach the local model's sampler: its temperature decides between the seeded random text
/// and the greedy one, and a temperature passed to `respond` wins over it.
@Suite struct ProfileRealModelTests {
    static let instructions = "You are a poet."
    static let prompt = "Write one line about the sea."
    static let seeded = GenerationOptions.SamplingMode.random(top: 40, seed: 7)

    struct Poet: LanguageModelSession.DynamicProfile {
        let temperature: Double
        var body: some LanguageModelSession.DynamicProfile {
            Profile { Instructions(ProfileRealModelTests.instructions) }
                .samplingMode(ProfileRealModelTests.seeded)
                .temperature(temperature)
                .maximumResponseTokens(16)
                .model(RealModel.model)
        }
    }

    /// The answer of a fresh session without a profile, with `options`.
    func plain(_ options: GenerationOptions) async throws -> String {
        try await LanguageModelSession(model: RealModel.model, instructions: Self.instructions).respond(to: Self.prompt, options: options).content
    }

    /// The answer of a fresh session with the `Poet` profile at `temperature`.
    func profiled(_ temperature: Double, options: GenerationOptions = GenerationOptions()) async throws -> String {
        try await LanguageModelSession(profile: Poet(temperature: temperature)).respond(to: Self.prompt, options: options).content
    }

    @Test func theProfilesTemperatureReachesSamplingAndTheCallSiteTemperatureWins() async throws {
        let greedy = try await plain(GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16))
        let hot = try await plain(GenerationOptions(samplingMode: Self.seeded, temperature: 1.5, maximumResponseTokens: 16))
        #expect(!greedy.isEmpty)
        #expect(hot != greedy, "at temperature 1.5 the seeded sample leaves the greedy path")

        #expect(try await profiled(1.5) == hot, "the profile's temperature, sampling mode and limit are used")
        #expect(try await profiled(0) == greedy, "temperature 0 from the profile is greedy")
        #expect(try await profiled(1.5, options: GenerationOptions(temperature: 0)) == greedy, "the call's temperature wins")
    }
}
