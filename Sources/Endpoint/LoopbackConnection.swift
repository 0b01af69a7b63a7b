import Glibc
import Synchronization

/// One TCP connection to a Chat Completions server on this machine's loopback, kept open for a
/// whole suite (HTTP/1.1 keep-alive): the only socket `replay` ever makes.
///
/// It is connected **before the process confines itself**, and must be: once confined, the
/// sandbox refuses `socket(2)` and `connect(2)` (seccomp) and TCP connects (Landlock), but a
/// socket made before stays usable for `send` without an address and `recv`, which the filter
/// allows. So `replay suite run --endpoint` connects first, hands the descriptor to the sandbox
/// as the one it keeps (`SandboxPolicy.keptConnections`, which checks that it is a TCP
/// connection to a loopback address), and then confines itself; if the server closes the
/// connection, no other can be made, and every request after that fails
/// (`GenerationOutcome.Failure.decodeFailed`, status -2).
///
/// Only loopback addresses can be given (`EndpointURL`), so the bytes sent never leave the machine.
public final class LoopbackConnection: Sendable {
    /// The socket's descriptor; -1 once closed.
    private let socket: Mutex<Int32>

    /// The socket's descriptor, for the sandbox to keep (-1 once closed).
    public var descriptor: Int32 { socket.withLock { $0 } }

    private init(descriptor: Int32) {
        socket = Mutex(descriptor)
    }

    deinit {
        let descriptor = socket.withLock { $0 }
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Connects to `url`'s loopback address and port; `unreachable` (naming the URL) when nothing
    /// listens there.
    public static func connect(to url: EndpointURL) throws(EndpointError) -> LoopbackConnection {
        let family = url.family == .ipv4 ? AF_INET : AF_INET6
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = Glibc.socket(family, kind, 0)
        guard descriptor >= 0 else { throw .unreachable(url: url.given, reason: "no socket: " + reason(errno)) }
        var result: Int32
        switch url.family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = url.port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = url.port.bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        if result != 0 {
            let error = errno
            Glibc.close(descriptor)
            throw .unreachable(url: url.given, reason: reason(error))
        }
        return LoopbackConnection(descriptor: descriptor)
    }

    /// Sends all of `bytes`; false when the connection is closed or broken (no SIGPIPE).
    public func send(_ bytes: [UInt8]) -> Bool {
        let descriptor = self.descriptor
        guard descriptor >= 0 else { return false }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Up to `maximum` bytes, waiting at most `timeoutMilliseconds` for the first: nil on a
    /// timeout or an error, empty when the server closed the connection.
    public func receive(maximum: Int = 1 << 16, timeoutMilliseconds: Int32) -> [UInt8]? {
        let descriptor = self.descriptor
        guard descriptor >= 0 else { return nil }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&waiting, 1, timeoutMilliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            break
        }
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, maximum, 0) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            return Array(buffer[..<count])
        }
    }

    /// Closes the connection; later sends fail.
    public func close() {
        socket.withLock { descriptor in
            if descriptor >= 0 { Glibc.close(descriptor) }
            descriptor = -1
        }
    }

    private static func reason(_ error: Int32) -> String {
        switch error {
        case ECONNREFUSED: "connection refused"
        case ETIMEDOUT: "the connection timed out"
        case EADDRNOTAVAIL: "the address is not available on this machine"
        case EAFNOSUPPORT: "this machine has no IPv6"
        case EACCES, EPERM: "the connection was not permitted"
        default: String(cString: strerror(error))
        }
    }
}
