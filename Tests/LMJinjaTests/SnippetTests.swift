import Foundation
import LMJinja
import Testing
import TestSupport

/// One language feature per template (`Reference/snippets.json`: whitespace control, scoping,
/// loops, macros, every filter and test, methods, reprs, sandbox, syntax errors), checked
/// against jinja2's output in `Reference/snippets-expected.json` (written by make_expected.py).
@Suite struct SnippetTests {
    struct Snippet: CustomTestStringConvertible {
        var name: String
        var template: String
        var variables: [String: JinjaValue]
        /// jinja2's output, or nil when it raised.
        var output: String?
        var raises: String?
        var testDescription: String { name }
    }

    static let snippets: [Snippet] = {
        do { return try load() } catch { return [] }
    }()

    static func load() throws -> [Snippet] {
        let dir = ConformanceData.directory
        guard case let .array(inputs) = try JinjaValue(parsingJSON: String(contentsOf: dir.appendingPathComponent("snippets.json"), encoding: .utf8)),
              case let .array(outputs) = try JinjaValue(parsingJSON: String(contentsOf: dir.appendingPathComponent("snippets-expected.json"), encoding: .utf8)),
              inputs.count == outputs.count else { throw ConformanceData.DataError("snippets and their expectations differ in number") }
        return try zip(inputs, outputs).map { input, expected in
            guard case let .string(name)? = input["name"], case let .string(template)? = input["template"],
                  case let .object(pairs)? = input["variables"], expected["name"] == .string(name) else {
                throw ConformanceData.DataError("malformed snippet \(input)")
            }
            var variables: [String: JinjaValue] = [:]
            for (k, v) in pairs { variables[k] = v }
            var output: String?, raises: String?
            if case let .string(o)? = expected["output"] { output = o }
            if case let .string(r)? = expected["raises"] { raises = r }
            return Snippet(name: name, template: template, variables: variables, output: output, raises: raises)
        }
    }

    @Test func snippetsWereRead() {
        #expect(Self.snippets.count >= 100, "Reference/snippets*.json missing or unreadable")
    }

    @Test(arguments: snippets)
    func rendersLikeJinja2(_ s: Snippet) throws {
        let options = JinjaRenderOptions(now: JinjaDateTime(year: 2025, month: 3, day: 7, hour: 14, minute: 5, second: 9))
        let result: Result<String, JinjaError>
        do {
            result = .success(try JinjaTemplate(s.template).render(s.variables, options: options).text)
        } catch {
            result = .failure(error)
        }
        switch (s.output, result) {
        case let (expected?, .success(text)):
            #expect(text == expected)
        case let (_?, .failure(error)):
            Issue.record("jinja2 renders, LMJinja throws \(error)")
        case let (nil, .failure(error)):
            #expect(TemplateConformanceTests.sameKind(s.raises ?? "", error), "jinja2 raises \(s.raises ?? "?"), LMJinja \(error)")
        case let (nil, .success(text)):
            Issue.record("jinja2 raises \(s.raises ?? "?"), LMJinja renders \(text.debugDescription)")
        }
    }
}
