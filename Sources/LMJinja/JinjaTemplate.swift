/// A Jinja chat template, loaded once and rendered any number of times (from any task).
///
/// Renders byte-identically to Python's jinja2 3.1 configured as Hugging Face transformers'
/// `apply_chat_template` configures it: `ImmutableSandboxedEnvironment(trim_blocks=True,
/// lstrip_blocks=True)` with the loopcontrols extension, the `generation` block tag, a `tojson`
/// that is `json.dumps` (not HTML-escaped), and the globals `raise_exception(message)` and
/// `strftime_now(format)`. Checked against jinja2 on llama.cpp's collection of real templates
/// (`Tests/LMJinjaTests`).
///
/// A template is untrusted input (it ships inside every GGUF file): loading and rendering never
/// touch files or Python internals, every render is bounded by ``JinjaLimits``, and every failure
/// is a ``JinjaError``. Constructs LMJinja does not support fail when the template loads.
/// Loading and rendering run on a thread of their own with a 32 MiB stack (the caller waits), so
/// the depth limits hold whatever thread calls.
public struct JinjaTemplate: Sendable {
    /// The template text as given.
    public let source: String
    public let limits: JinjaLimits
    let body: [Stmt]

    /// Parses and checks `source`.
    /// - Throws: ``JinjaError/syntax(message:at:)`` where jinja2 would refuse to load it,
    ///   ``JinjaError/unsupported(construct:at:)`` for `include`/`import`/`extends`/`block`,
    ///   recursive loops, and filters, methods or globals LMJinja does not implement,
    ///   ``JinjaError/limitExceeded(_:at:)`` when nesting exceeds `limits.maxNesting`.
    public init(_ source: String, limits: JinjaLimits = .default) throws(JinjaError) {
        self.source = source
        self.limits = limits
        body = try LargeStack.run { () throws(JinjaError) -> [Stmt] in
            let tokens = try Lexer.tokenize(source)
            let body = try Parser.parse(tokens, maxNesting: limits.maxNesting)
            try Checker.check(body)
            return body
        }
    }

    /// Renders the template with `variables` (for a chat: `messages`, `add_generation_prompt`,
    /// `tools`, `bos_token`, `eos_token`, and any extra such as `enable_thinking`).
    ///
    /// - Returns: the text and its segments by origin (template text or data, see ``JinjaOrigin``).
    /// - Throws: ``JinjaError/raised(message:at:)`` when the template refuses the input
    ///   (`raise_exception`); ``JinjaError/undefined(message:at:)``,
    ///   ``JinjaError/typeError(message:at:)``, ``JinjaError/security(message:at:)``,
    ///   ``JinjaError/runtime(message:at:)`` where jinja2 raises; ``JinjaError/limitExceeded(_:at:)``
    ///   when the render crosses `limits`; ``JinjaError/unsupported(construct:at:)`` when it would
    ///   print a Python object whose text holds a memory address or call an unimplemented method.
    public func render(_ variables: [String: JinjaValue], options: JinjaRenderOptions = JinjaRenderOptions()) throws(JinjaError) -> JinjaRendering {
        try LargeStack.run { () throws(JinjaError) -> JinjaRendering in
            let renderer = try Renderer(variables: variables, options: options, limits: limits)
            let text = try renderer.run(body)
            return JinjaRendering(text: text.string, segments: text.segments)
        }
    }
}
