extension GeneratedContent {
    /// This content converted to `type`.
    /// - Throws: `ParsingError` (or the error `type`'s initializer throws) when it does not fit.
    public func value<V: ConvertibleFromGeneratedContent>(_ type: V.Type = V.self) throws -> V {
        try V(self)
    }

    /// The property `property` of this structure, converted to `type`.
    /// - Throws: `ParsingError` when this is not a structure or the property is absent, or the
    ///   conversion's error.
    public func value<V: ConvertibleFromGeneratedContent>(_ type: V.Type = V.self, forProperty property: String) throws -> V {
        guard case let .structure(properties, _) = kind else {
            throw ParsingError(rawContent: jsonString, debugDescription: "expected a structure holding \"\(property)\"")
        }
        guard let value = properties[property] else {
            throw ParsingError(rawContent: jsonString, debugDescription: "missing property \"\(property)\"")
        }
        return try V(value)
    }

    /// The property `property` of this structure converted to `type`, or nil when it is absent
    /// or `null`.
    /// - Throws: `ParsingError` when this is not a structure, or the conversion's error.
    public func value<V: ConvertibleFromGeneratedContent>(_ type: V?.Type = V?.self, forProperty property: String) throws -> V? {
        guard case let .structure(properties, _) = kind else {
            throw ParsingError(rawContent: jsonString, debugDescription: "expected a structure holding \"\(property)\"")
        }
        guard let value = properties[property], value.kind != .null else { return nil }
        return try V(value)
    }
}
