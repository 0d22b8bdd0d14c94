import Foundation
import LMJinja
import Testing
import TestSupport

/// Every chat template in llama.cpp's `models/templates` (fetched by Scripts/llama-cpp-source),
/// rendered with every conversation in `Reference/conversations.json`, must come out
/// byte-identical to Python's jinja2 3.1.6 (SHA-256 and length in `Reference/expected.json`), and
/// must raise where jinja2 raises.
@Suite struct TemplateConformanceTests {
    @Test func everyTemplateRendersLikeJinja2() throws {
        let data = try ConformanceData.load()
        let files = try LlamaCppSource.chatTemplates()
        #expect(!data.cases.isEmpty, "Reference/expected.json has no cases")
        #expect(!files.isEmpty, "no models/templates/*.jinja in the llama.cpp tree")
        let expectedTemplates = Set(data.cases.map(\.template))
        #expect(Set(files.map(\.lastPathComponent)) == expectedTemplates, "the template set differs from Reference/expected.json")

        let options = JinjaRenderOptions(now: data.now)
        let conversations = Dictionary(uniqueKeysWithValues: data.conversations.map { ($0.name, $0) })
        var identical = 0, renders = 0, raisedAlike = 0, raises = 0
        var ourRaises: [String] = []
        for file in files {
            let source = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            let name = file.lastPathComponent
            let cases = data.cases.filter { $0.template == name }
            if let first = cases.first {
                #expect(SHA256.hex(source.utf8) == first.templateSHA256, "\(name) differs from the version the references were made from")
            }
            let template: Result<JinjaTemplate, JinjaError>
            do { template = .success(try JinjaTemplate(source)) } catch { template = .failure(error) }
            for c in cases {
                guard let conversation = conversations[c.conversation] else {
                    Issue.record("unknown conversation \(c.conversation)")
                    continue
                }
                var outcome: Result<String, JinjaError>
                switch template {
                case let .success(t):
                    do { outcome = .success(try t.render(conversation.variables, options: options).text) } catch { outcome = .failure(error) }
                case let .failure(e):
                    outcome = .failure(e)
                }
                switch (c.outcome, outcome) {
                case let (.render(sha, bytes), .success(text)):
                    renders += 1
                    if SHA256.hex(text.utf8) == sha, text.utf8.count == bytes {
                        identical += 1
                    } else {
                        Issue.record("\(name) × \(c.conversation): output differs from jinja2 (\(text.utf8.count) bytes, expected \(bytes))")
                    }
                case let (.render, .failure(error)):
                    renders += 1
                    Issue.record("\(name) × \(c.conversation): jinja2 renders, LMJinja throws \(error)")
                case let (.raise(kind, messageSHA), .failure(error)):
                    raises += 1
                    ourRaises.append("\(name) × \(c.conversation): jinja2 \(kind), LMJinja \(error)")
                    if Self.sameKind(kind, error) {
                        raisedAlike += 1
                    } else {
                        Issue.record("\(name) × \(c.conversation): jinja2 raises \(kind), LMJinja a different error: \(error)")
                    }
                    if kind == "raise_exception" {
                        if case let .raised(message, _) = error {
                            #expect(SHA256.hex(message.utf8) == messageSHA, "\(name) × \(c.conversation): different raise_exception message")
                        } else {
                            Issue.record("\(name) × \(c.conversation): jinja2 raise_exception, LMJinja \(error)")
                        }
                    }
                case let (.raise(kind, _), .success):
                    raises += 1
                    Issue.record("\(name) × \(c.conversation): jinja2 raises \(kind), LMJinja renders")
                }
            }
        }
        print("LMJinja conformance: \(identical)/\(renders) renders identical to jinja2, \(raisedAlike)/\(raises) raises raised alike (\(files.count) templates × \(data.conversations.count) conversations)")
        for line in ourRaises { print("  raises: \(line)") }
        #expect(renders + raises == data.cases.count)
        #expect(renders > 0 && identical == renders)
        #expect(raisedAlike == raises)
    }

    /// Whether LMJinja's error is the counterpart of the jinja2 exception kind in expected.json.
    static func sameKind(_ kind: String, _ error: JinjaError) -> Bool {
        switch (kind, error) {
        case ("syntax", .syntax), ("raise_exception", .raised), ("undefined", .undefined), ("security", .security),
             ("TemplateRuntimeError", .runtime), ("TypeError", .typeError), ("ValueError", .typeError),
             ("ZeroDivisionError", .typeError), ("OverflowError", .typeError), ("OverflowError", .limitExceeded),
             ("SyntaxError", .syntax):
            true
        default:
            false
        }
    }
}
