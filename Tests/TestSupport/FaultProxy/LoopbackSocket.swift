import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP socket on the loopback interface: just what ``FaultProxy`` needs (listen, accept,
/// connect, read, write, close). Errors are `nil`/`false` returns; the proxy treats any as "the peer went".
struct LoopbackSocket: Sendable {
    let fd: Int32

    /// A socket listening on 127.0.0.1 at a port the system picks; nil when that fails.
    static func listen() -> (socket: LoopbackSocket, port: Int)? {
        bindLoopback(listening: true)
    }

    /// A socket bound to 127.0.0.1 at a port the system picks, listening or not; nil when that fails.
    static func bindLoopback(listening: Bool) -> (socket: LoopbackSocket, port: Int)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, !listening || Glibc.listen(fd, 64) == 0 else { close(fd); return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { close(fd); return nil }
        return (LoopbackSocket(fd: fd), Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A connection to `host` (a dotted IPv4 address or "localhost") at `port`; nil when refused.
    static func connect(host: String, port: Int) -> LoopbackSocket? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
        return LoopbackSocket(fd: fd)
    }

    /// The next connection, or nil once the socket is shut down.
    func accept() -> LoopbackSocket? {
        let client = Glibc.accept(fd, nil, nil)
        return client >= 0 ? LoopbackSocket(fd: client) : nil
    }

    /// Up to `maximum` bytes; empty at the end of the stream or on an error.
    func read(maximum: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, maximum, 0) }
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// Writes all of `bytes`; false when the peer has gone (no SIGPIPE: MSG_NOSIGNAL).
    @discardableResult
    func write<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        let array = Array(bytes)
        var sent = 0
        while sent < array.count {
            let count = array.withUnsafeBytes { send(fd, $0.baseAddress! + sent, array.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Stops reads and accepts on this socket in every thread (they return at once), then closes it.
    func shutdownAndClose() {
        shutdownOnly()
        close(fd)
    }

    /// Stops reads and accepts on this socket in every thread (they return at once) and keeps the descriptor
    /// open: a thread still using it must not meet another socket that reused its number.
    func shutdownOnly() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Closes the descriptor (after ``shutdownOnly()``, by the thread that used it).
    func closeDescriptor() {
        close(fd)
    }
}
