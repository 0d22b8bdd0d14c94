import LMGrammar

extension GenerationSchema {
    /// Why a schema cannot constrain generation.
    package enum GrammarFailure: Error, Sendable, CustomStringConvertible {
        /// A guide the token-mask engine cannot enforce (a pattern with lookaround, a Regex with
        /// no source text); the session reports it as `unsupportedGuide`.
        case unsupportedGuide(String)
        /// The schema is malformed for generation (undefined reference, empty range...).
        case invalid(String)

        package var description: String {
            switch self {
            case let .unsupportedGuide(d): "unsupported guide: \(d)"
            case let .invalid(d): "invalid schema: \(d)"
            }
        }
    }

    /// The JSON grammar of this schema, for the token-mask engine.
    package func grammar() throws(GrammarFailure) -> Grammar {
        if containsOpaquePattern { throw .unsupportedGuide("a Regex without source text; use .pattern(\"source\")") }
        do {
            return try Grammar(jsonSchema: jsonValue)
        } catch {
            switch error {
            case .unsupportedPattern, .unsupportedKeyword: throw .unsupportedGuide(error.description)
            default: throw .invalid(error.description)
            }
        }
    }

    /// The grammar compiled to its automaton.
    package func compiledGrammar(options: GrammarOptions = GrammarOptions()) throws(GrammarFailure) -> CompiledGrammar {
        do {
            return try CompiledGrammar(try grammar(), options: options)
        } catch let error as GrammarFailure {
            throw error
        } catch let error as GrammarError {
            switch error {
            case .unsupportedPattern, .unsupportedKeyword: throw .unsupportedGuide(error.description)
            default: throw .invalid(error.description)
            }
        } catch {
            throw .invalid("\(error)")
        }
    }

    /// True when `json` is a complete value this schema's grammar generates (checked byte by
    /// byte with the same automaton that masks tokens). Recursion may nest as deep as the text does.
    package func grammarAccepts(_ json: String) throws(GrammarFailure) -> Bool {
        let compiled = try compiledGrammar(options: GrammarOptions(recursionBoundedByInput: true))
        let index = TokenIndex(ArrayVocabulary(tokens: []))
        let matcher = GrammarMatcher(grammar: compiled, index: index)
        return matcher.accept(bytes: Array(json.utf8)) && matcher.isComplete
    }

    /// The reason a `GenerableSchema` type inside this schema has none (its `GenerableSchemaError`'s
    /// description, see `GenerableSchema.generationSchema`); nil when every type was built.
    package var unbuildableReason: String? {
        func find(_ node: SchemaNode) -> String? {
            switch node {
            case let .object(o): return o.unbuildableReason ?? o.properties.lazy.compactMap { find($0.node) }.first
            case let .array(items, _, _): return find(items)
            case let .anyOf(choices): return choices.lazy.compactMap(find).first
            default: return nil
            }
        }
        return find(root) ?? definitions.lazy.compactMap { find($0.node) }.first
    }

    var containsOpaquePattern: Bool {
        func check(_ node: SchemaNode) -> Bool {
            switch node {
            case let .string(s): return s.hasOpaquePattern
            case let .object(o): return o.properties.contains { check($0.node) }
            case let .array(items, _, _): return check(items)
            case let .anyOf(choices): return choices.contains(where: check)
            default: return false
            }
        }
        return check(root) || definitions.contains { check($0.node) }
    }
}
