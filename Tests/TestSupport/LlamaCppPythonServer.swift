import Foundation
import Glibc
import Spawn

/// llama-cpp-python's OpenAI-compatible server (`python3 -m llama_cpp.server`, from PyPI) on
/// 127.0.0.1, serving a GGUF file: the real Chat Completions server the tests of `replay suite run
/// --endpoint` ask. scripts/setup --test-tools puts its Python package and dependencies in the
/// cache, over the libllama.so the run itself uses (`LLAMA_CPP_LIB_PATH`).
///
/// Started on a port free when it was picked; ready once the port takes a connection (uvicorn
/// listens only after the model is loaded). Stopped (SIGTERM, then reaped) by `stop` or when the
/// value is let go. Its output goes to /dev/null: it may log what it was asked.
public final class LlamaCppPythonServer {
    public let port: Int
    /// `http://127.0.0.1:PORT/v1`.
    public var url: String { "http://127.0.0.1:\(port)/v1" }
    private let process: ChildProcess

    /// Where scripts/setup --test-tools put the server, or why it is not there.
    public static func installed() -> (pythonPath: String, libraryPath: String)? {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["REPLAY_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.cache") + "/replay")
        guard let deps = try? String(contentsOfFile: BuiltProducts.packageRoot + "/scripts/deps.env", encoding: .utf8),
              let line = deps.split(separator: "\n").first(where: { $0.hasPrefix("LLAMA_CPP_PYTHON_VERSION=") }) else { return nil }
        let version = line.dropFirst("LLAMA_CPP_PYTHON_VERSION=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
        let package = "\(cache)/llama-cpp-python-\(version)-src", dependencies = "\(cache)/llama-cpp-python-\(version)-server-deps"
        let library = "\(cache)/llama.cpp-\(version)/lib"
        let manager = FileManager.default
        guard manager.fileExists(atPath: package + "/llama_cpp/server/app.py"), manager.fileExists(atPath: dependencies + "/.complete"),
              manager.fileExists(atPath: library + "/libllama.so") else { return nil }
        return (package + ":" + dependencies, library)
    }

    /// The server is not installed, or did not take a connection within `seconds`.
    public struct ServerDidNotStart: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the server on `model`, with a session of `context` tokens and one thread.
    public init(model: String, context: Int = 4096, seconds: Int = 120) throws {
        guard let installed = Self.installed() else {
            throw ServerDidNotStart(description: "llama-cpp-python's server is not installed: run scripts/setup --deps-only --test-tools")
        }
        port = Self.freePort()
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = installed.pythonPath
        environment["LLAMA_CPP_LIB_PATH"] = installed.libraryPath
        process = try ChildProcess("/usr/bin/env", ["python3", "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1",
                                                    "--port", String(port), "--n_ctx", String(context), "--n_threads", "1"],
                                   environment: environment, output: .null, errors: .null)
        for _ in 0..<(seconds * 10) {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        process.send(SIGKILL)
        _ = process.wait(timeout: 5)
        throw ServerDidNotStart(description: "llama_cpp.server took no connection on port \(port) within \(seconds) s")
    }

    public func stop() {
        process.send(SIGTERM)
        _ = process.wait(timeout: 10)
    }

    deinit { stop() }

    /// A port the kernel says is free now.
    static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something listens on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
