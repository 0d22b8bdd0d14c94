extension LanguageModelSession {
    /// A value of the session that evaluates the enclosing profile, dynamic instructions or tool (Apple 27's
    /// `SessionProperty`): its ``SessionPropertyValues/history`` or a custom ``SessionPropertyKey``'s value.
    ///
    /// ```swift
    /// struct CompactingProfile: LanguageModelSession.DynamicProfile {
    ///     @SessionProperty(\.history) var history
    ///     var body: some LanguageModelSession.DynamicProfile {
    ///         Profile { Instructions("Answer briefly.") }
    ///             .onResponse { _ in if history.count > 100 { history = Array(history.suffix(50)) } }
    ///     }
    /// }
    /// ```
    ///
    /// The session is found when the wrapper is read, not when it is created: while a session evaluates a `body`,
    /// runs a profile callback or calls a tool (and in tasks those start), the wrapper reads that session's
    /// ``LanguageModelSession/properties``. Read anywhere else (no session is running it), it reads and writes
    /// values of its own, starting at the defaults, with an empty history. (Apple does not document that case.)
    @propertyWrapper
    public struct SessionProperty<Value> {
        let keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>
        /// The values used outside a session.
        private let detached = SessionPropertyValues()

        public init(_ keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>) {
            self.keyPath = keyPath
        }

        public var wrappedValue: Value {
            get { (SessionPropertyValues.current ?? detached)[keyPath: keyPath] }
            nonmutating set { (SessionPropertyValues.current ?? detached)[keyPath: keyPath] = newValue }
        }
    }
}

// @unchecked: an immutable key path into a Sendable class, and an instance of that class.
extension LanguageModelSession.SessionProperty: @unchecked Sendable {}

extension Tool {
    /// ``LanguageModelSession/SessionProperty`` inside a tool.
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension LanguageModelSession.DynamicProfile {
    /// ``LanguageModelSession/SessionProperty`` inside a dynamic profile.
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension DynamicInstructions {
    /// ``LanguageModelSession/SessionProperty`` inside dynamic instructions.
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}
