import Foundation

// The checks a request passes before each model call, in the order `startStep` runs them; each throws the error a
// session on Apple's framework throws, before the transcript or the model sees the request.
extension ResponseRun {
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` for an unavailable model, with the cause the
    ///   model gives (``LanguageModelDetails/unavailabilityDescription``).
    func checkAvailability(of model: SessionModel) throws {
        if case .unavailable(let reason) = model.availability {
            let cause = model.unavailabilityDescription.map { ": \($0)" } ?? ""
            throw SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "The model is unavailable (\(reason))\(cause)."))
        }
    }

    /// - Throws: ``LanguageModelError/unsupportedCapability(_:)`` when the call has tools and `model` cannot call
    ///   them, with the cause the local model gives.
    func checkToolCalling(_ model: SessionModel) throws {
        if !tools.isEmpty, !model.capabilities.contains(.toolCalling) {
            let cause = model.missingToolCallingDescription.map { ": \($0)" } ?? ""
            throw LanguageModelError.unsupportedCapability(.init(capability: .toolCalling,
                debugDescription: "The session has tools, but the model does not support tool calling\(cause)."))
        }
    }

    /// - Throws: what the model says for a schema on a model without guided generation (never a silent
    ///   downgrade to text): ``LanguageModelError/unsupportedGenerationGuide(_:)`` from the package's models,
    ///   ``LanguageModelError/unsupportedCapability(_:)`` from a model written for Apple's contract. (Tools are checked per model call, in `startStep`.)
    func checkCapabilities(_ capabilities: LanguageModelCapabilities) throws {
        if let format = plan.responseFormat, !capabilities.contains(.guidedGeneration) {
            throw model.unsupportedSchemaError(schemaName: format.name.isEmpty ? nil : format.name)
        }
    }

    /// Turns away attachments (in the prompt or anywhere in the transcript sent) for a model without `.vision`.
    /// - Throws: ``LanguageModelError/unsupportedCapability(_:)`` for `.vision` (Apple 27's error for a request
    ///   that needs a capability the model lacks), naming how many entries hold attachments.
    func checkAttachments(_ capabilities: LanguageModelCapabilities) throws {
        guard !capabilities.contains(.vision) else { return }
        var entries = (base.entries + newEntries).filter(\.hasAttachment)
        if toolRounds == 0, plan.prompt.segments.contains(where: \.isAttachment) {
            entries.append(.prompt(Transcript.Prompt(segments: plan.prompt.segments, options: plan.options)))
        }
        guard !entries.isEmpty else { return }
        throw LanguageModelError.unsupportedCapability(.init(capability: .vision,
            debugDescription: "The model does not accept images (it lacks the .vision capability), and the request holds \(entries.count == 1 ? "an entry" : "\(entries.count) entries") with attachments."))
    }

    /// A `GenerableSchema` type whose guides are inconsistent has a placeholder schema (see
    /// `GenerableSchema.generationSchema`); the request stops here, before the transcript or the model sees it.
    /// - Throws: ``LanguageModelError/unsupportedGenerationGuide(_:)`` naming the response's type or the tool,
    ///   with the `GenerableSchemaError`'s description.
    func checkSchemasBuilt() throws {
        if let format = plan.responseFormat, let reason = format.schema.unbuildableReason {
            throw LanguageModelError.unsupportedGenerationGuide(.init(schemaName: format.name.isEmpty ? nil : format.name,
                debugDescription: "The response schema cannot be built: \(reason)"))
        }
        for tool in tools {
            if let reason = tool.parameters.unbuildableReason {
                throw LanguageModelError.unsupportedGenerationGuide(.init(schemaName: tool.name,
                    debugDescription: "The arguments schema of tool \(tool.name) cannot be built: \(reason)"))
            }
        }
    }

    func checkGuardrails(_ text: String, _ direction: SystemLanguageModel.Guardrails.Direction) throws {
        if case .rejected(let reason) = model.guardrails.check(text, direction) {
            throw LanguageModelError.guardrailViolation(.init(debugDescription: reason))
        }
    }
}
