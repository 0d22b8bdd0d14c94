import Foundation

/// A function the model may call while it responds (Apple's `Tool`).
///
/// The session shows the model each tool's ``name``, ``description`` and ``parameters`` (in the instructions
/// when ``includesSchemaInInstructions`` is true), decodes the arguments the model generates as ``Arguments``,
/// runs ``call(arguments:)`` — several calls of one step concurrently — and gives the model the output.
/// A tool that throws ends the request with ``LanguageModelSession/ToolCallError`` and rolls the transcript back.
public protocol Tool<Arguments, Output>: Sendable {
    /// What the tool returns; shown to the model as a tool output.
    associatedtype Output: PromptRepresentable
    /// The arguments the model generates for a call.
    associatedtype Arguments: ConvertibleFromGeneratedContent

    /// A unique name the model calls the tool by (default: the type's name).
    var name: String { get }
    /// What the tool does, in plain language, for the model.
    var description: String { get }
    /// The schema of ``Arguments`` (default: `Arguments.generationSchema` when `Arguments` is `Generable`).
    var parameters: GenerationSchema { get }
    /// Whether the tool's definition is written into the instructions (default true).
    var includesSchemaInInstructions: Bool { get }

    /// Runs the tool.
    func call(arguments: Arguments) async throws -> Output
}

extension Tool {
    public var name: String { String(describing: Self.self) }
    public var includesSchemaInInstructions: Bool { true }
}

extension Tool where Arguments: Generable {
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

// Apple's poison pills: a primitive `Arguments` type has no object schema the model could fill in, so using
// one without writing `parameters` is a compile error with Apple's message.
extension Tool where Arguments == String {
    @available(*, unavailable, message: "'Tool' that uses 'String' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool where Arguments == Int {
    @available(*, unavailable, message: "'Tool' that uses 'Int' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool where Arguments == Double {
    @available(*, unavailable, message: "'Tool' that uses 'Double' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool where Arguments == Float {
    @available(*, unavailable, message: "'Tool' that uses 'Float' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool where Arguments == Decimal {
    @available(*, unavailable, message: "'Tool' that uses 'Decimal' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool where Arguments == Bool {
    @available(*, unavailable, message: "'Tool' that uses 'Bool' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { Arguments.generationSchema }
}
