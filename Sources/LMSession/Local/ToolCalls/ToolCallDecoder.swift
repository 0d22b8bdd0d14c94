import Foundation
import LMGrammar
import LMTransformer

/// The token-level rules of one model call that may call tools: which tokens may come next, what each
/// generated token is (response text, part of a call, the end), and the calls once they are complete.
///
/// A response starts as free text (or, with a response schema, as the schema's value). Text that completes
/// ``ToolCallEnvelope/open`` switches to the call grammar (``Grammar/toolCall(_:isList:maximumCalls:)``): from
/// there each tool name is one of the tools and the arguments follow its parameters. When the JSON closes, the
/// closing tag is forced; for a list syntax that ends the turn, for one object per call the model may end its turn
/// or open another envelope (a parallel call). A call that repeats an earlier call of the round (same name and
/// arguments) is dropped; with one object per call it also ends the turn, as the model is looping. With
/// ``GenerationOptions/ToolCallingMode/required`` the opening tag is forced at the start; with
/// ``GenerationOptions/ToolCallingMode/disallowed`` a token that would complete the opening tag is rejected.
///
/// The caller samples with ``next()``'s mask, and a token that ``accept(_:)`` rejects is banned and sampled
/// again (free text is not masked up front: the opening tag is rare, so checking the sampled token is cheaper).
///
/// Tool-protocol markup never reaches the response: in free text and inside a structured answer, a token
/// that would complete `</tool_call>`, `<tool_response` or `</tool_response` (whatever follows), `<tools>` or
/// `</tools>` is rejected (see ``ToolMarkupScanner``), and text that may be the start of a tag is held back until
/// decided. The envelope's tokens are ``EnvelopeTokens`` (`+Envelope`); complete calls are read by `+CallParsing`
/// and `+NameFirst`; this file is the phase machine.
package struct ToolCallDecoder {
    /// What the caller does next.
    package enum Next: Equatable {
        /// Sample a token from `allowed` (bit `i % 64` of word `i / 64` is token `i`; nil: any token), then
        /// pass it to ``accept(_:)``.
        case sample(allowed: [UInt64]?)
        /// Append these tokens without sampling (envelope text the convention fixes); they are already accepted.
        case force([Int])
        /// The model call is over: it called these tools.
        case call([Transcript.ToolCall])
        /// The model call is over: the response ended (end of generation, or nothing more allowed).
        case end
    }

    /// What a sampled token turned out to be.
    package enum Acceptance: Equatable {
        /// Response text: show it, with anything held before it.
        case text
        /// Response text that may be the start of a call's opening tag: hold it back until that is decided.
        case held
        /// Part of a tool call: not response text (anything held was the opening tag).
        case call
        /// End of generation.
        case end
        /// Not allowed here: ban it and sample again.
        case rejected
    }

    /// The most calls in one round; after that the model can only end its turn.
    package static let maximumCallsPerRound = 8
    /// The most tokens the model may generate for one envelope's JSON (a call, or a round's list of calls); the
    /// forced tags are not counted. Bounds a string the model never closes.
    package static let maximumTokensPerEnvelope = 512

    enum Phase {
        /// Nothing generated yet.
        case start
        /// Free text (``markup`` follows its tags).
        case text
        /// The structured response (schema matcher).
        case value
        /// Inside a call's JSON.
        case call
        /// A call closed: end the turn or open another call.
        case afterCall
        /// Generation ended.
        case done
    }

    let mode: GenerationOptions.ToolCallingMode.Kind
    let index: TokenIndex
    let tokenBytes: (Int) -> [UInt8]
    let envelope: EnvelopeTokens
    private let callMatcher: GrammarMatcher
    let valueMatcher: GrammarMatcher?
    /// The tags in the response so far (free text or the structured answer's bytes).
    private var markup: ToolMarkupScanner
    private(set) var phase = Phase.start
    private var pendingForce: [Int] = []
    private var callBytes: [UInt8] = []
    private var callTokenCount = 0
    var stringGuard = ToolCallStringGuard()
    /// Whether this step's mask is the grammar's alone, as the string guard admitted none of its tokens.
    var guardYields = false
    /// The tokens the string guard may refuse outside the closing tag's start (computed on first use).
    var guardSuspects: [Int]?
    package private(set) var calls: [Transcript.ToolCall] = []
    var mask: [UInt64]
    private let makeID: () -> String
    /// The tools' names, longest first (to read a ``EnvelopeTokens/nameFirst`` call).
    private let toolNames: [String]

    /// - Parameters:
    ///   - definitions: the tools the model may call; none for a request without tools whose transcript holds
    ///     tool calls or outputs: then no call can open (the mode is `.disallowed`) and the markup the transcript
    ///     shows the model is refused in the answer as it is with tools.
    ///   - schema: the response schema, or nil for a text response.
    ///   - mode: the tool-calling mode of this model call.
    ///   - index: the prepared vocabulary (its token ids are the ids used here).
    ///   - tokenBytes: the bytes a token stands for (as the grammar sees it).
    ///   - envelope: the envelope texts as tokens.
    ///   - makeID: the id of each call (default: a UUID).
    /// - Throws: ``LanguageModelError/unsupportedGenerationGuide(_:)`` when a tool's parameters (`schemaName` is
    ///   the tool's name, when one tool alone fails) or the response schema (its name) cannot be enforced.
    package init(definitions: [Transcript.ToolDefinition], schema: GenerationSchema?, mode: GenerationOptions.ToolCallingMode.Kind,
                 index: TokenIndex, tokenBytes: @escaping (Int) -> [UInt8], envelope: EnvelopeTokens,
                 makeID: @escaping () -> String = { UUID().uuidString }) throws(LanguageModelError) {
        do {
            // Without tools the call grammar is never run (no call opens); any grammar stands in for it.
            let grammar = definitions.isEmpty ? Grammar(root: .literals(["{}"])) : try Grammar.toolCall(definitions, isList: envelope.isList, maximumCalls: Self.maximumCallsPerRound,
                                               argumentsKey: envelope.argumentsKey, id: envelope.id,
                                               nameFirst: envelope.nameFirst)
            callMatcher = GrammarMatcher(grammar: try CompiledGrammar(grammar), index: index)
        } catch {
            let failing = definitions.filter { (try? Grammar.toolCall([$0], isList: envelope.isList, maximumCalls: 1,
                                                                      argumentsKey: envelope.argumentsKey, id: envelope.id,
                                                                      nameFirst: envelope.nameFirst)).flatMap { try? CompiledGrammar($0) } == nil }
            throw .unsupportedGenerationGuide(.init(schemaName: failing.count == 1 ? failing[0].name : nil,
                                                    debugDescription: "The tools' parameters cannot be enforced: \(error)"))
        }
        do {
            valueMatcher = try schema.map { schema throws(GrammarError) in
                GrammarMatcher(grammar: try CompiledGrammar(try Grammar(jsonSchema: schema.jsonValue)), index: index)
            }
        } catch {
            throw .unsupportedGenerationGuide(.init(schemaName: schema.flatMap { $0.formatName.isEmpty ? nil : $0.formatName },
                                                    debugDescription: "The schema cannot be enforced: \(error)"))
        }
        self.mode = definitions.isEmpty ? .disallowed : mode
        self.index = index
        self.tokenBytes = tokenBytes
        self.envelope = envelope
        self.makeID = makeID
        self.toolNames = definitions.map(\.name).sorted { $0.utf8.count > $1.utf8.count }
        self.mask = [UInt64](repeating: 0, count: index.wordCount)
        self.markup = ToolMarkupScanner(envelope.tags)
    }

    /// What to do next.
    package mutating func next() -> Next {
        if !pendingForce.isEmpty {
            defer { pendingForce = [] }
            return .force(pendingForce)
        }
        switch phase {
        case .start:
            if mode == .required {
                openCall(forcing: envelope.open)
                return next()
            }
            guard let valueMatcher else { return .sample(allowed: nil) }
            fillMask(valueMatcher)
            // A structured response may instead open a call with the opening tag's first token.
            if mode == .allowed, let first = envelope.open.first { set(first) }
            return .sample(allowed: mask)
        case .text:
            return .sample(allowed: nil)
        case .value:
            guard let valueMatcher else { return .end }
            fillMask(valueMatcher)
            return mask.contains(where: { $0 != 0 }) ? .sample(allowed: mask) : .end
        case .call:
            // A string that repeats itself is a model stuck in a loop: close it.
            if stringGuard.isLooping, let quote = envelope.quote, callMatcher.accept(token: quote) {
                stringGuard.advance(tokenBytes(quote))
                callBytes += tokenBytes(quote)
                return .force([quote])
            }
            fillMask(callMatcher)
            applyStringGuard()
            return .sample(allowed: mask)
        case .afterCall:
            mask.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            for token in index.endOfGenerationTokens { set(token) }
            if calls.count < Self.maximumCallsPerRound, let first = envelope.separatorAndOpen.first { set(first) }
            return .sample(allowed: mask)
        case .done:
            return calls.isEmpty ? .end : .call(calls)
        }
    }

    /// Takes the sampled `token`.
    /// - Throws: ``GeneratedContent/ParsingError`` when a complete call's JSON does not decode (the grammar
    ///   should make that impossible) or a call runs longer than ``maximumTokensPerEnvelope``.
    package mutating func accept(_ token: Int) throws(GeneratedContent.ParsingError) -> Acceptance {
        let isEnd = index.endOfGenerationTokens.contains(token)
        switch phase {
        case .start where valueMatcher != nil:
            phase = .value
            if mode == .allowed, token == envelope.open.first, !valueAllows(token) {
                openCall(forcing: Array(envelope.open.dropFirst()))
                return .call
            }
            return try accept(token)
        case .start:
            phase = .text
            return try accept(token)
        case .text:
            if isEnd {
                phase = .done
                return .end
            }
            return try acceptText(token)
        case .value:
            // A string of the answer must not spell a tag either.
            var scanner = markup
            guard let valueMatcher, scanner.scan(tokenBytes(token)) == nil, valueMatcher.accept(token: token) else { return .rejected }
            markup = scanner
            if isEnd {
                phase = .done
                return .end
            }
            return .text
        case .call:
            let bytes = tokenBytes(token)
            guard !isEnd, guardYields || stringGuard.admits(bytes), callMatcher.accept(token: token) else { return .rejected }
            guardYields = false
            stringGuard.advance(bytes)
            callBytes += bytes
            callTokenCount += 1
            if callTokenCount > Self.maximumTokensPerEnvelope {
                let partial = String(decoding: callBytes, as: UTF8.self)
                throw GeneratedContent.ParsingError(rawContent: partial,
                                                    debugDescription: "The tool call is longer than \(Self.maximumTokensPerEnvelope) tokens: \(partial)")
            }
            try closeCallIfComplete()
            return .call
        case .afterCall:
            if isEnd {
                phase = .done
                return .end
            }
            guard calls.count < Self.maximumCallsPerRound, token == envelope.separatorAndOpen.first else { return .rejected }
            openCall(forcing: Array(envelope.separatorAndOpen.dropFirst()))
            return .call
        case .done:
            return .rejected
        }
    }

    /// Whether the model is calling tools (from the opening tag of the first call to the end of the turn; under
    /// `.required`, from the start, where the call is opened): its tokens are then not response text, and
    /// `maximumResponseTokens` does not cut them, so a budget of 0 still makes the required call.
    package var isCallingTools: Bool {
        switch phase {
        case .call, .afterCall: true
        case .done: !calls.isEmpty
        case .start: mode == .required
        case .text, .value: false
        }
    }

    // MARK: - Steps

    /// Enters a call whose opening tag (or its rest) `tokens` will be forced next.
    /// When the opening text is the start of the JSON (``EnvelopeTokens/tagStartsJSON``), the grammar reads it
    /// here, as the forced tokens will spell it.
    private mutating func openCall(forcing tokens: [Int]) {
        phase = .call
        callMatcher.reset()
        callBytes = []
        callTokenCount = 0
        stringGuard = ToolCallStringGuard()
        pendingForce = tokens
        if envelope.tagStartsJSON, callMatcher.accept(bytes: envelope.tagBytes) {
            callBytes = envelope.tagBytes
            stringGuard.advance(callBytes)
        }
    }

    private mutating func acceptText(_ token: Int) throws(GeneratedContent.ParsingError) -> Acceptance {
        let bytes = tokenBytes(token)
        var scanner = markup
        guard let (end, tag) = scanner.scan(bytes) else {
            markup = scanner
            return scanner.isInsideTag ? .held : .text
        }
        // Only the opening tag may be completed, and only when calls are allowed; the rest of the token
        // must start the call's JSON.
        guard tag == .open, mode != .disallowed else { return .rejected }
        callMatcher.reset()
        var rest = Array(bytes[end...])
        var force: [Int] = []
        if !envelope.openRest.bytes.isEmpty {
            // The opening text goes on after the tag (a newline): forced when the token ends with the tag.
            if rest.isEmpty {
                force = envelope.openRest.tokens
            } else if rest.starts(with: envelope.openRest.bytes) {
                rest.removeFirst(envelope.openRest.bytes.count)
            } else {
                return .rejected
            }
        }
        if envelope.tagStartsJSON { rest = envelope.tagBytes + rest }
        guard callMatcher.accept(bytes: rest) else { return .rejected }
        markup = ToolMarkupScanner(envelope.tags)
        phase = .call
        pendingForce = force
        callBytes = rest
        callTokenCount = 0
        stringGuard = ToolCallStringGuard()
        stringGuard.advance(callBytes)
        try closeCallIfComplete()
        return .call
    }

    private mutating func closeCallIfComplete() throws(GeneratedContent.ParsingError) {
        guard callMatcher.canEnd else { return }
        let json = String(decoding: callBytes, as: UTF8.self)
        if let nameFirst = envelope.nameFirst {
            // One call per opening; a repeated call means the model is looping: end the turn.
            var call = try nameFirstCall(nameFirst)
            call.id = Self.uniqueID(call.id, among: calls, makeID: makeID)
            if Self.repeats(call.toolName, call.arguments, calls) {
                phase = .done
            } else {
                calls.append(call)
                phase = .afterCall
                pendingForce = envelope.close
            }
            return
        }
        let (new, repeated) = try Self.jsonCalls(json, isList: envelope.isList, argumentsKey: envelope.argumentsKey,
                                                  idKey: envelope.id?.key, earlier: calls, makeID: makeID)
        calls += new
        // A repeated envelope means the model is looping: end the turn without forcing the closing tag.
        if !envelope.isList && repeated {
            phase = .done
            return
        }
        phase = envelope.isList ? .done : .afterCall
        pendingForce = envelope.close
    }

    private func nameFirstCall(_ layout: ToolCallSyntax.NameFirst) throws(GeneratedContent.ParsingError) -> Transcript.ToolCall {
        try Self.nameFirstCall(callBytes, layout: layout, toolNames: toolNames, idLength: envelope.id?.length ?? 9, makeID: makeID)
    }

    private mutating func valueAllows(_ token: Int) -> Bool {
        guard let valueMatcher else { return false }
        fillMask(valueMatcher)
        return mask[token >> 6] & (1 << UInt64(token & 63)) != 0
    }

    private mutating func fillMask(_ matcher: GrammarMatcher) {
        mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
    }

    private mutating func set(_ token: Int) {
        guard token >= 0, token < index.tokenCount else { return }
        mask[token >> 6] |= 1 << UInt64(token & 63)
    }
}

extension ToolCallDecoder {
    /// A decoder over a vocabulary given as each token's bytes (`tokens[i]` is token `i`); the ids in
    /// `endOfGeneration` end generation. For callers without a tokenizer, such as tests.
    /// - Throws: as ``init(definitions:schema:mode:index:tokenBytes:envelope:makeID:)``.
    package init(definitions: [Transcript.ToolDefinition], schema: GenerationSchema? = nil, mode: GenerationOptions.ToolCallingMode.Kind,
                 tokens: [[UInt8]], endOfGeneration: Set<Int>, envelope: EnvelopeTokens,
                 makeID: @escaping () -> String) throws(LanguageModelError) {
        let index = TokenIndex(ArrayVocabulary(tokens: tokens, endOfGeneration: endOfGeneration))
        try self.init(definitions: definitions, schema: schema, mode: mode, index: index,
                      tokenBytes: { tokens.indices.contains($0) ? tokens[$0] : [] }, envelope: envelope, makeID: makeID)
    }
}
