/// How the next token is chosen from the logits. Filters apply in llama.cpp's order: repetition
/// penalty, top-k, top-p, min-p, then temperature and a draw.
public struct SamplingParameters: Sendable, Equatable {
    /// Softmax temperature; 0 picks the most likely token (greedy).
    public var temperature: Float
    /// Keep only the `topK` most likely tokens; `nil` keeps all.
    public var topK: Int?
    /// Nucleus sampling (Holtzman et al. 2019): keep the smallest set whose probability reaches `topP`.
    public var topP: Float?
    /// Drop tokens whose probability is below `minP` times the most likely token's.
    public var minP: Float?
    /// Divides positive (multiplies negative) logits of recently seen tokens, as llama.cpp's
    /// `penalty_repeat`; 1 turns it off.
    public var repetitionPenalty: Float
    /// How many of the most recent tokens the penalty considers.
    public var repetitionWindow: Int

    /// Always the most likely token.
    public static let greedy = SamplingParameters(temperature: 0, topK: nil, topP: nil, minP: nil)

    public init(temperature: Float = 0.8, topK: Int? = 40, topP: Float? = 0.95, minP: Float? = 0.05,
                repetitionPenalty: Float = 1, repetitionWindow: Int = 64) {
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.minP = minP
        self.repetitionPenalty = repetitionPenalty
        self.repetitionWindow = repetitionWindow
    }

    public var isGreedy: Bool { temperature <= 0 || topK == 1 }
}
