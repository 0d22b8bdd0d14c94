import Foundation

/// Feedback about a response (Apple's `LanguageModelFeedback`), for `logFeedbackAttachment`.
public struct LanguageModelFeedback {
    /// How the response was received.
    public enum Sentiment: String, Sendable, CaseIterable, Hashable, Codable {
        case positive, negative, neutral
    }

    /// A problem with a response.
    public struct Issue: Sendable {
        /// The kind of problem.
        public enum Category: String, Sendable, CaseIterable, Hashable, Codable {
            case unhelpful, tooVerbose, didNotFollowInstructions, incorrect, stereotypeOrBias,
                 suggestiveOrSexual, vulgarOrOffensive, triggeredGuardrailUnexpectedly
        }

        public let category: Category
        public let explanation: String?

        public init(category: Category, explanation: String? = nil) {
            self.category = category
            self.explanation = explanation
        }
    }
}

extension LanguageModelSession {
    /// Packages feedback on this session as JSON for you to store or send: `{"sentiment", "issues":
    /// [{"category", "explanation"}], "desiredOutput": <transcript entry>, "transcript": <transcript>}`.
    /// Apple's returns an opaque attachment for Feedback Assistant; nothing is sent anywhere here.
    @discardableResult
    public final func logFeedbackAttachment(sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
                                            desiredOutput: Transcript.Entry? = nil) -> Data {
        struct IssueCoding: Encodable { var category: String; var explanation: String? }
        struct Attachment: Encodable {
            var sentiment: String?
            var issues: [IssueCoding]
            var desiredOutput: Transcript?
            var transcript: Transcript
        }
        let attachment = Attachment(sentiment: sentiment?.rawValue,
                                    issues: issues.map { IssueCoding(category: $0.category.rawValue, explanation: $0.explanation) },
                                    desiredOutput: desiredOutput.map { Transcript(entries: [$0]) }, transcript: transcript)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(attachment)) ?? Data()
    }

    /// Packages feedback with the response text you wanted (Apple 26.1).
    @discardableResult
    public final func logFeedbackAttachment(sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
                                            desiredResponseText: String?) -> Data {
        logFeedbackAttachment(sentiment: sentiment, issues: issues, desiredOutput: desiredResponseText.map {
            .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: $0))]))
        })
    }

    /// Packages feedback with the structured response you wanted (Apple 26.1).
    @discardableResult
    public final func logFeedbackAttachment(sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
                                            desiredResponseContent: (any ConvertibleToGeneratedContent)?) -> Data {
        logFeedbackAttachment(sentiment: sentiment, issues: issues, desiredOutput: desiredResponseContent.map {
            .response(Transcript.Response(assetIDs: [], segments: [.structure(Transcript.StructuredSegment(
                source: String(describing: type(of: $0)), content: $0.generatedContent))]))
        })
    }
}
