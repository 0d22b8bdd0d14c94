import Foundation

extension LanguageModelSession {
    /// A tool threw while the session ran it (Apple's `ToolCallError`). The request ends and the transcript is
    /// rolled back to before it; the model does not see the error.
    public struct ToolCallError: Swift.Error, LocalizedError, CustomStringConvertible {
        /// The tool that threw.
        public var tool: any Tool
        /// What it threw.
        public var underlyingError: any Swift.Error

        public init(tool: any Tool, underlyingError: any Swift.Error) {
            self.tool = tool
            self.underlyingError = underlyingError
        }

        public var errorDescription: String? { description }

        /// The tool's name and what it threw (not the tool's stored values, which `print(error)` showed otherwise).
        public var description: String { "The tool \"\(tool.name)\" failed: \(underlyingError.localizedDescription)" }
    }
}
