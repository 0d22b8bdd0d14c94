/// A position in a template's source: 1-based line and column, columns counted in Unicode scalars.
/// Line ends are `\n`, `\r\n` or `\r`, as jinja2 counts them.
public struct JinjaSourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    /// Used for errors raised before a position is known; replaced by the renderer.
    static let unknown = JinjaSourceLocation(line: 0, column: 0)
    public var description: String { "line \(line), column \(column)" }
}

/// Which bound of ``JinjaLimits`` a template crossed.
public enum JinjaLimit: String, Sendable, Hashable {
    /// Nested macro and call-block invocations (``JinjaLimits/maxCallDepth``).
    case callDepth
    /// Nesting of statements and expressions in the source, or of values (``JinjaLimits/maxNesting``).
    case nesting
    /// Statements, invocations, loop iterations and items visited, summed over the render
    /// (``JinjaLimits/maxSteps``).
    case steps
    /// Bytes of output, or of any one string a template builds (``JinjaLimits/maxOutputBytes``).
    case outputSize
    /// Items of one list or range, or of a repeated sequence (``JinjaLimits/maxSequenceLength``).
    case sequenceLength
}

/// Why a template did not load or render. Every case names where in the template it happened.
///
/// The cases follow jinja2's exception classes (`TemplateSyntaxError`, `UndefinedError`,
/// `SecurityError`, `TemplateRuntimeError`, and Python's `TypeError`/`ValueError` family, here
/// ``typeError(message:at:)``) so that a template that raises in jinja2 raises here too.
public enum JinjaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source is not a valid template (jinja2's `TemplateSyntaxError`), thrown when loading.
    case syntax(message: String, at: JinjaSourceLocation)
    /// A construct jinja2 has but LMJinja does not (`include`, `extends`, `import`, a filter such as
    /// `urlize`...), thrown when loading: `construct` names it.
    case unsupported(construct: String, at: JinjaSourceLocation)
    /// The template called `raise_exception(message)`: it refuses the conversation.
    case raised(message: String, at: JinjaSourceLocation)
    /// An operation on an undefined value other than printing, testing or iterating it
    /// (jinja2's `UndefinedError`), such as an attribute of a missing variable.
    case undefined(message: String, at: JinjaSourceLocation)
    /// Values of the wrong type or out of range for an operation (Python's `TypeError`,
    /// `ValueError`, `ZeroDivisionError`, `OverflowError`), such as a string plus a number.
    case typeError(message: String, at: JinjaSourceLocation)
    /// A call the sandbox forbids: methods that mutate a list or dict (`append`, `pop`...),
    /// as jinja2's `ImmutableSandboxedEnvironment` forbids them.
    case security(message: String, at: JinjaSourceLocation)
    /// A jinja2 runtime error (`TemplateRuntimeError`): an unknown filter or test reached at run
    /// time, assigning an attribute of a non-namespace value, and similar.
    case runtime(message: String, at: JinjaSourceLocation)
    /// A render crossed one of the ``JinjaLimits``.
    case limitExceeded(JinjaLimit, at: JinjaSourceLocation)
    /// ``JinjaValue/init(parsingJSON:maxNesting:)`` was given text that is not JSON; `byteOffset`
    /// is where in its UTF-8 bytes.
    case invalidJSON(message: String, byteOffset: Int)

    public var description: String {
        switch self {
        case let .syntax(m, at): "template syntax error at \(at): \(m)"
        case let .unsupported(c, at): "unsupported template construct at \(at): \(c)"
        case let .raised(m, at): "template raised an exception at \(at): \(m)"
        case let .undefined(m, at): "undefined value at \(at): \(m)"
        case let .typeError(m, at): "type error at \(at): \(m)"
        case let .security(m, at): "sandbox violation at \(at): \(m)"
        case let .runtime(m, at): "template runtime error at \(at): \(m)"
        case let .limitExceeded(l, at): "template exceeded its \(l.rawValue) limit at \(at)"
        case let .invalidJSON(m, offset): "invalid JSON at byte \(offset): \(m)"
        }
    }

    /// The template position, if the error has one.
    public var location: JinjaSourceLocation? {
        switch self {
        case let .syntax(_, at), let .unsupported(_, at), let .raised(_, at), let .undefined(_, at),
             let .typeError(_, at), let .security(_, at), let .runtime(_, at), let .limitExceeded(_, at):
            at
        case .invalidJSON: nil
        }
    }

    /// The same error placed at `location` when it was thrown without one.
    func located(_ location: JinjaSourceLocation) -> JinjaError {
        guard self.location == .unknown else { return self }
        return switch self {
        case let .syntax(m, _): .syntax(message: m, at: location)
        case let .unsupported(c, _): .unsupported(construct: c, at: location)
        case let .raised(m, _): .raised(message: m, at: location)
        case let .undefined(m, _): .undefined(message: m, at: location)
        case let .typeError(m, _): .typeError(message: m, at: location)
        case let .security(m, _): .security(message: m, at: location)
        case let .runtime(m, _): .runtime(message: m, at: location)
        case let .limitExceeded(l, _): .limitExceeded(l, at: location)
        case .invalidJSON: self
        }
    }

    // Shorthands for errors raised below the renderer, which stamps the location.
    static func type(_ message: String) -> JinjaError { .typeError(message: message, at: .unknown) }
    static func undefined(_ message: String) -> JinjaError { .undefined(message: message, at: .unknown) }
    static func runtime(_ message: String) -> JinjaError { .runtime(message: message, at: .unknown) }
    static func limit(_ limit: JinjaLimit) -> JinjaError { .limitExceeded(limit, at: .unknown) }
    static func unsupportedHere(_ construct: String) -> JinjaError { .unsupported(construct: construct, at: .unknown) }
}
