import Foundation
import Testing
import TestSupport

/// Code that tries to print, interpolate, describe or encode a job's output does not compile.
///
/// Each snippet is type-checked with `swiftc` against the Jobs module this test run built, as
/// Tests/PrivacyTests/SealedTextCompileTests.swift does for SealedText itself. Jobs sees the model
/// only through Engine's interface, so the check needs no llama.h: were llama.cpp to leak back into
/// Jobs, every snippet, the allowed uses too, would fail to compile.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct SealedOutputCompileTests {
    /// The build's debug (or release) folder: where the test runner itself lives.
    static let buildDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Modules/Jobs.swiftmodule").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// One value of each output type, made of made-up words.
    static let prelude = """
        import Foundation
        import Jobs
        import Privacy
        let replies = Replies(output: SealedText(#"{"replies":["made-up words"]}"#))!
        let pushLine = PushLine(line: SealedText("made-up words"))
        let route = Route(to: SealedText("made-up words"))
        let draft = Draft.card(title: SealedText("made-up"), body: SealedText("words"))
        """

    /// Type-checks `body` after `prelude`; whether it compiled, and the errors.
    static func typecheck(_ body: String) throws -> (ok: Bool, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snippet.swift")
        try Data((prelude + "\n" + body + "\n").utf8).write(to: file)
        let typecheck = try Subprocess.run("/usr/bin/env", ["swiftc", "-typecheck", "-I", buildDirectory + "/Modules",
                             "-I", packageRoot + "/Sources/CZstd",
                             "-Xcc", "-fmodule-map-file=" + buildDirectory + "/CSHA256.build/module.modulemap",
                             "-I", packageRoot + "/Sources/CSHA256/include", file.path])
        let output = typecheck.output + typecheck.errors
        return (typecheck.status == 0 && !typecheck.signalled, output.split(separator: "\n").filter { $0.contains("error:") }.joined(separator: "\n"))
    }

    @Test func theAllowedUsesCompile() throws {
        let result = try Self.typecheck("""
            let sizes = (replies.replies.count, pushLine.characterCount, route.chose("lead"), draft.kind)
            print(sizes.0, sizes.1, sizes.2, draft.kind, replies == replies)
            let line = "\\(sizes.0) replies, a \\(draft.kind) draft"
            _ = (line, String(describing: draft.kind))
            """)
        #expect(result.ok, "the control snippet must compile: \(result.errors)")
    }

    /// Each output type's variable in `prelude`.
    static let outputs = ["replies", "pushLine", "route", "draft"]

    /// A leak with `OUTPUT` where the output goes, and the error that stops it.
    static let leaks = [
        ("print(OUTPUT)", "ambiguous use of 'print"),
        ("debugPrint(OUTPUT)", "ambiguous use of 'debugPrint"),
        ("dump(OUTPUT)", "ambiguous use of 'dump"),
        (#"let line = "words: \(OUTPUT)""#, "ambiguous use of 'appendInterpolation'"),
        ("let text = String(describing: OUTPUT)", "ambiguous use of 'init"),
        ("let text = String(reflecting: OUTPUT)", "ambiguous use of 'init"),
        ("let data = try JSONEncoder().encode(OUTPUT)", "Encodable"),
        ("let text: String = OUTPUT.description", "has no member 'description'"),
    ]

    @Test(arguments: outputs, leaks)
    func leakingUsesDoNotCompile(output: String, leak: (snippet: String, error: String)) throws {
        let result = try Self.typecheck(leak.snippet.replacingOccurrences(of: "OUTPUT", with: output))
        #expect(!result.ok)
        #expect(result.errors.contains(leak.error), "expected an error about \(leak.error)")
    }

    /// The words inside are SealedText, so printing them stops at SealedText's own overloads.
    @Test(arguments: [
        "print(replies.replies[0])",
        "print(pushLine.line)",
        "print(route.to)",
        "if case .card(let title, _) = draft { print(title) }",
    ])
    func theWordsInsideAreSealed(snippet: String) throws {
        let result = try Self.typecheck(snippet)
        #expect(!result.ok)
        #expect(result.errors.contains("ambiguous use of 'print"))
    }
}
