import Foundation

/// A named `AF_UNIX` datagram socket in the test process, like /dev/log: any process that may
/// write the path can send to it, with no connection. Nothing is read; the kernel queues datagrams.
final class UnixDatagramListener: @unchecked Sendable {
    let path: String
    private let descriptor: Int32

    init(directory: String) throws {
        path = directory + "/listener.dgram"
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            for (index, byte) in bytes.prefix(sunPath.count - 1).enumerated() { sunPath[index] = byte }
        }
        let size = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) == 0 }
        }
        guard descriptor >= 0, bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
