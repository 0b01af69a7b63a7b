import Foundation
import Spawn

/// A scripted Chat Completions server on 127.0.0.1 (`Tests/Fixtures/ChatStub/chat_stub.py`), for
/// the tests of `replay suite run --endpoint`: each request gets the next scripted response, and
/// each request's shape (never its words) is logged for the test to read.
///
/// Started on a free port the server picks and prints; stopped (SIGTERM, then reaped) by `stop`
/// or when the value is let go. One test owns one server.
public final class ChatStubServer {
    /// One scripted response, as chat_stub.py reads it.
    public static func answer(_ content: String, finishReason: String = "stop", chunked: Bool = false, close: Bool = false) -> String {
        let quoted = String(decoding: try! JSONSerialization.data(withJSONObject: [content], options: [.fragmentsAllowed]), as: UTF8.self).dropFirst().dropLast()
        return #"{"content": \#(quoted), "finish_reason": "\#(finishReason)", "chunked": \#(chunked), "close": \#(close)}"#
    }

    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }
    private let process: ChildProcess
    private let logPath: String

    /// Starts the server with `responses` (each a JSON object, `answer(...)` or written out) in `directory`.
    public init(responses: [String], in directory: TemporaryDirectory) throws {
        let script = try directory.write("chat-script-\(UUID().uuidString).json", text: "[" + responses.joined(separator: ",") + "]")
        logPath = directory.path("chat-log-\(UUID().uuidString).jsonl")
        let portPath = directory.path("chat-port-\(UUID().uuidString)")
        process = try ChildProcess("/usr/bin/env", ["python3", BuiltProducts.packageRoot + "/Tests/Fixtures/ChatStub/chat_stub.py", script, logPath],
                                   output: .file(portPath), errors: .null)
        var found: Int? = nil
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: portPath, encoding: .utf8), text.hasSuffix("\n"),
               let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                found = number
                break
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        guard let found else {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
            throw StubDidNotStart()
        }
        port = found
    }

    /// The stub printed no port within 10 s (is python3 installed?).
    public struct StubDidNotStart: Error {}

    /// Each request's shape, in order: path, connection number, temperature, max_tokens, format…
    public var requests: [[String: Any]] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    public func stop() {
        process.send(SIGTERM)
        _ = process.wait(timeout: 10)
    }

    deinit { stop() }

    /// A port on 127.0.0.1 that nothing listens on (bound, then let go).
    public static func unusedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
