/// Finds the tool protocol's tags in text as it is generated, byte by byte (Aho-Corasick over the few
/// tags of a ``ToolCallSyntax``): the call's start (``ToolCallSyntax/callStart``, `<tool_call>` by default)
/// opens a call; the others (`</tool_call>`, `<tool_response>`, `</tool_response>`, `<tools>` and `</tools>`)
/// never belong in a response (a model that writes `<tool_response>` is inventing a tool's output or echoing
/// the protocol), so the decoder refuses the token that would complete one.
package struct ToolMarkupScanner {
    enum Tag: Equatable { case open, other }

    /// The tags of one syntax, compiled once: the call's start first.
    package struct Tags: Sendable {
        let automaton: Automaton

        /// - Parameters:
        ///   - open: the text that starts a call.
        ///   - others: texts refused in a response; an empty one, or one that `open` starts with, is left out.
        package init(open: String, others: [String]) {
            let kept = others.filter { !$0.isEmpty && !open.hasPrefix($0) && $0 != open }
            automaton = Automaton(([open] + kept).map { Array($0.utf8) })
        }

        /// The protocol's texts refused in a response whatever the envelope: the tool-output tags without their `>`
        /// (so `<tool_response:x>` and `<tool_response id=…>` are refused too) and the tools section's tags.
        package static let protocolTexts = [
            String(ToolCallEnvelope.responseOpen.dropLast()), String(ToolCallEnvelope.responseClose.dropLast()), "<tools>", "</tools>",
        ]

        /// The tags of the default envelope (``ToolCallEnvelope``).
        package static let standard = Tags(open: ToolCallEnvelope.open, others: [ToolCallEnvelope.close] + protocolTexts)
    }

    private let tags: Tags

    /// The automaton state: the longest suffix of the text that is a prefix of a tag.
    private(set) var state: Int16 = 0

    init(_ tags: Tags = .standard) {
        self.tags = tags
    }

    /// Whether the text so far ends with the start of a tag (it may still become one).
    var isInsideTag: Bool { state != 0 }

    /// Scans `bytes`; returns where the first complete tag ends (the offset after its last byte) and
    /// which tag it is, or nil. The state stays at the tag's end when one is found.
    mutating func scan(_ bytes: some Collection<UInt8>) -> (end: Int, tag: Tag)? {
        for (offset, byte) in bytes.enumerated() {
            state = tags.automaton.next[Int(state) * 256 + Int(byte)]
            if let tag = tags.automaton.match[Int(state)] {
                return (offset + 1, tag == 0 ? .open : .other)
            }
        }
        return nil
    }

    /// The goto/failure automaton of a set of byte strings, as a dense transition table.
    struct Automaton: Sendable {
        /// `next[state * 256 + byte]`.
        let next: [Int16]
        /// The tag completed on reaching each state (nil: none).
        let match: [Int?]

        init(_ patterns: [[UInt8]]) {
            var children: [[UInt8: Int]] = [[:]]
            var match: [Int?] = [nil]
            for (index, pattern) in patterns.enumerated() {
                var node = 0
                for byte in pattern {
                    if let child = children[node][byte] {
                        node = child
                    } else {
                        children.append([:])
                        match.append(nil)
                        children[node][byte] = children.count - 1
                        node = children.count - 1
                    }
                }
                if match[node] == nil { match[node] = index }
            }
            // Breadth first: a node's failure state is settled before its children's.
            var next = [Int16](repeating: 0, count: children.count * 256)
            var failure = [Int](repeating: 0, count: children.count)
            var queue: [Int] = []
            for (byte, child) in children[0] {
                next[Int(byte)] = Int16(child)
                queue.append(child)
            }
            var head = 0
            while head < queue.count {
                let node = queue[head]
                head += 1
                if match[node] == nil { match[node] = match[failure[node]] }
                for byte in 0..<256 {
                    if let child = children[node][UInt8(byte)] {
                        failure[child] = Int(next[failure[node] * 256 + byte])
                        next[node * 256 + byte] = Int16(child)
                        queue.append(child)
                    } else {
                        next[node * 256 + byte] = next[failure[node] * 256 + byte]
                    }
                }
            }
            self.next = next
            self.match = match
        }
    }
}
