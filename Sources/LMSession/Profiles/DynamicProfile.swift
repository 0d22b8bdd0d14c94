extension LanguageModelSession {
    /// Chooses which ``Profile`` is active and how it runs (Apple 27's `LanguageModelSession.DynamicProfile`).
    ///
    /// `body` must resolve to exactly one profile; the ``DynamicProfileBuilder`` checks that at compile time
    /// (`if`/`else`, `switch`, no bare `if`). The session evaluates `body` before every model call of a request,
    /// like ``DynamicInstructions``, so the active profile, its instructions and tools, its model and its settings
    /// follow the app's state. A model call runs on the active profile's ``model(_:)-(any LanguageModel)`` (the
    /// session's model when no modifier sets one), with the same transcript.
    ///
    /// Modifiers configure the profiles inside them. When the same value modifier appears at several levels,
    /// the innermost one wins (a profile's own modifier beats a dynamic profile's default around it), and options
    /// passed to `respond` beat both, field by field (a `nil` field of the call's ``GenerationOptions`` leaves
    /// the profile's value). Life-cycle callbacks (`onPrompt`, `onResponse`...) accumulate: all of them run,
    /// the innermost first.
    public protocol DynamicProfile {
        /// The type of the profile `body` resolves to.
        associatedtype Body: DynamicProfile
        /// Evaluated before every model call.
        @DynamicProfileBuilder var body: Body { get }
    }

    /// Dynamic instructions bound to one configuration: the model and settings its modifiers give
    /// (Apple 27's `LanguageModelSession.Profile`).
    ///
    /// ```swift
    /// Profile {
    ///     Instructions("Write a short poem.")
    /// }
    /// .temperature(likesPoetry ? 0.8 : 0.1)
    /// .reasoningLevel(likesAstronomy ? .deep : .light)
    /// ```
    public struct Profile: DynamicProfile, PrimitiveDynamicProfile {
        let dynamicInstructions: AnyDynamicInstructions

        /// Creates a profile whose instructions and tools are `dynamicInstructions` (evaluated now, when the
        /// enclosing `body` is).
        public init(@DynamicInstructionsBuilder _ dynamicInstructions: () -> some DynamicInstructions) {
            self.dynamicInstructions = AnyDynamicInstructions(dynamicInstructions())
        }

        /// A profile has no body: it is where resolution ends.
        public var body: Never { preconditionFailure("Profile has no body") }

        func resolve(into resolved: inout ResolvedProfile) {
            resolved.identity.append("Profile")
            resolved.instructions = ResolvedInstructions.resolve(dynamicInstructions)
        }
    }

    /// A dynamic profile of any type.
    public struct AnyDynamicProfile: DynamicProfile, PrimitiveDynamicProfile {
        let resolveInto: (inout ResolvedProfile) -> Void

        /// Wraps `dynamicProfile`.
        public init(_ dynamicProfile: any DynamicProfile) {
            resolveInto = { $0.add(dynamicProfile) }
        }

        /// Wraps `dynamicProfile`.
        public init(erasing dynamicProfile: some DynamicProfile) {
            resolveInto = { $0.add(dynamicProfile) }
        }

        public var body: Never { preconditionFailure("AnyDynamicProfile has no body") }

        func resolve(into resolved: inout ResolvedProfile) { resolveInto(&resolved) }
    }
}

extension LanguageModelSession.DynamicProfile {
    /// The profile type a dynamic profile activates.
    public typealias Profile = LanguageModelSession.Profile
    /// The dynamic profile protocol, for `some DynamicProfile` inside a conforming type.
    public typealias DynamicProfile = LanguageModelSession.DynamicProfile
}

extension Never: LanguageModelSession.DynamicProfile {}
