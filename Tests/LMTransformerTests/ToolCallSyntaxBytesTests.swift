import LMJinja
import LMTransformer
import Testing

/// The tool-call markup read from a template is cut by UTF-8 bytes, as the model writes it: text that is
/// only canonically equivalent (`é` and `e` + U+0301) is different text. (Cutting by its byte count text that
/// `hasSuffix` matched by Characters fell inside 中 and trapped.)
@Suite struct ToolCallSyntaxBytesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// What the template writes after the calls, and after a plain answer (the turn's end).
        var afterCalls: String
        var turnEnd: String
        /// The call's closing text expected: what follows the call less the turn's end when its bytes end with it.
        var close: String
        var testDescription: String { "\(Array(afterCalls.unicodeScalars)) / \(Array(turnEnd.unicodeScalars))" }
    }

    static let cases: [Case] = [
        // Canonically equal, different bytes (3 > 2): the turn does not end this way. A cut by the turn end's
        // byte count would fall inside 中.
        Case(afterCalls: "中\u{E9}", turnEnd: "e\u{301}", close: "</call>中\u{E9}"),
        Case(afterCalls: "中\u{E9}", turnEnd: "\u{E9}", close: "</call>中"),
        // The same bytes, ending with a whole Character: cut.
        Case(afterCalls: "中e\u{301}", turnEnd: "e\u{301}", close: "</call>中"),
    ]

    static func template(_ c: Case) -> String {
        """
        {%- if tools %}{% for t in tools %}[{{ t.function.name }}]{% endfor %}{% endif %}
        {%- for m in messages %}
        {%- if m.role == 'user' %}<|user|>{{ m.content }}
        {%- elif m.role == 'assistant' and m.tool_calls %}<|assistant|>{% for c in m.tool_calls %}<call>{{ {"name": c.function.name, "arguments": c.function.arguments}|tojson }}</call>{% endfor %}\(c.afterCalls)
        {%- elif m.role == 'assistant' %}<|assistant|>{{ m.content }}\(c.turnEnd)
        {%- else %}<|tool|>{{ m.content }}{% endif %}
        {%- endfor %}
        {%- if add_generation_prompt %}<|assistant|>{% endif %}
        """
    }

    @Test(arguments: cases)
    func theCallsClosingTextIsCutByBytes(_ c: Case) throws {
        let tokenizer = try ReferenceModels.smolLM2.get().tokenizer
        let template = try JinjaChatTemplate(source: Self.template(c), tokenizer: tokenizer)
        let syntax = try #require(template.toolCallSyntax)
        #expect(syntax.open == "<call>")
        #expect(syntax.close.utf8.elementsEqual(c.close.utf8), "\(Array(syntax.close.unicodeScalars))")
    }
}
