import ReplayKit

/// `replay compare`'s command line, parsed.
public struct CompareOptions: Sendable, Equatable {
    public var outputDirectory = "replay-compare"
    public var baseDirectory = ""
    public var newDirectory = ""
    public var gates: [ComparisonGate] = []
    /// The percentiles' bootstrap seed (stated in every output).
    public var seed: UInt64 = CompareOptions.defaultSeed
    public var allowUnsandboxed = false
    /// `--force`: replace a finished comparison in `outputDirectory`.
    public var force = false
    /// The runs' key file (`--run-key`); nil for `REPLAY_RUN_KEY`'s, else the per-user key. Each
    /// run's state.json carries its digest under its run key, which the comparison checks.
    public var runKeyPath: String?

    /// The seed when `--seed` is not given: `PairedBootstrap`'s own default.
    public static let defaultSeed = PairedBootstrap().seed

    public init() {}

    /// Parses `arguments` (after `compare`); nil for `--help`.
    public static func parse(_ arguments: [String]) throws(CompareError) -> CompareOptions? {
        var options = CompareOptions()
        var directories: [String] = []
        var rest = arguments[...]
        var optionsEnded = false
        func value(for flag: String) throws(CompareError) -> String {
            guard let next = rest.popFirst() else { throw .usage("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") {
                directories.append(argument)
                continue
            }
            switch argument {
            case "-h", "--help": return nil
            case "--": optionsEnded = true
            case "--out": options.outputDirectory = try value(for: argument)
            case "--fail-if-worse": options.gates.append(try ComparisonGate(parsing: try value(for: argument)))
            case "--seed":
                let text = try value(for: argument)
                // At most Int.max, so compare.json states it as a JSON integer.
                guard let seed = Int(text), seed >= 0 else { throw .usage("--seed takes a whole number from 0 to \(Int.max), not '\(text)'") }
                options.seed = UInt64(seed)
            case "--allow-unsandboxed": options.allowUnsandboxed = true
            case "--force": options.force = true
            case "--run-key": options.runKeyPath = try value(for: argument)
            default: throw .usage("unknown option '\(argument)' for replay compare")
            }
        }
        guard directories.count == 2 else {
            throw .usage("replay compare needs two run directories, BASE_DIR and NEW_DIR (given \(directories.count))")
        }
        options.baseDirectory = directories[0]
        options.newDirectory = directories[1]
        guard !options.outputDirectory.isEmpty else { throw .usage("--out needs a directory") }
        return options
    }
}
