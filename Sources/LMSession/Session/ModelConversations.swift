import Synchronization

/// A session's conversations, one per model it runs on: its own model's, made when the session is, and those
/// of the models a profile's ``LanguageModelSession/DynamicProfile/model(_:)-(any LanguageModel)`` switches to,
/// made on first use and kept for the session's life.
///
/// A model is recognised by its identity (a class instance by itself). Any value (a model written for Apple's contract, the
/// package's models among them, whose state is their executor's or their model's, found by the transcript) gets a
/// new conversation per model call.
final class ModelConversations: Sendable {
    /// The session's model, used by calls whose profile sets no model.
    let defaultModel: any ConversationModel
    let defaultConversation: any LanguageModelConversation
    private let others = Mutex<[Key: (model: any ConversationModel, conversation: any LanguageModelConversation)]>([:])

    init(defaultModel: any ConversationModel) {
        self.defaultModel = defaultModel
        self.defaultConversation = defaultModel.makeConversation()
    }

    /// The conversation a call on `model` runs in (`nil`: the session's model).
    func conversation(for model: (any ConversationModel)?) -> any LanguageModelConversation {
        guard let model else { return defaultConversation }
        guard let key = Self.identity(of: model) else { return model.makeConversation() }
        if key == Self.identity(of: defaultModel) { return defaultConversation }
        return others.withLock { others in
            if let kept = others[key] { return kept.conversation }
            // The model is kept with its conversation so that its identifier is not reused by another object.
            let made = model.makeConversation()
            others[key] = (model, made)
            return made
        }
    }

    /// What a kept conversation is found by: an object's identity.
    typealias Key = ObjectIdentifier

    /// What conversations of `model` are kept under; nil for a value.
    static func identity(of model: any ConversationModel) -> Key? {
        if type(of: model) is AnyClass { return ObjectIdentifier(model as AnyObject) }
        return nil
    }
}
