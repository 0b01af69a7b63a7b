#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import Spawn
import Testing
import TestSupport

/// `ChildProcess.wait(streamingOutput:)` and `Input.descriptor`: output of any length is handed
/// on in pieces, never kept, and a child can read a file this process opened.
@Suite struct ChildProcessStreamingTests {
    /// 200 MiB through the pipe: every byte arrives, in order, in pieces of at most 64 KiB, and
    /// nothing is kept in `standardOutput`.
    @Test func outputOfAnyLengthArrivesInPieces() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "head -c 209715200 /dev/zero; printf end"], output: .capture)
        var total = 0, largest = 0
        var tail: [UInt8] = []
        let ended = child.wait(timeout: 300, streamingOutput: { piece in
            total += piece.count
            largest = max(largest, piece.count)
            tail = Array((tail + piece).suffix(3))
            return true
        })
        #expect(ended.succeeded)
        #expect(total == 209_715_200 + 3)
        #expect(largest <= 1 << 16)
        #expect(tail == Array("end".utf8))
        #expect(ended.standardOutput.isEmpty)
        #expect(!ended.outputTruncated)
    }

    /// Returning false stops the child (its group is killed) and says the output was cut.
    @Test func aConsumerThatStopsEndsTheChild() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "cat /dev/zero"], output: .capture)
        var total = 0
        let ended = child.wait(timeout: 60, streamingOutput: { piece in
            total += piece.count
            return total < 1 << 20
        })
        #expect(ended.outputTruncated)
        #expect(!ended.timedOut)
        #expect(total >= 1 << 20)
    }

    @Test func aDescriptorBecomesTheChildsInput() throws {
        let directory = try TemporaryDirectory(prefix: "descriptor-input")
        let path = try directory.write("in.txt", Array("from a descriptor\n".utf8))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let ended = try ChildProcess.run("/bin/cat", input: .descriptor(descriptor))
        #expect(ended.succeeded)
        #expect(String(decoding: ended.standardOutput, as: UTF8.self) == "from a descriptor\n")
    }
}
