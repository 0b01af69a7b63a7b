import Foundation

/// Listening sockets in the test process for the probe to reach: TCP on 127.0.0.1, an abstract and
/// a named UNIX socket. Only loopback; nothing is accepted, the kernel's backlog completes connects.
final class LoopbackListener: @unchecked Sendable {
    private let tcp: TCPListener
    var tcpPort: UInt16 { tcp.port }
    let abstractName: String
    let unixPath: String
    private var descriptors: [Int32] = []

    init(directory: String) throws {
        let stream = Int32(SOCK_STREAM.rawValue)
        tcp = try TCPListener()

        abstractName = "replay-sandbox-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        unixPath = directory + "/listener.sock"
        for (name, abstract) in [(abstractName, true), (unixPath, false)] {
            let unix = socket(AF_UNIX, stream, 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = (abstract ? [0] : []) + Array(name.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { path in
                for (index, byte) in bytes.prefix(path.count - 1).enumerated() { path[index] = byte }
            }
            let size = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(unix, $0, size) == 0 && listen(unix, 16) == 0 }
            }
            guard unix >= 0, ok else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            descriptors.append(unix)
        }
    }

    deinit { for descriptor in descriptors { close(descriptor) } }
}
