import Foundation

/// Reads one HTTP/1.1 request (head and Content-Length body) from a socket, for ``FaultProxy``.
enum HTTPRequestReader {
    /// Largest request head accepted, in bytes.
    static let maximumHeadBytes = 64 << 10

    /// The request, or nil when the client closed early or sent something unreadable. Answers
    /// `Expect: 100-continue` before reading the body.
    static func read(from client: LoopbackSocket) -> FaultProxy.RecordedRequest? {
        var bytes: [UInt8] = []
        var headLength: Int?
        while headLength == nil {
            let chunk = client.read()
            guard !chunk.isEmpty, bytes.count + chunk.count <= maximumHeadBytes else { return nil }
            bytes += chunk
            headLength = headEnd(bytes)
        }
        guard let headLength else { return nil }
        let head = String(decoding: bytes[..<(headLength - 4)], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        var body = Array(bytes[headLength...])
        if body.count < length, headers["expect"]?.lowercased() == "100-continue" {
            guard client.write("HTTP/1.1 100 Continue\r\n\r\n") else { return nil }
        }
        while body.count < length {
            let chunk = client.read()
            guard !chunk.isEmpty else { return nil }
            body += chunk
        }
        return FaultProxy.RecordedRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers,
                                          body: Data(body.prefix(length)), rawHead: head)
    }

    /// The index just past the blank line ending a head ("\r\n\r\n"), or nil when it has not arrived.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }
}
