extension SystemLanguageModel {
    /// Checks on the text going into and coming out of the model (Apple's `Guardrails`).
    ///
    /// There is no built-in safety model here: ``default`` and ``permissiveContentTransformations`` allow
    /// everything. Give your own check with ``init(check:)``: it sees every prompt (with the instructions)
    /// before generation and the response text as it grows; a rejection ends the request with
    /// ``LanguageModelError/guardrailViolation(_:)`` and rolls the transcript back.
    public struct Guardrails: Sendable {
        /// Which side of the model a checked text is on.
        public enum Direction: Sendable, Equatable {
            /// Instructions and prompt, checked before generation.
            case input
            /// The response so far, checked after each streamed step and at the end.
            case output
        }

        /// A check's decision.
        public enum Verdict: Sendable, Equatable {
            case allowed
            /// The text is rejected; `reason` becomes the error's `debugDescription`.
            case rejected(reason: String)
        }

        let check: @Sendable (_ text: String, _ direction: Direction) -> Verdict

        /// Guardrails running `check` on every input and output text. (Not in Apple's API.)
        public init(check: @escaping @Sendable (_ text: String, _ direction: Direction) -> Verdict) {
            self.check = check
        }

        /// Apple's default guardrails; here: no check (everything is allowed).
        public static let `default` = Guardrails { _, _ in .allowed }

        /// Apple's guardrails for transforming user content; here: no check (everything is allowed).
        public static let permissiveContentTransformations = Guardrails { _, _ in .allowed }
    }
}
