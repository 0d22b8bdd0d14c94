import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One Server-Sent Event (WHATWG HTML §9.2): the `event` name ("message" when none was sent), the `data`
/// lines joined with "\n", and the last `id` seen.
package struct ServerSentEvent: Sendable, Equatable {
    package var event: String
    package var data: String
    package var id: String?

    package init(event: String = "message", data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// Splits a `text/event-stream` body, fed in chunks of any size, into events.
///
/// Lines end in LF, CR or CRLF (a CRLF split across two chunks counts once). Comment lines (starting with
/// ":") and unknown fields are ignored; a field name without ":" has an empty value; one space after the
/// colon is dropped. An event is dispatched at a blank line when it has data. `retry` is ignored (the
/// client does not reconnect).
///
/// Memory is bounded: a line longer than `maximumLineBytes`, or an event whose data grows past
/// `maximumEventBytes`, throws ``ServerModelError/invalidResponse(_:)`` instead of buffering on.
package struct ServerSentEventParser: Sendable {
    package let maximumLineBytes: Int
    package let maximumEventBytes: Int

    private var line: [UInt8] = []
    /// The previous chunk ended in CR: an LF at the start of the next one belongs to it.
    private var pendingCR = false
    private var eventName = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var lastID: String?

    /// - Parameters:
    ///   - maximumLineBytes: longest line accepted, in bytes (1 MiB by default).
    ///   - maximumEventBytes: most data one event may hold, in bytes (4 MiB by default).
    package init(maximumLineBytes: Int = 1 << 20, maximumEventBytes: Int = 4 << 20) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumEventBytes = maximumEventBytes
    }

    /// Reads `chunk` and returns the events it completes, in order.
    /// - Throws: ``ServerModelError/invalidResponse(_:)`` past a size limit.
    package mutating func feed(_ chunk: Data) throws -> [ServerSentEvent] {
        try chunk.withUnsafeBytes { try feed(bytes: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Reads `chunk` and returns the events it completes, in order.
    /// - Throws: ``ServerModelError/invalidResponse(_:)`` past a size limit.
    package mutating func feed<Bytes: Sequence>(_ chunk: Bytes) throws -> [ServerSentEvent] where Bytes.Element == UInt8 {
        if let events = try chunk.withContiguousStorageIfAvailable({ try feed(bytes: $0) }) { return events }
        return try Array(chunk).withUnsafeBufferPointer { try feed(bytes: $0) }
    }

    /// The chunk is read a line at a time, not a byte at a time: line ends are found with `memchr` (CR and LF
    /// each searched once per occurrence, so a chunk is scanned in linear time) and each line's bytes are
    /// appended in one copy after one size check. A stream of tens of megabytes is read at memory speed.
    private mutating func feed(bytes: UnsafeBufferPointer<UInt8>) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return events }
        let count = bytes.count
        /// The offset of the first `byte` at or after `start`, or `count`.
        func find(_ byte: UInt8, from start: Int) -> Int {
            guard start < count, let hit = memchr(base + start, Int32(byte), count - start) else { return count }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
        }
        var position = 0
        if pendingCR {
            pendingCR = false
            if bytes[0] == 0x0A { position = 1 }
        }
        var nextLF = find(0x0A, from: position)
        var nextCR = find(0x0D, from: position)
        while position < count {
            if nextLF < position { nextLF = find(0x0A, from: position) }
            if nextCR < position { nextCR = find(0x0D, from: position) }
            let end = min(nextLF, nextCR)
            if end > position {
                guard line.count + (end - position) <= maximumLineBytes else {
                    throw ServerModelError.invalidResponse("an event-stream line is longer than \(maximumLineBytes) bytes")
                }
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<end]))
            }
            guard end < count else { break }
            if let event = try endLine() { events.append(event) }
            position = end + 1
            if end == nextCR {
                // CRLF is one line end; a CR that ends the chunk may be followed by the next chunk's LF.
                if position == count { pendingCR = true } else if bytes[position] == 0x0A { position += 1 }
            }
        }
        return events
    }

    /// Ends the stream. An event without its closing blank line is dropped (as the standard says), so a
    /// truncated event never counts as complete.
    /// - Returns: whether such a cut-off event (or line) was dropped.
    package mutating func finish() -> Bool {
        defer {
            line.removeAll()
            data.removeAll()
            hasData = false
            eventName = ""
        }
        return !line.isEmpty || hasData
    }

    private mutating func endLine() throws -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var valueStart = colon.map { $0 + 1 } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch name {
        case "event": eventName = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
            guard data.count <= maximumEventBytes else {
                throw ServerModelError.invalidResponse("an event's data is longer than \(maximumEventBytes) bytes")
            }
        case "id":
            // An id with a NUL is ignored (the standard's rule).
            if !value.contains(0) { lastID = String(decoding: value, as: UTF8.self) }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventName = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(event: eventName.isEmpty ? "message" : eventName, data: String(decoding: data, as: UTF8.self), id: lastID)
    }
}
