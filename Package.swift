// swift-tools-version:6.0
import Foundation
import PackageDescription

// llama.cpp is not a Swift package and the machine cannot fetch one: scripts/setup builds it into
// a cache outside the clone, keyed by the versions in scripts/deps.env, and this manifest points
// the compiler and linker there. The same rule finds the cache in scripts/setup.
let packageDirectory = Context.packageDirectory
func pinned(_ key: String) -> String {
    let text = (try? String(contentsOfFile: packageDirectory + "/scripts/deps.env", encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") where line.hasPrefix(key + "=") {
        return String(line.dropFirst(key.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
    return "unknown"
}
let environment = Context.environment
let cache = environment["REPLAY_CACHE"]
    ?? ((environment["XDG_CACHE_HOME"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")) + "/replay")
let llamaPrefix = cache + "/llama.cpp-" + pinned("LLAMA_CPP_PYTHON_VERSION")

/// Where llama.h lives, for every Swift target that sees the CLlama module (directly or through Llama).
let llamaHeaders: [SwiftSetting] = [
    .unsafeFlags(["-Xcc", "-I" + llamaPrefix + "/include"]),
]
/// libllama.so and its ggml libraries, with an rpath so the binaries run without LD_LIBRARY_PATH.
let llamaLibraries: [LinkerSetting] = [
    .unsafeFlags(["-L" + llamaPrefix + "/lib", "-Xlinker", "-rpath", "-Xlinker", llamaPrefix + "/lib"]),
]
/// Swift 6, and optimized code in the libraries and the command even in a debug build: the tests
/// read corpora of megabytes, tokenize, plan and run the built binary over the sample hundreds of
/// times, which unoptimized code takes several times longer to do, while the test targets
/// themselves (and `@testable import`, which `-enable-testing` keeps working) stay as debug builds are.
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6), .unsafeFlags(["-O"], .when(configuration: .debug))]
/// The test targets: Swift 6, unoptimized.
let tests6: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// Test targets whose own code does the heavy work (the tokenizer's and the planners' quadratic
/// references): optimized as the libraries are. Small targets, so the build pays little for it.
let tests6O: [SwiftSetting] = [.swiftLanguageMode(.v6), .unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "replay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "replay", targets: ["Replay"]),
        // bench/: the model stage alone, timed, beside its peers. Not part of `replay`.
        .executable(name: "replay-bench", targets: ["ReplayBench"]),
    ],
    targets: [
        // C modules: headers only, plus the few shims Swift cannot import.
        .systemLibrary(name: "CZstd", path: "Sources/CZstd"),
        .systemLibrary(name: "CLlama", path: "Sources/CLlama"),
        .target(name: "CSandbox"),
        .target(name: "CSpawn"),
        .systemLibrary(name: "CXattr", path: "Sources/CXattr"),
        .target(name: "CSHA256"),

        // Libraries, lowest first. Privacy is the floor every module that touches words stands on;
        // Confinement is what a run needs to confine and account for itself (below the pipeline);
        // Audit, the auditor, sits above the pipeline it judges, used by `replay audit` only.
        .target(name: "Privacy", dependencies: ["CSHA256"], swiftSettings: swift6),
        // Child programs with their own waits and time limits (the auditor's trace, the tests' tools).
        .target(name: "Spawn", dependencies: ["CSpawn", "Privacy"], swiftSettings: swift6),
        .target(name: "Export", dependencies: ["CZstd", "Privacy"], swiftSettings: swift6),
        .target(name: "Corpus", dependencies: ["CZstd", "Export", "Privacy"], swiftSettings: swift6),
        // The model interface the jobs ask (pure Swift), and the llama.cpp engine behind it: only
        // targets that load a real model see llama.h.
        .target(name: "Engine", dependencies: ["Privacy"], swiftSettings: swift6),
        .target(name: "Llama", dependencies: ["CLlama", "Engine", "Privacy"],
                swiftSettings: swift6 + llamaHeaders, linkerSettings: llamaLibraries),
        // A model asked over HTTP: a Chat Completions server on this machine's loopback (`fm serve`).
        .target(name: "Endpoint", dependencies: ["Engine", "Privacy"], swiftSettings: swift6),
        .target(name: "Jobs", dependencies: ["Export", "Engine", "Privacy"], swiftSettings: swift6),
        .target(name: "Flywheel", dependencies: ["Export", "Privacy"], swiftSettings: swift6),
        // The sandbox (Landlock and seccomp), the manifest of what a run wrote, and the audit tap.
        .target(name: "Confinement", dependencies: ["CSandbox", "Privacy"], swiftSettings: swift6),
        .target(name: "ReplayKit", dependencies: ["CZstd", "Export", "Corpus", "Engine", "Llama", "Jobs", "Flywheel", "Confinement", "Privacy"],
                swiftSettings: swift6 + llamaHeaders),
        // Features over the run pipeline, each calling down into it: `replay compare` (two runs
        // paired item by item, with their statistics) and `replay suite run` (a prompt suite).
        .target(name: "Compare", dependencies: ["ReplayKit", "Confinement", "Corpus", "Flywheel", "Jobs", "Engine", "Privacy"], swiftSettings: swift6),
        .target(name: "Suite", dependencies: ["ReplayKit", "Compare", "Flywheel", "Confinement", "Jobs", "Engine", "Endpoint", "Llama", "Export", "Privacy"],
                swiftSettings: swift6 + llamaHeaders),
        // `replay probe injection`: attacks an agent's words could plant, at the places a replay asks;
        // `replay probe compare`: probes paired trial by trial, with Compare's statistics.
        .target(name: "Probe", dependencies: ["ReplayKit", "Compare", "Confinement", "Flywheel", "Jobs", "Engine", "Llama", "Export", "Privacy"],
                swiftSettings: swift6 + llamaHeaders),
        // The auditor: strace, canaries, output fingerprints, the result files' checks, SARIF.
        .target(name: "Audit", dependencies: ["CXattr", "Confinement", "Privacy", "Spawn", "Engine", "Llama", "Endpoint", "Flywheel", "ReplayKit", "Jobs",
                                              "Compare", "Suite"],
                swiftSettings: swift6 + llamaHeaders),

        // The command: a thin `main.swift` over the dispatcher, and `replay audit` over Audit.
        .executableTarget(name: "Replay", dependencies: ["ReplayKit", "Compare", "Suite", "Probe", "Audit", "Confinement", "Engine"],
                         swiftSettings: swift6 + llamaHeaders),
        // The benchmarks' own measurements (bench/model.sh), kept out of the shipped command.
        .executableTarget(name: "ReplayBench", dependencies: ["ReplayKit", "Export", "Flywheel", "Llama", "Jobs", "Engine", "Confinement", "Privacy"],
                          path: "bench/ReplayBench", swiftSettings: swift6 + llamaHeaders),
        // Test-only: confines itself and reports which writes and sockets the kernel still allows.
        .executableTarget(name: "SandboxProbe", dependencies: ["Confinement", "Privacy"], path: "Tests/Fixtures/SandboxProbe", swiftSettings: swift6),
        // Test-only: deliberately leaky programs, one per audit rule, that `replay audit` must catch.
        .executableTarget(name: "LeakyFixtures", dependencies: ["Confinement", "CXattr", "Privacy"], path: "Tests/Fixtures/LeakyFixtures", swiftSettings: swift6),

        // Test-only: temporary directories, subprocesses and built products, shared by the test targets.
        // It sees ReplayKit, and so Llama's llama.h: every test target over it is given llama.h's directory.
        .target(name: "TestSupport", dependencies: ["Spawn", "Export", "Engine", "Jobs", "Privacy"], path: "Tests/TestSupport", swiftSettings: swift6),
        // Test-only: runs and states made in process (StateFixtures), for the suites over ReplayKit.
        .target(name: "RunTestSupport", dependencies: ["TestSupport", "ReplayKit", "Corpus", "Export", "Engine", "Jobs", "Privacy"],
                path: "Tests/RunTestSupport", swiftSettings: swift6 + llamaHeaders),
        .testTarget(name: "SpawnTests", dependencies: ["TestSupport", "Spawn", "Privacy"], swiftSettings: tests6),
        .testTarget(name: "PrivacyTests", dependencies: ["TestSupport", "Privacy"], swiftSettings: tests6),
        .testTarget(name: "AuditTests", dependencies: ["TestSupport", "Spawn", "Audit", "Llama", "Confinement", "Privacy", "SandboxProbe", "LeakyFixtures", "Replay"],
                    swiftSettings: tests6 + llamaHeaders),
        .testTarget(name: "ExportTests", dependencies: ["TestSupport", "Export", "Privacy"],
                    exclude: ["FuzzCorpus"], swiftSettings: tests6),  // inputs the tests read by path
        .testTarget(name: "CorpusTests", dependencies: ["TestSupport", "Corpus", "Export", "Privacy"], swiftSettings: tests6),
        .testTarget(name: "EngineTests", dependencies: ["TestSupport", "Engine", "Privacy"], swiftSettings: tests6),
        .testTarget(name: "EndpointTests", dependencies: ["TestSupport", "Endpoint", "Engine", "Jobs", "Privacy"], swiftSettings: tests6),
        // ReplayBench: the engine options' text form (`replay-bench model --engine`), which the
        // speed-up suites name their variants by.
        .testTarget(name: "LlamaTests", dependencies: ["TestSupport", "CLlama", "Llama", "Engine", "Export", "Corpus", "Privacy", "Jobs", "ReplayBench"],
                    swiftSettings: tests6O + llamaHeaders),
        // Llama only for the suites that ask the real model; the Jobs library itself never sees llama.h.
        .testTarget(name: "JobsTests", dependencies: ["TestSupport", "Jobs", "Engine", "Llama", "Export", "Privacy"],
                    exclude: ["NeverRuleLabelled"], swiftSettings: tests6O + llamaHeaders),  // the never rules' labelled sets, read by path
        .testTarget(name: "FlywheelTests", dependencies: ["TestSupport", "Spawn", "Flywheel", "Export", "Privacy"], swiftSettings: tests6),
        .testTarget(name: "ReplayKitTests", dependencies: ["TestSupport", "RunTestSupport", "Spawn", "ReplayKit", "Confinement", "Audit", "Corpus", "Llama", "Replay", "ReplayBench",
                                                     "LeakyFixtures", "Privacy"],
                    exclude: ["Adversary"], swiftSettings: tests6 + llamaHeaders),  // a C library the tests compile and preload
        .testTarget(name: "CompareTests", dependencies: ["TestSupport", "RunTestSupport", "Spawn", "Compare", "ReplayKit", "Confinement", "Audit", "Corpus", "Llama", "Replay",
                                                   "Privacy"],
                    exclude: ["Statistics/reference.py"], swiftSettings: tests6 + llamaHeaders),  // the statistics tests' reference values
        .testTarget(name: "ProbeTests", dependencies: ["TestSupport", "Probe", "Compare", "Audit", "Confinement", "ReplayKit", "Flywheel", "Jobs", "Engine",
                                                 "Export", "Privacy"],
                    swiftSettings: tests6 + llamaHeaders),
        .testTarget(name: "SuiteTests", dependencies: ["TestSupport", "Spawn", "Suite", "ReplayKit", "Confinement", "Audit", "Llama", "Replay", "Privacy"],
                    swiftSettings: tests6 + llamaHeaders),
        // The Slurm scripts on a one-node cluster started by the test, and the Kubernetes manifests;
        // ReplayKit to read a shard's checkpoints as replay does.
        .testTarget(name: "ClusterTests", dependencies: ["TestSupport", "Privacy", "ReplayKit"], swiftSettings: tests6 + llamaHeaders),
    ]
)
