import Foundation
import LMSession
import Testing

/// Scenarios 4-6 on the real SmolLM2 model with random sampling over 20 seeds: whatever the sampler
/// picks, every response decodes and satisfies every guide, and none is cut off by `maximumResponseTokens`
/// (the decoder reserves the tokens that close the value). About 80 s in release on two cores.
@Suite("Guided generation over 20 sampling seeds", .serialized) struct GuidedSeedsTests {
    /// One of the three scenario types, with a short prompt and the guides checked on its decoded value.
    enum Scenario: String, CaseIterable, CustomStringConvertible, Sendable {
        case recipe, actionItems, classifier

        var description: String { rawValue }

        /// Enough for the values these prompts produce; a few seeds degenerate into an array repeating one item
        /// (the schemas set no maxItems, as in Apple's scenarios), and those are closed when the budget runs low.
        var tokenBudget: Int {
            switch self {
            case .recipe: 160
            case .actionItems: 160
            case .classifier: 160
            }
        }

        /// Generates one value with `options` and returns the guides it violates (empty when it keeps them all).
        /// - Throws: whatever the session throws (`decodingFailure` when cut off or undecodable).
        func violations(options: GenerationOptions) async throws -> [String] {
            let session = LanguageModelSession(model: RealModel.model)
            switch self {
            case .recipe:
                let response = try await session.respond(to: "A quick pasta for two.", generating: Recipe.self, options: options)
                var broken: [String] = []
                if !(5...240).contains(response.content.minutes) { broken.append("minutes \(response.content.minutes) outside 5...240") }
                if case .structure(_, let keys) = response.rawContent.kind, keys != ["title", "ingredients", "minutes"] {
                    broken.append("keys \(keys) out of declaration order")
                }
                return broken
            case .actionItems:
                let items = try await session.respond(to: "Action items: Dana sends slides Friday; Sam books the room.",
                                                      generating: ActionItems.self, options: options).content
                return ["low", "medium", "high"].contains(items.urgency) ? [] : ["urgency \"\(items.urgency)\" not low/medium/high"]
            case .classifier:
                let review = try await session.respond(to: "Classify: \"The battery died after one day.\"",
                                                       generating: Review.self, options: options).content
                var broken: [String] = []
                if !Sentiment.allCases.contains(review.sentiment) { broken.append("sentiment \(review.sentiment) not a case") }
                if !(1...5).contains(review.stars) { broken.append("stars \(review.stars) outside 1...5") }
                return broken
            }
        }
    }

    static let seeds: [UInt64] = Array(0..<20)

    @Test("every seed's response decodes and keeps every guide", arguments: Scenario.allCases)
    func everySeedKeepsTheGuides(scenario: Scenario) async throws {
        var decoded = 0, cutOff = 0
        var violations: [String] = [], otherFailures: [String] = []
        for seed in Self.seeds {
            let options = GenerationOptions(samplingMode: .random(top: 40, seed: seed), temperature: 0.9,
                                            maximumResponseTokens: scenario.tokenBudget)
            do {
                let broken = try await scenario.violations(options: options)
                decoded += 1
                violations += broken.map { "seed \(seed): \($0)" }
            } catch LanguageModelSession.GenerationError.decodingFailure(let context)
                where context.debugDescription.hasPrefix("The response is not a complete") {
                cutOff += 1
                print("guided seeds \(scenario) seed \(seed) cut off: …\(context.debugDescription.suffix(120))")
            } catch {
                otherFailures.append("seed \(seed): \(error)")
            }
        }
        print("guided seeds \(scenario): \(Self.seeds.count) seeds, decoded \(decoded), cut off by budget \(cutOff), "
            + "guide violations \(violations.count), other failures \(otherFailures.count)")
        #expect(violations.isEmpty, "\(violations)")
        #expect(otherFailures.isEmpty, "\(otherFailures)")
        #expect(cutOff == 0, "\(cutOff) responses cut off by maximumResponseTokens \(scenario.tokenBudget)")
        #expect(decoded + cutOff == Self.seeds.count)
    }
}
