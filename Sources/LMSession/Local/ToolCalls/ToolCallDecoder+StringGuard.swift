extension ToolCallDecoder {
    /// Narrows the call grammar's mask in ``mask`` to the tokens ``ToolCallStringGuard`` admits, unless it admits
    /// none of them: then the grammar alone decides (a string guided to `"}}"` or `"</tool_call>"` must be written
    /// as it is), and ``guardYields`` tells ``accept(_:)`` not to apply the guard to this step's token.
    mutating func applyStringGuard() {
        guardYields = false
        if guardSuspects == nil {
            guardSuspects = (0..<index.tokenCount).filter { ToolCallStringGuard.mayRefuse(tokenBytes($0)) }
        }
        var refused: [Int] = []
        func check(_ token: Int) {
            if mask[token >> 6] >> UInt64(token & 63) & 1 == 1, !stringGuard.admits(tokenBytes(token)) { refused.append(token) }
        }
        if stringGuard.endsInsideTag {
            for token in 0..<index.tokenCount { check(token) }
        } else {
            for token in guardSuspects ?? [] { check(token) }
        }
        guard !refused.isEmpty else { return }
        for token in refused { mask[token >> 6] &= ~(1 << UInt64(token & 63)) }
        guard !mask.contains(where: { $0 != 0 }) else { return }
        for token in refused { mask[token >> 6] |= 1 << UInt64(token & 63) }
        guardYields = true
    }
}
