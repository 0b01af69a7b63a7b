import Foundation
import Testing

/// scripts/check-privacy as a test, so CI gates on it: the text-handling targets reach no network
/// and write only through the report and diagnostics writers.
@Suite struct StaticPrivacyCheckTests {
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Runs the script (with `--root` when given); its exit status and stdout.
    static func check(root: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot + "/scripts/check-privacy"] + (root.map { ["--root", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func textHandlingTargetsPassTheStaticCheck() throws {
        let result = try Self.check()
        #expect(result.status == 0, "violations:\n\(result.output)")
    }

    @Test func theCheckCatchesNetworkingAndStrayWrites() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("check-privacy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/Sources/Jobs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = """
            import FoundationNetworking
            func leak(_ words: String) {
                // print(words) in a comment is not a call
                print(words)
                let fine = "print(words) inside a string is not a call"
                FileHandle.standardError.write(Data(words.utf8))
                let reading = FileHandle(forReadingAtPath: "/x")
                _ = socket(AF_INET, 1, 0)
            }
            """
        _ = FileManager.default.createFile(atPath: root + "/Sources/Jobs/Leak.swift", contents: Data(source.utf8))
        let result = try Self.check(root: root)
        #expect(result.status == 1)
        let lines = Set(result.output.split(separator: "\n").map { String($0.split(separator: ":").prefix(2).joined(separator: ":")) })
        #expect(lines == ["Sources/Jobs/Leak.swift:1", "Sources/Jobs/Leak.swift:4", "Sources/Jobs/Leak.swift:6", "Sources/Jobs/Leak.swift:8"])
    }
}
