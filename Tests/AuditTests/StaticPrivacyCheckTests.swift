import Foundation
import Testing
import TestSupport

/// scripts/check-privacy as a test, so CI gates on it: no target prints, writes, runs a process,
/// changes the environment, logs or reaches the network outside the allowed writers.
///
/// The script reads the code through the toolchain's own parser, so the fixture below mixes real
/// calls with the same words in comments and strings, and expects exactly the real ones.
@Suite struct StaticPrivacyCheckTests {
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Runs the script (with `--root` when given, and this PATH when given); its exit status and stdout.
    static func check(root: String? = nil, path: String? = nil) throws -> (status: Int32, output: String) {
        // With PATH replaced, name python by a path that needs no PATH (a pyenv shim would).
        let python = path == nil || !FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "python3" : "/usr/bin/python3"
        var environment: [String: String]?
        if let path {
            environment = ProcessInfo.processInfo.environment
            environment?["PATH"] = path
        }
        let check = try Subprocess.run("/usr/bin/env", [python, packageRoot + "/scripts/check-privacy"] + (root.map { ["--root", $0] } ?? []),
                                       environment: environment)
        return (check.status, check.output)
    }

    /// A package root in a temporary folder holding `files` (path from the root: contents).
    static func fixture(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("check-privacy-\(UUID().uuidString)").path
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    /// FILE:LINE of each violation the script printed.
    static func locations(_ output: String) -> Set<String> {
        Set(output.split(separator: "\n").map { String($0.split(separator: ":").prefix(2).joined(separator: ":")) })
    }

    @Test func everyTargetPassesTheStaticCheck() throws {
        let result = try Self.check()
        #expect(result.status == 0, "exit \(result.status) (2: no toolchain to check with); violations:\n\(result.output)")
    }

    @Test func theCheckReadsCodeNotCommentsOrStrings() throws {
        let leak = """
            import FoundationNetworking
            import Foundation
            // print(words) in a comment is not a call; nor are Process() and setenv("A", "b", 1)
            /* FileManager.default.createFile(atPath: "/x", contents: nil) in a block comment */
            func leak(_ words: String, into text: inout String) {
                Swift.print(words)
                let fine = "print(words), Process() and setenv(\\"A\\", words, 1) inside a string are not calls"
                let block = \"\"\"
                    dump(words) in a multi-line string is not a call either
                    \"\"\"
                [words].forEach(print)
                let task = Process()
                setenv("REPLAY_WORDS", words, 1)
                _ = FileManager.default.createFile(atPath: "/tmp/x", contents: Data(words.utf8))
                let reading = FileHandle(forReadingAtPath: "/x")
                FileHandle.standardError.write(Data(words.utf8))
                words.write(to: &text)
                let open = 3
                _ = (fine, block, task, reading, open)
                _ = socket(AF_INET, 1, 0)
                let later = Glibc.write
                if words.isEmpty { fatalError("nothing in \\(words)") }
            }
            struct Sink: TextOutputStream { mutating func write(_ string: String) {} }
            """
        let root = try Self.fixture([
            "Sources/Jobs/Leak.swift": leak,
            // An allowed file may use only its allowed APIs: the stderr line, not print.
            "Sources/ReplayKit/Run/ProgressLine.swift": """
                import Foundation
                func draw(_ line: String) { FileHandle.standardError.write(Data(line.utf8)) }
                func leak(_ words: String) { print(words) }
                """,
            // A test-only program allowed whole.
            "Tests/Fixtures/LeakyFixtures/main.swift": "print(CommandLine.arguments)\n",
            "Sources/CSandbox/probe.c": """
                #include <stdio.h>
                // printf("in a comment") is not a call
                static const char *text = "fprintf(stderr, words)";
                int f(int fd) { return fd < 0 ? printf("%s", text) : 0; }
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.check(root: root)
        #expect(result.status == 1)
        #expect(Self.locations(result.output) == [
            "Sources/Jobs/Leak.swift:1",    // import FoundationNetworking
            "Sources/Jobs/Leak.swift:6",    // Swift.print(words): a qualified call
            "Sources/Jobs/Leak.swift:11",   // forEach(print): a function reference
            "Sources/Jobs/Leak.swift:12",   // Process()
            "Sources/Jobs/Leak.swift:13",   // setenv
            "Sources/Jobs/Leak.swift:14",   // FileManager's createFile
            "Sources/Jobs/Leak.swift:16",   // FileHandle.standardError.write (two findings, one line)
            "Sources/Jobs/Leak.swift:20",   // socket
            "Sources/Jobs/Leak.swift:21",   // Glibc.write, kept for later
            "Sources/Jobs/Leak.swift:22",   // a trap message built at run time
            "Sources/Jobs/Leak.swift:24",   // a TextOutputStream conformance
            "Sources/ReplayKit/Run/ProgressLine.swift:3",
            "Sources/CSandbox/probe.c:4",
        ], "\(result.output)")
    }

    @Test func aCleanTreePasses() throws {
        let root = try Self.fixture([
            "Sources/Jobs/Fine.swift": """
                /// Counts words without printing them; print(words) here is only a comment.
                func count(_ words: String) -> Int {
                    precondition(!words.isEmpty, "fixed text, no words")
                    return words.split(separator: " ").count
                }
                struct Chart { func open(height: Double) -> String { "" }; func draw() -> String { open(height: 1) } }
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try Self.check(root: root)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func withoutTheToolchainTheCheckCannotPass() throws {
        let result = try Self.check(path: "/nonexistent")
        #expect(result.status == 2)
    }
}
