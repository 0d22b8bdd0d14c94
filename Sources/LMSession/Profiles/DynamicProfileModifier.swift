extension LanguageModelSession {
    /// A reusable set of modifiers (Apple 27's `DynamicProfileModifier`), applied with
    /// ``DynamicProfile/modifier(_:)``:
    ///
    /// ```swift
    /// struct Debug: LanguageModelSession.DynamicProfileModifier {
    ///     func body(content: Content) -> some LanguageModelSession.DynamicProfile {
    ///         content.temperature(0).onResponse { print($0) }
    ///     }
    /// }
    /// ```
    ///
    /// The modifiers in `body` act as modifiers around the content: the content's own modifiers win over them.
    public protocol DynamicProfileModifier {
        /// The dynamic profile `body(content:)` returns.
        associatedtype Body: DynamicProfile
        /// The profile the modifier is applied to.
        typealias Content = DynamicProfileModifierContent<Self>
        /// `content` with this modifier's modifiers.
        @DynamicProfileBuilder func body(content: Content) -> Body
    }

    /// The profile a ``DynamicProfileModifier`` is applied to, as its `body(content:)` receives it.
    public struct DynamicProfileModifierContent<Modifier: DynamicProfileModifier>: DynamicProfile, PrimitiveDynamicProfile {
        let content: AnyDynamicProfile

        public var body: Never { preconditionFailure("DynamicProfileModifierContent has no body") }

        func resolve(into resolved: inout ResolvedProfile) { content.resolve(into: &resolved) }
    }

    /// A dynamic profile with a ``DynamicProfileModifier`` applied to it.
    public struct ModifiedDynamicProfile<Content: DynamicProfile, Modifier: DynamicProfileModifier>: DynamicProfile, PrimitiveDynamicProfile {
        let content: Content
        let modifier: Modifier

        public var body: Never { preconditionFailure("ModifiedDynamicProfile has no body") }

        func resolve(into resolved: inout ResolvedProfile) {
            resolved.add(modifier.body(content: DynamicProfileModifierContent(content: AnyDynamicProfile(erasing: content))))
        }
    }
}

extension LanguageModelSession.DynamicProfile {
    /// This profile with `modifier`'s modifiers around it.
    public func modifier<Modifier: LanguageModelSession.DynamicProfileModifier>(_ modifier: Modifier) -> some LanguageModelSession.DynamicProfile {
        LanguageModelSession.ModifiedDynamicProfile(content: self, modifier: modifier)
    }
}

extension LanguageModelSession.DynamicProfileModifier {
    /// The dynamic profile protocol, for `some DynamicProfile` inside a conforming type.
    public typealias DynamicProfile = LanguageModelSession.DynamicProfile
}
