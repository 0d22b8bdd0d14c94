import Foundation
import LMJinja
import Synchronization
import Testing

/// A template is untrusted input: no file access, no Python internals, bounded work, and a typed
/// error naming what and where for anything outside the supported language.
@Suite struct SandboxTests {
    static func loadError(_ source: String) -> JinjaError? {
        do { _ = try JinjaTemplate(source); return nil } catch { return error }
    }

    static func renderError(_ source: String, _ variables: [String: JinjaValue] = [:], limits: JinjaLimits = .default) -> JinjaError? {
        do { _ = try JinjaTemplate(source, limits: limits).render(variables); return nil } catch { return error }
    }

    @Test(arguments: [
        ("{% include 'other.jinja' %}", "'include' tag", 1, 4),
        ("ok\n  {% import 'x' as y %}", "'import' tag", 2, 6),
        ("{% from 'x' import y %}", "'from' tag", 1, 4),
        ("{% extends 'base' %}", "'extends' tag", 1, 4),
        ("{% block b %}{% endblock %}", "'block' tag", 1, 4),
        ("{% autoescape true %}{% endautoescape %}", "'autoescape' tag", 1, 4),
        ("a\n{% for x in y recursive %}{% endfor %}", "recursive for loop", 2, 15),
        ("{{ x|urlize }}", "filter 'urlize'", 1, 6),
        ("{% if x %}{{ x|random }}{% endif %}", "filter 'random'", 1, 16),
        ("{{ 'a'.encode('utf-8') }}", "method 'encode'", 1, 14),
        ("{{ lipsum(2) }}", "global function 'lipsum'", 1, 10),
        ("{{ '\\N{BULLET}' }}", "\\N{...} escape in string literal", 1, 4),
    ] as [(String, String, Int, Int)])
    func unsupportedConstructsFailAtLoadNamingThemAndWhere(_ source: String, _ construct: String, _ line: Int, _ column: Int) {
        #expect(Self.loadError(source) == .unsupported(construct: construct, at: JinjaSourceLocation(line: line, column: column)))
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        guard case let .syntax(message, at)? = Self.loadError("line one\n{{ 1 + }}") else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(at == JinjaSourceLocation(line: 2, column: 8))
        #expect(message.contains("'end of print statement'"))
        guard case let .syntax(_, at2)? = Self.loadError("{% for x in y %}\n{% endif %}") else {
            Issue.record("expected a syntax error")
            return
        }
        #expect(at2.line == 2)
    }

    @Test func pythonInternalsAreNotReachable() throws {
        let t = try JinjaTemplate("[{{ ''.__class__ }}][{{ x.__dict__ }}][{{ (1).__class__ }}][{{ ns.__init__ }}][{{ x.mro }}]")
        let out = try t.render(["x": ["a": 1], "ns": "s"]).text
        #expect(out == "[][][][][]")
        #expect(Self.renderError("{{ ''.__class__.__mro__ }}") == .security(message: "access to attribute '__class__' of 'str' object is unsafe.", at: JinjaSourceLocation(line: 1, column: 16)))
        #expect(Self.renderError("{{ [].append(1) }}") == .security(message: "access to attribute 'append' of 'list' object is unsafe.", at: JinjaSourceLocation(line: 1, column: 13)))
    }

    @Test func runawayRecursionIsBounded() {
        let e = Self.renderError("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}")
        #expect(e?.limitKind == .callDepth)
    }

    /// A new user's GGUF: a macro calling itself twice per level stays within the call depth (40 < 48)
    /// yet makes 2^41 calls and no output, so only a budget of steps (calls and statements) ends it.
    @Test func aMacroCallingItselfTwicePerLevelEndsAtTheStepBudget() {
        let doubling = "{% macro f(n) %}{% if n < 40 %}{{ f(n+1) }}{{ f(n+1) }}{% endif %}{% endmacro %}{{ f(0) }}"
        #expect(Self.renderError(doubling)?.limitKind == .steps)
        // 2^16 calls without a loop: over a budget of 10,000 steps.
        let smaller = "{% macro f(n) %}{% if n < 16 %}{{ f(n+1) }}{{ f(n+1) }}{% endif %}{% endmacro %}{{ f(0) }}"
        #expect(Self.renderError(smaller, limits: JinjaLimits(maxSteps: 10_000))?.limitKind == .steps)
        // Statements count too: 20,000 of them in one loop of 5,000 iterations.
        let statements = "{% for i in range(5000) %}{% if i %}{% if i %}{% if i %}{% endif %}{% endif %}{% endif %}{% endfor %}"
        #expect(Self.renderError(statements, limits: JinjaLimits(maxSteps: 10_000))?.limitKind == .steps)
        #expect(Self.renderError(statements, limits: JinjaLimits(maxSteps: 25_000)) == nil)
    }

    @Test func runawayLoopsAreBounded() {
        let limits = JinjaLimits(maxSteps: 50_000)
        #expect(Self.renderError("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", limits: limits)?.limitKind == .steps)
        #expect(Self.renderError("{% for i in range(1000) %}{{ range(1000)|join }}{% endfor %}", limits: limits)?.limitKind == .steps)
    }

    @Test func hugeStringsAndSequencesAreBounded() throws {
        #expect(Self.renderError("{{ 'a' * 100000000 }}")?.limitKind == .outputSize)
        #expect(Self.renderError("{{ range(1000000)|length }}")?.limitKind == .sequenceLength)
        #expect(Self.renderError("{{ [1, 2] * 1000000 }}")?.limitKind == .sequenceLength)
        #expect(Self.renderError("{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}")?.limitKind == .outputSize)
        #expect(Self.renderError("{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}", limits: JinjaLimits(maxOutputBytes: 1 << 20))?.limitKind == .outputSize)
        #expect(Self.renderError("{{ '{:>99999999}'.format('x') }}")?.limitKind == .outputSize)
        // A width taken from the arguments is bounded as a written one is.
        #expect(Self.renderError("{{ '%*d' % (999999999, 1) }}")?.limitKind == .outputSize)
        #expect(Self.renderError("{{ '%*s' % (-99999999, 'a') }}")?.limitKind == .outputSize)
        #expect(Self.renderError("{{ '%.*f' % (99999999, 1.5) }}")?.limitKind == .outputSize)
        #expect(try JinjaTemplate("{{ '%*d|' % (5, 42) }}").render([:]).text == "   42|")
    }

    @Test func deepNestingIsBounded() {
        #expect(Self.loadError("{{ " + String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000) + " }}")?.limitKind == .nesting)
        #expect(Self.loadError("{{ " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + " }}")?.limitKind == .nesting)
        #expect(Self.loadError("{{ " + String(repeating: "x|trim(", count: 5000) + String(repeating: ")", count: 5000) + " }}")?.limitKind == .nesting)
        #expect(Self.loadError("{{ " + String(repeating: "not ", count: 5000) + "x }}")?.limitKind == .nesting)
        #expect(Self.loadError("{{ " + String(repeating: "-", count: 5000) + "1 }}")?.limitKind == .nesting)
        #expect(Self.loadError(String(repeating: "{% if x %}", count: 5000))?.limitKind == .nesting)
        // Chains build left-deep trees without recursing in the parser; their height is bounded too.
        for link in ["+1", "-1", "*1", "**1", " and x", " or x", ".a", "[0]", "(1)", "|upper", " if x else 1"] {
            #expect(Self.loadError("{{ 1" + String(repeating: link, count: 30000) + " }}")?.limitKind == .nesting, "\(link)")
        }
        // A namespace that contains itself cannot be printed or serialized forever.
        let cyclic = "{% set ns = namespace() %}{% set ns.me = ns %}"
        #expect(Self.renderError(cyclic + "{{ ns }}")?.limitKind == .nesting)
        #expect(Self.renderError(cyclic + "{{ [ns]|tojson }}") != nil)
        // Values nested deeper than the limit are refused on the way in.
        var deep: JinjaValue = 1
        for _ in 0..<200 { deep = [deep] }
        #expect(Self.renderError("{{ x }}", ["x": deep])?.limitKind == .nesting)
    }

    /// The deepest expressions and recursion the default limits allow, loaded and rendered from a
    /// thread with a small stack (LMJinja works on a large stack of its own).
    @Test func nestingAtTheLimitsWorksFromAThreadWithASmallStack() throws {
        let parens = String(repeating: "(", count: 30) + "1" + String(repeating: ")", count: 30)
        let macro = "{% macro f(n) %}{% if n > 0 %}{% for i in [1] %}{% if true %}{{ f(n - 1) ~ (n ~ '') }}{% endif %}{% endfor %}{% endif %}{% endmacro %}{{ f(47) }}"
        let outputs = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let a = (try? JinjaTemplate("{{ \(parens) }}").render([:]).text) ?? "failed"
            let b = (try? JinjaTemplate(macro).render([:]).text) ?? "failed"
            let c = (try? JinjaTemplate("{{ 0" + String(repeating: "+1", count: 1000) + " }}").render([:]).text) ?? "failed"
            outputs.withLock { $0 = [a, c, b] }
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        done.wait()
        let out = outputs.withLock { $0 }
        #expect(out.first == "1")
        #expect(out.dropFirst().first == "1000")
        #expect(out.last?.hasSuffix("4647") == true)
    }
}

extension JinjaError {
    var limitKind: JinjaLimit? {
        if case let .limitExceeded(kind, _) = self { return kind }
        return nil
    }
}

/// Where LMJinja knowingly differs from jinja2 (docs/jinja.md): it fails instead of printing
/// something different.
@Suite struct KnownDifferenceTests {
    @Test func integersBeyond64BitsAreErrors() {
        for source in ["{{ 2 ** 64 }}", "{{ 9223372036854775807 + 1 }}", "{{ 1e20|int }}", "{{ '99999999999999999999'|int }}", "{{ -(-9223372036854775807 - 1) }}"] {
            guard case .typeError? = SandboxTests.renderError(source) else {
                Issue.record("\(source) should fail with typeError")
                continue
            }
        }
        #expect(SandboxTests.loadError("{{ 99999999999999999999 }}") == .unsupported(construct: "integer literal beyond 64 bits", at: JinjaSourceLocation(line: 1, column: 4)))
    }

    @Test func objectsPythonPrintsByAddressAreErrors() {
        for source in ["{{ range }}", "{{ 'a'.upper }}", "{{ [1]|select }}", "{{ raise_exception }}"] {
            guard case .unsupported? = SandboxTests.renderError(source) else {
                Issue.record("\(source) should fail as unsupported")
                continue
            }
        }
    }
}
