import Foundation
import Testing
import TestSupport

/// README.md's examples, run: every command a user is shown must work as shown.
///
/// The convention (README, "Two commands"): a fenced block whose info string is `sh example` is
/// run as written; one marked `sh example dry` is run with `--dry-run` given to each `replay` run
/// that would ask the model (`replay` with options, and `replay audit`'s replay), so that a block
/// showing a run of minutes takes seconds. Its other subcommands (merge, compare, verify, prompts,
/// …) run as written, and a dry block must call `replay` by name, not by path. Any other block
/// (`scripts/setup` and `scripts/test`, a synopsis, a suite run, a cluster submission) is not run,
/// and no example block may run `scripts/setup` or `scripts/test`.
///
/// Each block runs with bash under `set -euo pipefail` in a fresh directory holding links to the
/// package's `corpora`, `suites`, `examples` and `scripts`, and `.build/release/replay` linked to
/// the `replay` built beside these tests, which is also first in PATH. It must exit 0, and every
/// `--out DIR` it names must hold a finished result. A failure names the block's README line.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
struct ReadmeExampleTests {
    /// One fenced block of the README marked as an example.
    struct Block: Sendable, CustomTestStringConvertible {
        /// The README line of its opening fence (1-based).
        var line: Int
        /// Whether it is marked `sh example dry`.
        var dry: Bool
        /// Its lines, without the fences.
        var text: String

        var testDescription: String { "README line \(line)\(dry ? " (dry)" : "")" }
    }

    /// A fence marked `sh example` with a word after it other than `dry`.
    struct UnknownMark: Error, CustomStringConvertible {
        var line: Int
        var description: String { "README line \(line): an example's mark is `sh example` or `sh example dry`" }
    }

    static let readmePath = BuiltProducts.packageRoot + "/README.md"

    /// The README's example blocks, in order.
    static func blocks(in markdown: String) throws -> [Block] {
        var blocks: [Block] = []
        var open: (line: Int, dry: Bool?, lines: [String])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("```") else {
                open?.lines.append(String(line))
                continue
            }
            if let block = open {
                if let dry = block.dry {
                    blocks.append(Block(line: block.line, dry: dry, text: block.lines.joined(separator: "\n")))
                }
                open = nil
                continue
            }
            let words = line.dropFirst(3).split(separator: " ")
            var dry: Bool?
            if words.count >= 2, words[0] == "sh", words[1] == "example" {
                guard words.count == 2 || (words.count == 3 && words[2] == "dry") else { throw UnknownMark(line: index + 1) }
                dry = words.count == 3
            }
            open = (index + 1, dry, [])
        }
        return blocks
    }

    static let examples: [Block] = {
        let readme = (try? String(contentsOfFile: readmePath, encoding: .utf8)) ?? ""
        return (try? blocks(in: readme)) ?? []
    }()

    /// In a dry block, `replay` is this function: `--dry-run` for a run that would ask the model.
    static let dryReplay = """
        replay() {
          case "${1:-}" in
            merge|compare|flywheel|verify|suite|prompts|profiles|corpus|--help|-h|--version) command replay "$@" ;;
            audit) shift; case " $* " in *" -- "*) command replay audit "$@" ;; *) command replay audit --dry-run "$@" ;; esac ;;
            *) command replay --dry-run "$@" ;;
          esac
        }
        """

    /// The package folders the examples read, linked into each block's directory.
    static let linked = ["corpora", "suites", "examples", "scripts"]

    /// A block's lines without their shell comments (from a `#` that starts a word to the line's end).
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.replacing(/(^|\s)#.*$/, with: ""))
        }.joined(separator: "\n")
    }

    @Test func theReadmeHasExamplesAndTheyAreMarkedAsTheTestReadsThem() throws {
        let readme = try String(contentsOfFile: Self.readmePath, encoding: .utf8)
        let blocks = try Self.blocks(in: readme)
        #expect(!blocks.isEmpty, "README.md has no ```sh example block")
        #expect(blocks.contains { $0.dry } && blocks.contains { !$0.dry })
        #expect(Self.examples.count == blocks.count)
        for block in blocks {
            let commands = Self.withoutComments(block.text)
            #expect(commands.range(of: #"scripts/(setup|test)\b"#, options: .regularExpression) == nil,
                    "README line \(block.line): an example must not run scripts/setup or scripts/test")
            if block.dry {
                #expect(commands.range(of: #"/replay\b"#, options: .regularExpression) == nil,
                        "README line \(block.line): a dry example calls replay by name, so that it gets --dry-run")
            }
        }
        // The parser itself: fences, marks and line numbers.
        let parsed = try Self.blocks(in: "# t\n```sh\nno\n```\n```sh example\na\nb\n```\n\n```sh example dry\nc\n```\n")
        #expect(parsed.map(\.line) == [5, 10] && parsed.map(\.dry) == [false, true] && parsed.map(\.text) == ["a\nb", "c"])
        #expect(throws: UnknownMark.self) { try Self.blocks(in: "```sh example slow\nx\n```\n") }
        #expect(Self.withoutComments("a b # scripts/setup\n# c\nd$#e") == "a b\n\nd$#e")
    }

    @Test(arguments: examples)
    func exampleRuns(_ block: Block) throws {
        let directory = try TemporaryDirectory(prefix: "readme-example")
        let work = try directory.makeDirectory("work")
        for name in Self.linked {
            try FileManager.default.createSymbolicLink(atPath: work + "/" + name, withDestinationPath: BuiltProducts.packageRoot + "/" + name)
        }
        try directory.makeDirectory("work/.build/release")
        try FileManager.default.createSymbolicLink(atPath: work + "/.build/release/replay", withDestinationPath: BuiltProducts.executable("replay"))

        // The block's lines follow this header; the ERR trap turns bash's line number into the README's.
        var header = ["set -euo pipefail"]
        if block.dry { header.append(Self.dryReplay) }
        let headerLines = header.joined(separator: "\n").filter { $0 == "\n" }.count + 2  // and the trap's line
        let offset = block.line + 1 - (headerLines + 1)  // script line headerLines + 1 is README line block.line + 1
        header.append("trap 'echo \"README line $((LINENO + \(offset))) failed (exit $?)\" >&2' ERR")
        let script = try directory.write("example.sh", text: header.joined(separator: "\n") + "\n" + block.text + "\n")

        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["XDG_STATE_HOME"] = directory.path("state")  // the per-user run key, made here
        for name in ["REPLAY_RUN_KEY", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX"] {
            environment[name] = nil
        }
        let run = try Subprocess.run("/bin/bash", [script], environment: environment, directory: work, timeout: 300)
        #expect(run.status == 0 && !run.signalled,
                "README line \(block.line): the example exited \(run.status); stderr ends: \(run.errors.suffix(1500))")

        // Every --out it names holds a finished result: a manifest (an audit's is in its SARIF) and a report.
        let outs = block.text.matches(of: /--out\s+([^\s$"']+)/).map { String($0.1) }
        for out in outs {
            let path = work + "/" + out
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let finished = files.contains("manifest.json") || files.contains("audit.sarif")
            let report = ["report.json", "compare.json", "metrics.json", "audit.sarif"].contains { files.contains($0) }
            #expect(finished && report, "README line \(block.line): --out \(out) holds no finished result")
        }
    }
}
