/// What a failed request leaves in the session's transcript (Apple 27).
public struct TranscriptErrorHandlingPolicy: Sendable, Equatable {
    let keepsEntries: Bool

    /// The transcript is as it was before the request (the default, and 26's behaviour).
    public static let revertTranscript = TranscriptErrorHandlingPolicy(keepsEntries: false)

    /// The entries the request added before it failed stay: its prompt, and the tool calls and outputs of
    /// completed tool rounds. No response entry is added.
    public static let preserveTranscript = TranscriptErrorHandlingPolicy(keepsEntries: true)
}
