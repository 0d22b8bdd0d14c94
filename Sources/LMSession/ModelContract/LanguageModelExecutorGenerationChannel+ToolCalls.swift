import Foundation

extension LanguageModelExecutorGenerationChannel {
    /// An event of a tool-calls entry (Apple's `LanguageModelExecutorGenerationChannel.ToolCalls`, iOS/macOS 27).
    /// Use an entry id different from the response's.
    public struct ToolCalls: Event, Sendable {
        /// The tool-calls entry the event builds.
        public var entryID: String?
        public var action: Action

        public init(entryID: String? = nil, action: Action) {
            self.entryID = entryID
            self.action = action
        }

        public var kind: EventKind { EventKind(storage: .toolCalls(self)) }

        /// An event of one call: the first event for an `id` opens the call; every event carries its `name`.
        public struct ToolCall: Sendable {
            /// The call's id (the provider's), which routes interleaved argument deltas of parallel calls.
            public var id: String
            /// The tool's name.
            public var name: String
            public var action: Action

            public init(id: String, name: String, action: Action) {
                self.id = id
                self.name = name
                self.action = action
            }

            /// Arguments text (JSON) to append to the call's.
            public struct ArgumentsFragment: Sendable, Equatable {
                public var content: String
                public var tokenCount: Int

                public init(content: String, tokenCount: Int) {
                    self.content = content
                    self.tokenCount = tokenCount
                }
            }

            /// What the event does to the call.
            public enum Action: Sendable {
                /// Appends JSON text to the call's arguments.
                case appendArguments(ArgumentsFragment)
                /// Replaces the call's metadata wholesale (send it before the first arguments).
                case updateMetadata(Metadata)

                /// Appends `arguments` (JSON text, `tokenCount` tokens) to the call's arguments.
                public static func appendArguments(_ arguments: String, tokenCount: Int) -> Action {
                    .appendArguments(ArgumentsFragment(content: arguments, tokenCount: tokenCount))
                }

                /// Replaces the call's metadata with `values`.
                public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                    .updateMetadata(Metadata(values))
                }
            }
        }

        /// What the event does to the tool-calls entry.
        public enum Action: Sendable {
            /// Opens a call or extends it.
            case toolCall(ToolCall)
            /// Drops a call the model streamed and then retracted.
            case removeToolCall(id: String)
            /// Replaces the entry's metadata wholesale.
            case updateMetadata(Metadata)
            /// Replaces the usage reported so far.
            case updateUsage(Usage)

            /// An event of the call `id` named `name`.
            public static func toolCall(id: String, name: String, action: ToolCall.Action) -> Action {
                .toolCall(ToolCall(id: id, name: name, action: action))
            }

            /// Replaces the entry's metadata with `values`.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                .updateMetadata(Metadata(values))
            }

            /// Replaces the usage reported so far with these cumulative totals.
            public static func updateUsage(input: Usage.Input, output: Usage.Output,
                                           metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> Action {
                .updateUsage(Usage(input: input, output: output, metadata: Metadata(metadata)))
            }
        }
    }
}

extension LanguageModelExecutorGenerationChannel.Event where Self == LanguageModelExecutorGenerationChannel.ToolCalls {
    /// An event of the tool-calls entry `entryID` (Apple 27).
    public static func toolCalls(entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.ToolCalls.Action) -> Self {
        LanguageModelExecutorGenerationChannel.ToolCalls(entryID: entryID, action: action)
    }
}
