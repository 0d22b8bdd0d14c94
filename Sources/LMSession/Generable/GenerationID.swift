import Foundation

/// Identity of one generated value, stable across the snapshots of a stream (Apple's
/// `GenerationID`).
public struct GenerationID: Sendable, Hashable {
    let uuid: UUID

    /// A new, unique identity.
    public init() { uuid = UUID() }
}
