/// Bounds on the work one render may do, so that a hostile template (one comes with every GGUF
/// file) ends with ``JinjaError/limitExceeded(_:at:)`` instead of exhausting time, memory or stack.
///
/// The defaults leave room for any real chat template over a 4K-token conversation by orders of
/// magnitude. `maxSequenceLength` equals jinja2's sandbox `MAX_RANGE`, so `range()` fails at the
/// same size in both.
public struct JinjaLimits: Sendable, Hashable {
    /// Nested macro and call-block invocations (a recursive macro counts each level).
    public var maxCallDepth: Int
    /// Nesting of statements plus expressions in the source (checked when loading), and of lists
    /// and dicts in values (checked when converting, printing, comparing or serializing them).
    public var maxNesting: Int
    /// Steps of one render: statements executed, macro and call-block invocations, loop
    /// iterations and items visited by filters and string methods, summed. Bounds the time of a
    /// render whatever its shape (a macro that calls itself twice per level stays within the call
    /// depth yet doubles its work per level).
    public var maxSteps: Int
    /// Bytes of the rendered output, and of any single string the template builds.
    public var maxOutputBytes: Int
    /// Items in one `range()`, list or repeated sequence.
    public var maxSequenceLength: Int

    public init(maxCallDepth: Int = 48, maxNesting: Int = 64, maxSteps: Int = 1_000_000,
                maxOutputBytes: Int = 4 << 20, maxSequenceLength: Int = 100_000) {
        self.maxCallDepth = maxCallDepth
        self.maxNesting = maxNesting
        self.maxSteps = maxSteps
        self.maxOutputBytes = maxOutputBytes
        self.maxSequenceLength = maxSequenceLength
    }

    public static let `default` = JinjaLimits()
}
