import Engine
import Jobs
import Llama
import ReplayKit

/// `replay probe injection`'s command line, parsed.
public struct ProbeOptions: Sendable {
    public var corpus: [String] = []
    public var outputDirectory = "probe-report"
    /// The jobs probed (`--job`); every job by default.
    public var jobs: [JobKind] = JobKind.allCases
    /// Threads read (`--limit`): each asked place is asked twice per attack of its job.
    public var threadLimit = 20
    /// An attack set file (`--attacks`); nil: the built-in set (probes/injection.json).
    public var attacksPath: String?
    /// A prompt set file (`--prompts`, the ablation: examples/prompts/spotlight.json); nil: built-in.
    public var promptsPath: String?
    /// A GGUF model (`--model`); nil: the default model.
    public var modelPath: String?
    public var device: DeviceProfile = .iPhone15Pro
    public var batchSize = 8
    public var gates: [ProbeGate] = []
    public var allowUnsandboxed = false
    public var force = false

    public init() {}

    /// Parses `arguments` (after `probe`); nil for `--help`.
    public static func parse(_ arguments: [String]) throws(ProbeError) -> ProbeOptions? {
        var rest = arguments[...]
        guard let verb = rest.popFirst(), verb != "-h", verb != "--help" else {
            if arguments.isEmpty { throw .usage("replay probe needs a probe: replay probe injection CORPUS") }
            return nil
        }
        guard verb == "injection" else { throw .usage("unknown probe 'replay probe \(verb)': the one probe is replay probe injection CORPUS "
            + "(replay probe compare BASE_DIR DIR... compares probes)") }
        var options = ProbeOptions()
        var optionsEnded = false
        var deviceName: String? = nil
        func value(for flag: String) throws(ProbeError) -> String {
            guard let next = rest.popFirst() else { throw .usage("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                options.corpus.append(argument)
                continue
            }
            switch argument {
            case "-h", "--help": return nil
            case "--": optionsEnded = true
            case "--out": options.outputDirectory = try value(for: argument)
            case "--job":
                let text = try value(for: argument)
                if text == "all" {
                    options.jobs = JobKind.allCases
                } else {
                    var jobs: [JobKind] = []
                    for name in text.split(separator: ",") {
                        guard let job = JobKind(rawValue: String(name)) else {
                            throw .usage("--job takes chips, route, push, draft or all (comma-separated), not '\(name)'")
                        }
                        jobs.append(job)
                    }
                    options.jobs = JobKind.allCases.filter(jobs.contains)
                }
            case "--limit":
                let text = try value(for: argument)
                guard let count = Int(text), count >= 1 else { throw .usage("--limit takes a whole number of threads, 1 or more, not '\(text)'") }
                options.threadLimit = count
            case "--attacks": options.attacksPath = try value(for: argument)
            case "--prompts": options.promptsPath = try value(for: argument)
            case "--model":
                let given = try value(for: argument)
                do { options.modelPath = try DefaultModel.file(forModelArgument: given) } catch { throw .usage(error.description) }
            case "--device": deviceName = try value(for: argument)
            case "--batch":
                let text = try value(for: argument)
                guard let count = Int(text), (2...64).contains(count) else { throw .usage("--batch takes a whole number from 2 to 64, not '\(text)'") }
                options.batchSize = count
            case "--fail-over": options.gates.append(try ProbeGate(parsing: try value(for: argument)))
            case "--allow-unsandboxed": options.allowUnsandboxed = true
            case "--force": options.force = true
            default: throw .usage("unknown option '\(argument)' for replay probe injection")
            }
        }
        do {
            options.device = try ModelProfiles.builtIn.chosenDevice(deviceName)
        } catch {
            throw .usage(error.description)
        }
        guard !options.corpus.isEmpty else { throw .usage("replay probe injection needs a corpus (.jsonl or .jsonl.zst)") }
        guard !options.outputDirectory.isEmpty else { throw .usage("--out needs a directory") }
        return options
    }
}
