import Foundation
import LMJinja
import Testing
import TestSupport

/// Mutated real chat templates (byte flips, truncations, tag-level shuffles and splices, seeded)
/// must load or fail with a ``JinjaError``, and render or fail with one, each within a bounded
/// time: no crash, no hang. make_expected.py applies the same mutations and records jinja2's
/// outcome for each (`Reference/fuzz-expected.json`), so the fuzz is also differential: where
/// jinja2 renders, LMJinja renders the same bytes (unless the tighter fuzz limits stop it), and
/// where jinja2 refuses, LMJinja refuses.
@Suite struct FuzzTests {
    static let cases = 3000

    /// A template cut at tag boundaries: `{{ ... }}`, `{% ... %}`, `{# ... #}` and the text between.
    static func chunks(_ source: String) -> [String] {
        let b = Array(source.utf8)
        var out: [String] = []
        var start = 0, i = 0
        var inside = false
        while i + 1 < b.count {
            if !inside, b[i] == UInt8(ascii: "{"), [UInt8(ascii: "{"), UInt8(ascii: "%"), UInt8(ascii: "#")].contains(b[i + 1]) {
                if i > start { out.append(String(decoding: b[start..<i], as: UTF8.self)) }
                start = i
                inside = true
                i += 2
            } else if inside, b[i + 1] == UInt8(ascii: "}"), [UInt8(ascii: "}"), UInt8(ascii: "%"), UInt8(ascii: "#")].contains(b[i]) {
                out.append(String(decoding: b[start..<(i + 2)], as: UTF8.self))
                start = i + 2
                inside = false
                i += 2
            } else {
                i += 1
            }
        }
        if start < b.count { out.append(String(decoding: b[start...], as: UTF8.self)) }
        return out
    }

    static let interesting: [UInt8] = Array("{}%#-+()[]'\"|.~,:=!<>*/ \n\\_0a".utf8)

    static func mutate(_ source: String, other: String, _ rng: inout SplitMix64) -> String {
        switch rng.next() % 5 {
        case 0:  // byte flips
            var bytes = Array(source.utf8)
            guard !bytes.isEmpty else { return source }
            for _ in 0..<(1 + Int(rng.next() % 8)) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = rng.next() % 2 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : interesting[Int(rng.next() % UInt64(interesting.count))]
            }
            return String(decoding: bytes, as: UTF8.self)
        case 1:  // truncation
            let bytes = Array(source.utf8)
            return String(decoding: bytes.prefix(Int(rng.next() % UInt64(bytes.count + 1))), as: UTF8.self)
        case 2:  // swap two chunks
            var c = chunks(source)
            guard c.count > 1 else { return source }
            c.swapAt(Int(rng.next() % UInt64(c.count)), Int(rng.next() % UInt64(c.count)))
            return c.joined()
        case 3:  // delete or duplicate chunks
            var c = chunks(source)
            guard !c.isEmpty else { return source }
            for _ in 0..<(1 + Int(rng.next() % 4)) where !c.isEmpty {
                let i = Int(rng.next() % UInt64(c.count))
                if rng.next() % 2 == 0 { c.remove(at: i) } else { c.insert(c[i], at: i) }
            }
            return c.joined()
        default:  // splice chunks of another template in
            var c = chunks(source)
            let d = chunks(other)
            guard !d.isEmpty else { return source }
            let start = Int(rng.next() % UInt64(d.count)), n = 1 + Int(rng.next() % 6)
            c.insert(contentsOf: d[start..<min(d.count, start + n)], at: Int(rng.next() % UInt64(c.count + 1)))
            return c.joined()
        }
    }

    @Test func mutatedTemplatesLoadOrFailAndRenderOrFailBounded() throws {
        let files = try LlamaCppSource.chatTemplates()
        let sources = try files.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
        #expect(!sources.isEmpty, "no templates to mutate")
        guard !sources.isEmpty else { return }
        let data = try ConformanceData.load()
        let conversations = data.conversations.filter { $0.name == "tool_call" || $0.name == "multi_turn" }
        #expect(conversations.count == 2)
        let limits = JinjaLimits(maxCallDepth: 24, maxSteps: 20_000, maxOutputBytes: 256 << 10)
        let options = JinjaRenderOptions(now: data.now)
        let expected = try Self.expectedOutcomes()
        #expect(expected.count == Self.cases, "Reference/fuzz-expected.json has \(expected.count) outcomes")
        var rng = SplitMix64(seed: 0x4A49_4E4A_415F_4655)
        var loaded = 0, rendered = 0, identical = 0, refusedAlike = 0, limited = 0
        var loadErrors: [String: Int] = [:], renderErrors: [String: Int] = [:]
        var slowest = Duration.zero
        let clock = ContinuousClock()
        let start = clock.now
        for n in 0..<Self.cases {
            let i = Int(rng.next() % UInt64(sources.count)), j = Int(rng.next() % UInt64(sources.count))
            var source = Self.mutate(sources[i], other: sources[j], &rng)
            if rng.next() % 3 == 0 { source = Self.mutate(source, other: sources[i], &rng) }
            let conversation = conversations[Int(rng.next() % UInt64(conversations.count))]
            let began = clock.now
            var outcome: Result<String, JinjaError>
            do {
                let template = try JinjaTemplate(source, limits: limits)
                loaded += 1
                do {
                    outcome = .success(try template.render(conversation.variables, options: options).text)
                    rendered += 1
                } catch {
                    renderErrors[error.kindName, default: 0] += 1
                    outcome = .failure(error)
                }
            } catch {
                loadErrors[error.kindName, default: 0] += 1
                outcome = .failure(error)
            }
            slowest = max(slowest, clock.now - began)
            guard n < expected.count else { continue }
            switch (expected[n], outcome) {
            case let (.rendered(prefix, bytes), .success(text)):
                if SHA256.hex(text.utf8).hasPrefix(prefix), text.utf8.count == bytes {
                    identical += 1
                } else {
                    Issue.record("case \(n): output differs from jinja2's")
                }
            case (.rendered, .failure(.limitExceeded)):
                limited += 1
            case let (.rendered, .failure(error)):
                Issue.record("case \(n): jinja2 renders, LMJinja throws \(error)")
            case (.refused, .failure):
                refusedAlike += 1
            case let (.refused(kind), .success):
                Issue.record("case \(n): jinja2 raises \(kind), LMJinja renders")
            case (.timedOut, _):
                break
            }
        }
        let total = clock.now - start
        print("fuzz: \(Self.cases) mutated templates in \(total): \(loaded) loaded (\(rendered) rendered), load errors \(loadErrors.sorted { $0.key < $1.key }), render errors \(renderErrors.sorted { $0.key < $1.key }), slowest case \(slowest)")
        print("fuzz vs jinja2: \(identical) renders identical, \(refusedAlike) refusals alike, \(limited) stopped by the fuzz limits")
        #expect(loaded + loadErrors.values.reduce(0, +) == Self.cases)
        #expect(rendered > 0 && loaded > rendered && loaded < Self.cases, "mutations should exercise load errors, render errors and renders")
        #expect(slowest < .seconds(5))
    }
}

extension FuzzTests {
    enum Expected {
        case rendered(sha256Prefix: String, bytes: Int)
        case refused(String)
        case timedOut
    }

    static func expectedOutcomes() throws -> [Expected] {
        let url = ConformanceData.directory.appendingPathComponent("fuzz-expected.json")
        guard case let .array(items)? = try JinjaValue(parsingJSON: String(contentsOf: url, encoding: .utf8))["outcomes"] else {
            throw ConformanceData.DataError("fuzz-expected.json has no outcomes")
        }
        return try items.map { item in
            guard case let .string(s) = item else { throw ConformanceData.DataError("bad outcome \(item)") }
            let parts = s.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            switch parts.first {
            case "r": 
                guard parts.count == 3, let bytes = Int(parts[2]) else { throw ConformanceData.DataError("bad outcome \(s)") }
                return .rendered(sha256Prefix: parts[1], bytes: bytes)
            case "x", "l": return .refused(parts.dropFirst().joined(separator: ":"))
            default: return .timedOut
            }
        }
    }
}

extension JinjaError {
    /// The case name, for tallies.
    var kindName: String {
        switch self {
        case .syntax: "syntax"
        case .unsupported: "unsupported"
        case .raised: "raised"
        case .undefined: "undefined"
        case .typeError: "typeError"
        case .security: "security"
        case .runtime: "runtime"
        case let .limitExceeded(l, _): "limit.\(l.rawValue)"
        case .invalidJSON: "invalidJSON"
        }
    }
}
