extension GenerationOptions {
    /// A generation option outside the range the sampler can honour. A request whose options fail
    /// ``validate()`` throws it when it starts, before the model is loaded or the prompt evaluated.
    /// Not in Apple's API (Apple documents no ranges; values that would silently change the
    /// sampling are refused here instead).
    public struct InvalidOptionError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The option: `temperature`, `samplingMode.top`, `samplingMode.probabilityThreshold` or
        /// `maximumResponseTokens`.
        public let option: String
        /// The value and the range it must be in.
        public let reason: String

        public init(option: String, reason: String) {
            self.option = option
            self.reason = reason
        }

        public var description: String { "\(option): \(reason)" }
    }

    /// Checks every option against the range the sampler accepts: `temperature` finite and at
    /// least 0 (0 is greedy), `.random(top: k)` with k at least 1, `.random(probabilityThreshold: p)`
    /// with p in (0, 1], `maximumResponseTokens` at least 0. Nil options are always valid.
    /// - Throws: ``InvalidOptionError`` naming the first option out of range.
    public func validate() throws(InvalidOptionError) {
        if let t = temperature, !(t.isFinite && t >= 0) {
            throw InvalidOptionError(option: "temperature", reason: "\(t) is not a finite number of at least 0")
        }
        switch storedSamplingMode?.mode {
        case let .topK(k, _)? where k < 1:
            throw InvalidOptionError(option: "samplingMode.top", reason: "\(k) is below 1")
        case let .nucleus(p, _)? where !(p > 0 && p <= 1):
            throw InvalidOptionError(option: "samplingMode.probabilityThreshold", reason: "\(p) is not in (0, 1]")
        default:
            break
        }
        if let n = maximumResponseTokens, n < 0 {
            throw InvalidOptionError(option: "maximumResponseTokens", reason: "\(n) is negative")
        }
    }
}
