import Foundation

extension LanguageModelSession {
    /// A tool's ``Tool/name`` is not one a model can call by: empty, longer than ``maximumLength`` characters, or
    /// holding a character other than ASCII letters, digits, `_` and `-` (spaces, markup such as `</tool_call>`,
    /// non-ASCII letters). The rule is the one OpenAI's and Anthropic's APIs apply to function names
    /// (`^[a-zA-Z0-9_-]{1,64}$`), so a tool that works on the local model also works behind a server. Thrown, like
    /// ``DuplicateToolNameError``, by the model call that would offer the tool, before the prompt joins the
    /// transcript and before any model work. Not in Apple's API, which documents no rule for names.
    public struct InvalidToolNameError: Swift.Error, LocalizedError, CustomDebugStringConvertible, Sendable, Equatable {
        /// The first such name, in the tools' order.
        public var name: String

        /// Most characters a tool name may have.
        public static let maximumLength = 64

        public init(name: String) { self.name = name }

        public var errorDescription: String? {
            let shown = name.count > 80 ? String(name.prefix(80)).debugDescription + "… (\(name.count) characters)" : name.debugDescription
            return "The tool name \(shown) cannot be called by: a tool name has 1 to \(Self.maximumLength) ASCII letters, digits, '_' or '-'."
        }

        /// The sentence of ``errorDescription``, so that `print(error)` and `"\(error)"` read as one.
        public var debugDescription: String { errorDescription ?? "InvalidToolNameError" }

        /// Whether `name` follows the rule.
        static func isValid(_ name: String) -> Bool {
            let scalars = name.unicodeScalars
            return !scalars.isEmpty && scalars.count <= maximumLength
                && scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
        }

        /// The first of `tools` whose name does not follow the rule, as an error; nil when all do.
        static func check(_ tools: [any Tool]) -> InvalidToolNameError? {
            tools.first { !isValid($0.name) }.map { InvalidToolNameError(name: $0.name) }
        }
    }
}
