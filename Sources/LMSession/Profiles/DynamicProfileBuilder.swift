extension LanguageModelSession {
    /// Builds a ``DynamicProfile``'s `body` (Apple 27's `DynamicProfileBuilder`): exactly one profile, or an
    /// `if`/`else` or `switch` whose every branch is one, so that one profile is active at a time. Two profiles
    /// side by side, an empty body or an `if` without `else` do not compile.
    @resultBuilder
    public struct DynamicProfileBuilder {
        /// The one profile of the body.
        public static func buildBlock<Content: DynamicProfile>(_ content: Content) -> Content { content }

        /// Refused: more than one profile (or none) would be active.
        @available(*, unavailable, message: "The body of a 'DynamicProfile' must evaluate to a single active profile")
        public static func buildBlock<each Content: DynamicProfile>(_ content: repeat each Content) -> Never {
            preconditionFailure("unavailable")
        }

        /// The `if` branch (or an earlier `case`).
        public static func buildEither<TrueContent: DynamicProfile, FalseContent: DynamicProfile>(
            first content: TrueContent
        ) -> ConditionalDynamicProfile<TrueContent, FalseContent> {
            ConditionalDynamicProfile(branch: .first(content))
        }

        /// The `else` branch (or a later `case`).
        public static func buildEither<TrueContent: DynamicProfile, FalseContent: DynamicProfile>(
            second content: FalseContent
        ) -> ConditionalDynamicProfile<TrueContent, FalseContent> {
            ConditionalDynamicProfile(branch: .second(content))
        }

        /// A profile inside `if #available`.
        public static func buildLimitedAvailability(_ content: some DynamicProfile) -> AnyDynamicProfile {
            AnyDynamicProfile(erasing: content)
        }
    }

    /// One of two profiles, chosen by an `if`/`else` or `switch` in a ``DynamicProfileBuilder``.
    public struct ConditionalDynamicProfile<TrueContent: DynamicProfile, FalseContent: DynamicProfile>: DynamicProfile, PrimitiveDynamicProfile {
        enum Branch { case first(TrueContent), second(FalseContent) }
        let branch: Branch

        public var body: Never { preconditionFailure("ConditionalDynamicProfile has no body") }

        /// The branch taken is part of the active profile's identity, so switching branches deactivates one
        /// profile and activates the other.
        func resolve(into resolved: inout ResolvedProfile) {
            switch branch {
            case .first(let content):
                resolved.identity.append("if")
                resolved.add(content)
            case .second(let content):
                resolved.identity.append("else")
                resolved.add(content)
            }
        }
    }
}
