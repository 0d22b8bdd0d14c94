import Foundation

extension LanguageModelSession {
    /// Two or more of a model call's tools have the same ``Tool/name``: the model could not say which one it
    /// calls, and a server would reject the request or run either. Thrown by the first request of the session
    /// (or by the model call whose profile or dynamic instructions gave the tools), before the prompt joins the
    /// transcript and before any model work. Not in Apple's API, which documents no check (its initialiser does
    /// not throw either).
    public struct DuplicateToolNameError: Swift.Error, LocalizedError, CustomDebugStringConvertible, Sendable, Equatable {
        /// The name given to more than one tool (the first such name, in the tools' order).
        public var name: String
        /// How many of the tools have it.
        public var count: Int

        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }

        public var errorDescription: String? {
            "\(count) tools are named \"\(name)\"; each tool of a session needs its own name."
        }

        /// The sentence of ``errorDescription``, so that `print(error)` and `"\(error)"` read as one.
        public var debugDescription: String { errorDescription ?? "DuplicateToolNameError" }

        /// The first name that more than one of `tools` has, as an error; nil when every name is unique.
        static func check(_ tools: [any Tool]) -> DuplicateToolNameError? {
            var seen: Set<String> = []
            for tool in tools where !seen.insert(tool.name).inserted {
                return DuplicateToolNameError(name: tool.name, count: tools.filter { $0.name == tool.name }.count)
            }
            return nil
        }
    }
}
