import Foundation
import LMJinja
import LMSession
import Testing

/// A GGUF's chat template is untrusted input: one that would run for hours is refused at load, within a
/// render's step budget, with the limit and its place named.
@Suite struct HostileTemplateTests {
    /// A new user's file: this macro, placed before the real template, made `SystemLanguageModel(fileURL:)`
    /// run past 60 s (2^41 calls within the call depth limit).
    static let doubling = "{% macro f(n) %}{% if n < 40 %}{{ f(n+1) }}{{ f(n+1) }}{% endif %}{% endmacro %}{{ f(0) }}"

    @Test func aTemplateThatExceedsItsStepBudgetFailsToLoadNamingTheLimit() throws {
        let url = try TinyThinkingModel.write(chatTemplate: Self.doubling + TinyThinkingModel.chatTemplate)
        do {
            _ = try SystemLanguageModel(fileURL: url, contextSize: 512, threads: 1)
            Issue.record("the model loaded")
        } catch {
            guard case .unsupportedChatTemplate(_, .limitExceeded(.steps, let at)) = error else {
                Issue.record("expected the step limit, got \(error)")
                return
            }
            #expect(at.line == 1)
        }
        let model = SystemLanguageModel(path: url.path, contextSize: 512, threads: 1)
        #expect(model.availability == .unavailable(.modelNotReady))
    }

    /// The same template with the recursion stopped at depth 10 (2^11 calls) renders: the budget refuses only work
    /// no chat template needs.
    @Test func aBoundedRecursiveMacroStillLoads() throws {
        let small = Self.doubling.replacingOccurrences(of: "n < 40", with: "n < 10")
        let url = try TinyThinkingModel.write(chatTemplate: small + TinyThinkingModel.chatTemplate)
        let model = try SystemLanguageModel(fileURL: url, contextSize: 512, threads: 1)
        #expect(model.availability == .available)
    }
}
