import LMTransformer

extension GenerationOptions {
    /// Temperature used when `temperature` is nil: the one default set, `SamplingParameters()`'s.
    package static let defaultTemperature = Double(SamplingParameters().temperature)

    /// The local sampler's parameters and seed for these options.
    ///
    /// - `nil` mode: `SamplingParameters()`'s filters (top-k 40, top-p 0.95, min-p 0.05, llama.cpp's defaults,
    ///   as the command line uses) at `temperature` (default 0.8).
    /// - `.greedy`: argmax (`SamplingParameters.greedy`), temperature ignored.
    /// - `.random(top: k)`: top-k only; `.random(probabilityThreshold: p)`: top-p only.
    /// - Temperature 0 is greedy. No repetition penalty: Apple's options have none.
    /// - Out-of-range values never get here: the session checks `validate()` when a request starts.
    /// - A nil seed draws a fresh random seed.
    package func samplingParameters() -> (parameters: SamplingParameters, seed: UInt64) {
        let temperature = Float(max(0, temperature ?? Self.defaultTemperature))
        var seed: UInt64?
        var parameters: SamplingParameters
        switch storedSamplingMode?.mode {
        case .greedy:
            parameters = .greedy
        case let .topK(k, s):
            parameters = SamplingParameters(temperature: temperature, topK: max(1, k), topP: nil, minP: nil)
            seed = s
        case let .nucleus(p, s):
            parameters = SamplingParameters(temperature: temperature, topK: nil, topP: Float(min(1, max(0, p))), minP: nil)
            seed = s
        case nil:
            parameters = SamplingParameters()
            parameters.temperature = temperature
        }
        if parameters.temperature <= 0 { parameters = .greedy }
        return (parameters, seed ?? UInt64.random(in: .min ... .max))
    }
}
