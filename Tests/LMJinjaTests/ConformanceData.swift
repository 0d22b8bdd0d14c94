import Foundation
import LMJinja
import TestSupport

/// The reference data of `Reference/`: the conversations every chat template is rendered with,
/// and jinja2's outcome for each (template, conversation) pair, written by `make_expected.py`.
struct ConformanceData {
    struct Conversation {
        var name: String
        var variables: [String: JinjaValue]
    }

    enum Outcome: Equatable {
        case render(sha256: String, bytes: Int)
        /// jinja2 raised: `kind` is `syntax`, `raise_exception`, `undefined`, `security`, or a
        /// Python exception class name; `messageSHA256` is set for `raise_exception`.
        case raise(kind: String, messageSHA256: String?)
    }

    struct Case {
        var template: String
        var templateSHA256: String
        var conversation: String
        var outcome: Outcome
    }

    var conversations: [Conversation]
    var now: JinjaDateTime
    var cases: [Case]

    static var directory: URL { TestPaths.repoRoot.appendingPathComponent("Tests/LMJinjaTests/Reference") }

    static func load() throws -> ConformanceData {
        let spec = try JinjaValue(parsingJSON: String(contentsOf: directory.appendingPathComponent("conversations.json"), encoding: .utf8))
        guard case let .string(bos)? = spec["bos_token"], case let .string(eos)? = spec["eos_token"],
              case let .string(now)? = spec["now"], case let .array(list)? = spec["conversations"] else {
            throw DataError("conversations.json lacks bos_token, eos_token, now or conversations")
        }
        var conversations: [Conversation] = []
        for item in list {
            guard case let .string(name)? = item["name"], case let .object(pairs)? = item["variables"] else {
                throw DataError("a conversation lacks name or variables")
            }
            var variables: [String: JinjaValue] = ["bos_token": .string(bos), "eos_token": .string(eos)]
            for (k, v) in pairs { variables[k] = v }
            conversations.append(Conversation(name: name, variables: variables))
        }
        let expected = try JinjaValue(parsingJSON: String(contentsOf: directory.appendingPathComponent("expected.json"), encoding: .utf8))
        guard case let .array(rows)? = expected["cases"] else { throw DataError("expected.json has no cases") }
        var cases: [Case] = []
        for row in rows {
            guard case let .string(template)? = row["template"], case let .string(sha)? = row["template_sha256"],
                  case let .string(conversation)? = row["conversation"], case let .string(outcome)? = row["outcome"] else {
                throw DataError("malformed case \(row)")
            }
            let result: Outcome
            if outcome == "render", case let .string(digest)? = row["sha256"], case let .int(bytes)? = row["utf8_bytes"] {
                result = .render(sha256: digest, bytes: bytes)
            } else if outcome == "raise", case let .string(kind)? = row["error"] {
                var messageSHA: String?
                if case let .string(m)? = row["message_sha256"] { messageSHA = m }
                result = .raise(kind: kind, messageSHA256: messageSHA)
            } else {
                throw DataError("malformed outcome in \(row)")
            }
            cases.append(Case(template: template, templateSHA256: sha, conversation: conversation, outcome: result))
        }
        return ConformanceData(conversations: conversations, now: try parseNow(now), cases: cases)
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    static func parseNow(_ s: String) throws -> JinjaDateTime {
        let parts = s.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6 else { throw DataError("bad time \(s)") }
        return JinjaDateTime(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
    }

    struct DataError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}
