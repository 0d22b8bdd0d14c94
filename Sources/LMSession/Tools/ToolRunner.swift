/// Runs the tool calls of one step concurrently and returns their outputs in call order.
struct ToolRunner: Sendable {
    let tools: [any Tool]

    /// - Throws: ``LanguageModelSession/ToolCallError`` for the first tool that throws (or whose arguments do not
    ///   decode), `CancellationError` when cancelled: at once, even while a tool that ignores cancellation runs on
    ///   (its output is discarded).
    func run(_ calls: [Transcript.ToolCall]) async throws -> [Transcript.ToolOutput] {
        let tools = self
        return try await abandoningOnCancel(Task { try await tools.runAll(calls) })
    }

    private func runAll(_ calls: [Transcript.ToolCall]) async throws -> [Transcript.ToolOutput] {
        try await withThrowingTaskGroup(of: (Int, [Transcript.Segment]).self) { group in
            for (index, call) in calls.enumerated() {
                guard let tool = tools.first(where: { $0.name == call.toolName }) else {
                    // The model named a tool that does not exist: tell it, so it can answer without it.
                    let known = tools.map(\.name).joined(separator: ", ")
                    group.addTask { (index, [.text(Transcript.TextSegment(content: "There is no tool named \"\(call.toolName)\". Available tools: \(known)."))]) }
                    continue
                }
                group.addTask { (index, try await Self.call(tool, with: call.arguments)) }
            }
            var segments = [[Transcript.Segment]](repeating: [], count: calls.count)
            for try await (index, output) in group { segments[index] = output }
            return zip(calls, segments).map { Transcript.ToolOutput(id: $0.id, toolName: $0.toolName, segments: $1) }
        }
    }

    private static func call<T: Tool>(_ tool: T, with arguments: GeneratedContent) async throws -> [Transcript.Segment] {
        do {
            let decoded = try T.Arguments(arguments)
            return try await tool.call(arguments: decoded).promptRepresentation.segments
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw LanguageModelSession.ToolCallError(tool: tool, underlyingError: error)
        }
    }
}
