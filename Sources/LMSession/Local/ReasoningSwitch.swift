import LMTokenizer

/// The tokens that open and close a reasoning block in a model's output (Qwen3's `<think>` and `</think>`),
/// found in the vocabulary. Recognised on the output side only: how the prompt was rendered (a native
/// template or the GGUF's Jinja one, with or without `enable_thinking`) does not matter here.
package struct ReasoningMarkers: Sendable, Equatable {
    /// `<think>`.
    package let open: Int
    /// `</think>`.
    package let close: Int

    package init(open: Int, close: Int) {
        self.open = open
        self.close = close
    }

    /// The markers of `tokenizer`: both texts must be single vocabulary entries. nil for a model without them
    /// (SmolLM2, Gemma 3), which cannot reason separately.
    package init?(_ tokenizer: Tokenizer) {
        guard let open = tokenizer.tokenID(forText: "<think>"), let close = tokenizer.tokenID(forText: "</think>") else { return nil }
        self.init(open: open, close: close)
    }
}

/// How a request's ``ContextOptions/reasoningLevel`` drives a model with a thinking switch (Qwen3's
/// `enable_thinking`). The switch is binary: any level turns it on, so `.light`, `.moderate`, `.deep` and
/// `.custom` levels other than the "off" spellings behave alike.
package enum ReasoningSwitch: Sendable, Equatable {
    /// No level: the model decides (Qwen3's template default is to think; under a schema or tool-call mask the
    /// model cannot open the block unless forced, so it answers directly).
    case modelDefault
    /// A level was given: the response starts with the open marker (forced), so the model always reasons first.
    case on
    /// `.custom("none")`, `.custom("off")` or `.custom("disabled")`: the open marker is refused, as
    /// `enable_thinking=false` does in Qwen3's template (which writes an empty block into the prompt).
    case off

    package init(_ level: ContextOptions.ReasoningLevel?) {
        switch level {
        case nil: self = .modelDefault
        case .custom(let name) where ["none", "off", "disabled"].contains(name.lowercased()): self = .off
        default: self = .on
        }
    }

    /// The value for a chat template's `enable_thinking` variable: nil leaves the template's default (undefined).
    /// ``TranscriptRenderer`` passes it to the GGUF's Jinja template, as llama.cpp passes `chat_template_kwargs`.
    package var enableThinking: Bool? {
        switch self {
        case .modelDefault: nil
        case .on: true
        case .off: false
        }
    }
}

/// Where the prompt leaves the reasoning block. Some chat templates write part of it into the generation prompt:
/// the opening (DeepSeek-R1's and Qwen3-Thinking's `<think>\n`), or a whole empty block (Qwen3's with
/// `enable_thinking=false`). The response then must not open another block.
package enum ReasoningPromptEnd: Sendable, Equatable {
    /// No block at the end of the prompt: the response may open one.
    case none
    /// The prompt ends inside an open block: the response starts with reasoning, up to `</think>`.
    case open
    /// The prompt ends after a closed block: the response is the answer, and a new block is refused.
    case closed

    /// Reads the last token of `prompt` that is not whitespace: `<think>` is `.open`, `</think>` is `.closed`.
    package init(_ prompt: [Int], markers: ReasoningMarkers?, isWhitespace: (Int) -> Bool) {
        guard let markers, let last = prompt.last(where: { !isWhitespace($0) }) else { self = .none; return }
        self = last == markers.open ? .open : last == markers.close ? .closed : .none
    }
}
