import Foundation
import Testing
import TestSupport

/// Code that tries to print, interpolate, describe or encode a SealedText does not compile.
///
/// Each snippet is type-checked with `swiftc` against the Privacy module this test run built.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct SealedTextCompileTests {
    /// The build's debug (or release) folder: where the test runner itself lives.
    static let buildDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Modules/Privacy.swiftmodule").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Type-checks `body` after `import Privacy; let sealed = SealedText("…")`; returns the errors.
    static func typecheck(_ body: String) throws -> (ok: Bool, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snippet.swift")
        try Data("import Privacy\nimport Foundation\nlet sealed = SealedText(\"made-up words\")\n\(body)\n".utf8).write(to: file)
        let typecheck = try Subprocess.run("/usr/bin/env", ["swiftc", "-typecheck", "-I", buildDirectory + "/Modules",
                             "-Xcc", "-fmodule-map-file=" + buildDirectory + "/CSandbox.build/module.modulemap",
                             "-I", packageRoot + "/Sources/CSandbox/include",
                             "-Xcc", "-fmodule-map-file=" + buildDirectory + "/CSHA256.build/module.modulemap",
                             "-I", packageRoot + "/Sources/CSHA256/include", file.path])
        let output = typecheck.output + typecheck.errors
        return (typecheck.status == 0 && !typecheck.signalled, output.split(separator: "\n").filter { $0.contains("error:") }.joined(separator: "\n"))
    }

    @Test func theAllowedUsesCompile() throws {
        let result = try Self.typecheck("""
            let size = sealed.withUnsealedText { $0.count }
            print(size, sealed.utf8Count)
            let line = "\\(size) bytes"
            _ = line
            """)
        #expect(result.ok, "the control snippet must compile: \(result.errors)")
    }

    @Test(arguments: [
        ("print(sealed)", "ambiguous use of 'print"),
        ("debugPrint(sealed)", "ambiguous use of 'debugPrint"),
        ("dump(sealed)", "ambiguous use of 'dump"),
        (#"let line = "words: \(sealed)""#, "ambiguous use of 'appendInterpolation'"),
        ("let data = try JSONEncoder().encode(sealed)", "Encodable"),
        ("let text: String = sealed.description", "has no member 'description'"),
    ])
    func leakingUsesDoNotCompile(snippet: String, error: String) throws {
        let result = try Self.typecheck(snippet)
        #expect(!result.ok)
        #expect(result.errors.contains(error), "expected an error about \(error)")
    }
}
