import Foundation
import LMGrammar
import TestSupport

/// The benchmark cases of `refs/guided/tokens.json`: a JSON Schema and the SmolLM2 token ids of
/// a valid instance, in a spaced and a compact layout.
struct GuidedCase: Sendable, CustomStringConvertible {
    let id: String
    let schema: Grammar
    let text: String
    let tokens: [Int]
    var description: String { id }

    static let all: Result<[GuidedCase], any Error> = Result { try load() }

    struct LoadError: Error, CustomStringConvertible { let description: String }

    static func load() throws -> [GuidedCase] {
        let text = try String(contentsOf: TestPaths.ref("guided/tokens.json"), encoding: .utf8)
        let json = try JSONValue.parse(text)
        guard case let .array(cases, _)? = json["cases"] else { throw LoadError(description: "no cases") }
        return try cases.map { c in
            guard case let .string(id, _)? = c["id"], case let .string(text, _)? = c["text"],
                  case let .array(ids, _)? = c["tokens"], let schema = c["schema"]
            else { throw LoadError(description: "malformed case") }
            let tokens = ids.compactMap { v -> Int? in if case let .number(t, _) = v { Int(t) } else { nil } }
            return GuidedCase(id: id, schema: try Grammar(jsonSchema: schema), text: text, tokens: tokens)
        }
    }
}
