import Foundation

/// A fresh directory for one test's files under the system's temporary directory, removed when
/// the test lets go of it.
public final class TemporaryDirectory: @unchecked Sendable {
    /// Its absolute path.
    public let path: String

    /// Makes the directory, named `prefix` and a UUID.
    public init(prefix: String = "replay-tests") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + "-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The URL of the directory.
    public var url: URL { URL(fileURLWithPath: path) }

    /// The path of `name` inside the directory (nothing is created).
    public func path(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` in the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// Makes a sub-directory and returns its path.
    @discardableResult
    public func makeDirectory(_ name: String) throws -> String {
        let directory = path(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// Writes `text` to `directory/name` and returns its path.
public func writeCorpus(_ text: String, in directory: String, name: String = "tiny.jsonl") -> String {
    let path = directory + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}
