import Foundation

/// A loopback port where connections are refused: bound but not listening, so no other test's server can
/// take the port while this lives (a stopped server's port can be reused by a server another test starts
/// at the same time, which made "unreachable" tests reach it).
public final class RefusingPort: Sendable {
    private let socket: LoopbackSocket
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL

    /// - Throws: `FaultProxyError.cannotListen` when no port could be bound.
    public init() throws {
        guard let (socket, port) = LoopbackSocket.bindLoopback(listening: false) else { throw FaultProxyError.cannotListen }
        self.socket = socket
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit { socket.shutdownAndClose() }
}
