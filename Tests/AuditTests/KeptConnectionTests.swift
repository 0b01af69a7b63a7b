@testable import Confinement
import Foundation
import Testing

/// `SandboxPolicy.keptConnections`: the sandbox keeps a descriptor through confinement only when
/// the kernel says it is a TCP connection to a loopback address (checked here without confining,
/// which a test process must never do; `SuiteEndpointTests` confines a real run that keeps one).
@Suite struct KeptConnectionTests {
    /// A TCP socket connected to `listener`.
    static func connected(to listener: TCPListener) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = listener.port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return descriptor
    }

    @Test func onlyATCPConnectionToLoopbackIsKept() throws {
        let listener = try TCPListener()
        let kept = Self.connected(to: listener)
        defer { close(kept) }
        #expect(Sandbox.isLoopbackConnection(kept))

        let unconnected = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let datagram = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { for descriptor in [unconnected, datagram] + pipeEnds + pair { close(descriptor) } }
        for descriptor in [unconnected, datagram, pipeEnds[1], pair[0], 1, 999] {
            #expect(!Sandbox.isLoopbackConnection(descriptor), "descriptor \(descriptor)")
        }
        #expect(SandboxError.keptDescriptorIsNotALoopbackConnection(descriptor: 9).description
                == "Descriptor 9 was to stay open through confinement, but it is not a TCP connection to a loopback address"
                + " (127.0.0.1 or ::1), the only socket a confined process may keep.")
        #expect(SandboxPolicy(writableDirectories: ["/out"]).keptConnections.isEmpty, "no command but --endpoint keeps one")
    }
}
