import Foundation

/// An AF_UNIX socket another process can reach: a named datagram socket at a path, or an
/// abstract stream socket listening under a name. The red-team fixtures send to it.
final class UnixListener: @unchecked Sendable {
    private let descriptor: Int32

    init(path: String) throws { descriptor = try Self.bound(path, abstract: false, type: SOCK_DGRAM) }
    init(abstractName: String) throws { descriptor = try Self.bound(abstractName, abstract: true, type: SOCK_STREAM) }

    /// Bytes waiting in a datagram socket (0 when none arrived).
    var pendingBytes: Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let received = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return max(0, received)
    }

    private static func bound(_ name: String, abstract: Bool, type: __socket_type) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(type.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = (abstract ? [0] : []) + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 }
        }
        guard descriptor >= 0, bound, type == SOCK_DGRAM || listen(descriptor, 4) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        return descriptor
    }

    deinit { close(descriptor) }
}
