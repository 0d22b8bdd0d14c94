/// A conversation whose `generate` checks the context budget itself, on the very tokens it generates
/// from, and throws ``LanguageModelError/contextSizeExceeded(_:)`` (with both
/// counts, as the session's own check words it) before running the model. The session then skips its
/// check through ``LanguageModelDetails/tokenCount(for:)``, so a request is rendered and tokenized once.
package protocol ChecksContextBudget {}
