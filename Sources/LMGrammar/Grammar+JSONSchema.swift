extension Grammar {
    /// Marks a string schema whose pattern guide has no source text (LMSession writes it for a
    /// Regex it cannot read back); reading it throws `unsupportedPattern`.
    package static let unavailablePatternKeyword = "x-lmsession-pattern-unavailable"
    /// Marks a type whose schema could not be built (its value: the reason); no grammar accepts it.
    package static let unbuildableSchemaKeyword = "x-lmsession-unbuildable"

    /// Reads a JSON Schema (drafts 4 to 2020-12, or Apple's shape with `x-order`) into a grammar
    /// whose every value the schema accepts.
    ///
    /// Every keyword that constrains values is enforced: `type` (a name or a list), `enum` and
    /// `const` of any JSON values, `minimum`/`maximum` and both forms of `exclusiveMinimum`/
    /// `exclusiveMaximum`, integer `multipleOf`, `minLength`/`maxLength`, `pattern` (matched
    /// anywhere unless anchored), `items` (a schema or a tuple), `prefixItems`, `additionalItems`,
    /// `minItems`/`maxItems`, `uniqueItems`, `contains`/`minContains`, `properties` (in `x-order`
    /// or written order), `required` (also names not in `properties`), `additionalProperties`,
    /// `patternProperties`, `propertyNames`, `minProperties`/`maxProperties`, `dependentRequired`,
    /// `dependentSchemas`, `dependencies`, `allOf`, `anyOf`, `oneOf` (branches kept exclusive),
    /// `not`, `if`/`then`/`else`, `$ref` to any JSON pointer or anchor in the document (`#`,
    /// `#/$defs/...`, `#/definitions/a/properties/b`). A keyword the grammar cannot enforce throws
    /// `unsupportedKeyword` naming it and its JSON pointer; other keywords (`title`,
    /// `description`, `format`, `default`, `examples`, `$schema`, extensions...) are annotations.
    ///
    /// Where JSON Schema allows more than a token mask can check, the grammar generates a subset
    /// of the valid values: objects have only their declared properties unless the schema asks
    /// for others (`additionalProperties` with a schema, `patternProperties`, `minProperties`, no
    /// properties at all); a schema without `type` generates the kinds its keywords constrain;
    /// `uniqueItems` arrays of open-ended items have at most one item.
    /// - Throws: `GrammarError.invalidSchema` for text that is not a schema,
    ///   `.unsupportedKeyword` for a keyword it cannot enforce, `.emptyLanguage` when no value
    ///   satisfies the schema, `.unsupportedPattern` for an LMSession guide without source.
    public init(jsonSchema text: String, options: GrammarOptions = GrammarOptions()) throws(GrammarError) {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw .invalidSchema(path: "", reason: "the JSON cannot be read: \(error)") }
        try self.init(jsonSchema: json, options: options)
    }

    /// ``init(jsonSchema:options:)`` on parsed JSON; an object that gives a key twice is `.invalidSchema` at its pointer.
    package init(jsonSchema json: JSONValue, options: GrammarOptions = GrammarOptions()) throws(GrammarError) {
        if let (path, reason) = json.firstRepeatedKey() { throw .invalidSchema(path: path, reason: reason) }
        self = try SchemaReader(document: SchemaDocument(root: json), options: options).grammar()
    }
}
