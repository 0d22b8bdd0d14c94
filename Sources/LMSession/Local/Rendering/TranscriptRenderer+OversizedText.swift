import LMJinja

/// Transcripts whose text alone passes the chat template's output limit (``JinjaLimits/maxOutputBytes``, 4 MiB):
/// the template cannot render them, yet they have a token count, and a request with them is over any context
/// this runtime holds, not a template fault. They are counted as the tokens of each message's text alone plus
/// the template's markers around the same messages emptied; a message's edges may tokenize differently inside a
/// rendering, so such a count can differ from a rendering's by a token or two per message.
extension TranscriptRenderer {
    /// The tokens of `messages`' text alone; nil when the text is under half the template's output limit (a
    /// rendering failure is then the template's own).
    func textTokensPastOutputLimit(_ messages: [PromptMessage]) -> Int? {
        let bytes = messages.reduce(0) { $0 + $1.content.utf8.count }
        guard bytes > JinjaLimits.default.maxOutputBytes / 2 else { return nil }
        return messages.reduce(0) { $0 + tokenizer.encode($1.content, addBOS: false).count }
    }

    /// `messages` with their text left out: what the template's markers around them are counted on.
    static func emptied(_ messages: [PromptMessage]) -> [PromptMessage] {
        messages.map { message in
            var message = message
            message.content = ""
            return message
        }
    }
}
