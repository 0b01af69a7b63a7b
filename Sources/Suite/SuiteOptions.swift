import Endpoint
import Engine
import Llama
import ReplayKit

/// `replay suite run`'s command line, parsed.
public struct SuiteOptions: Sendable, Equatable {
    public var suitePath = ""
    public var outputDirectory = "suite-report"
    /// A GGUF model (`--model`); nil: the default model.
    public var modelPath: String?
    /// A Chat Completions server on this machine's loopback that answers instead of a GGUF model
    /// (`--endpoint URL`, such as `fm serve`'s http://127.0.0.1:1976); nil: the llama.cpp engine.
    public var endpoint: EndpointURL?
    /// The `model` the endpoint's requests name (`--endpoint-model`); nil names none.
    public var endpointModel: String?
    /// How the endpoint's requests spell the schema (`--response-format`).
    public var responseFormat: ResponseFormat = .jsonSchema
    /// Whether `--response-format` was given (it names how `--endpoint` is asked, so needs it).
    var responseFormatGiven = false
    /// A prompt set file (`--prompts`); nil: the built-in set.
    public var promptsPath: String?
    public var device: DeviceProfile = .iPhone15Pro
    /// Each model version's ceiling, languages and speed (`--profiles`): a case is cut and judged
    /// as `modelVersion` (else the profiles' unknown model) would.
    public var profiles = ModelProfiles.builtIn
    /// The on-device model version the run stands for (`--model-version`); cases with
    /// `model_versions` run only when it is one of them.
    public var modelVersion: String?
    /// Sequences decoded together (`--batch`).
    public var batchSize = 8
    public var allowUnsandboxed = false
    /// `--force`: replace a finished suite report in `outputDirectory`.
    public var force = false

    public init() {}

    /// Parses `arguments` (after `suite`); nil for `--help`.
    public static func parse(_ arguments: [String]) throws(SuiteError) -> SuiteOptions? {
        var rest = arguments[...]
        guard let verb = rest.popFirst(), verb != "-h", verb != "--help" else {
            if arguments.isEmpty { throw .usage("replay suite needs a command: replay suite run SUITE") }
            return nil
        }
        guard verb == "run" else {
            throw .usage("unknown command 'replay suite \(verb)': the commands are replay suite run SUITE and replay suite compare DIR...")
        }
        var options = SuiteOptions()
        var files: [String] = []
        var optionsEnded = false
        var deviceName: String? = nil
        func value(for flag: String) throws(SuiteError) -> String {
            guard let next = rest.popFirst() else { throw .usage("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                files.append(argument)
                continue
            }
            switch argument {
            case "-h", "--help": return nil
            case "--": optionsEnded = true
            case "--out": options.outputDirectory = try value(for: argument)
            case "--model":
                let given = try value(for: argument)
                do { options.modelPath = try DefaultModel.file(forModelArgument: given) } catch { throw .usage(error.description) }
            case "--endpoint":
                let given = try value(for: argument)
                do throws(EndpointError) { options.endpoint = try EndpointURL(given) } catch { throw .usage(error.description) }
            case "--endpoint-model":
                let name = try value(for: argument)
                guard !name.isEmpty, name.count <= 200, name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                    throw .usage("--endpoint-model takes a model's name as the server lists it: printable ASCII without spaces")
                }
                options.endpointModel = name
            case "--response-format":
                let given = try value(for: argument)
                guard let format = ResponseFormat(rawValue: given) else {
                    throw .usage("--response-format takes json_schema (the Chat Completions API's) or json_object (llama-cpp-python's), not '\(given)'")
                }
                options.responseFormat = format
                options.responseFormatGiven = true
            case "--prompts": options.promptsPath = try value(for: argument)
            case "--device": deviceName = try value(for: argument)
            case "--profiles":
                let path = try value(for: argument)
                do {
                    options.profiles = try ProfilesFile.load(path)
                } catch {
                    throw .usage(error.description)
                }
            case "--model-version":
                let version = try value(for: argument)
                guard SuiteFileReader.isVersion(version) else {
                    throw .usage("--model-version takes a version such as 26.4 or 27.0, not '\(version)'")
                }
                options.modelVersion = version
            case "--batch":
                let text = try value(for: argument)
                guard let count = Int(text), (1...64).contains(count) else { throw .usage("--batch takes a whole number from 1 to 64, not '\(text)'") }
                options.batchSize = count
            case "--allow-unsandboxed": options.allowUnsandboxed = true
            case "--force": options.force = true
            default: throw .usage("unknown option '\(argument)' for replay suite run")
            }
        }
        do {
            options.device = try options.profiles.chosenDevice(deviceName)
        } catch {
            throw .usage(error.description)
        }
        guard files.count == 1 else { throw .usage("replay suite run needs one suite file (given \(files.count))") }
        options.suitePath = files[0]
        guard !options.outputDirectory.isEmpty else { throw .usage("--out needs a directory") }
        if options.endpoint != nil, options.modelPath != nil {
            throw .usage("--endpoint and --model name two models: give one (--endpoint asks a Chat Completions server instead of a GGUF file)")
        }
        if options.endpointModel != nil, options.endpoint == nil { throw .usage("--endpoint-model names a model of --endpoint: give --endpoint URL too") }
        if options.responseFormatGiven, options.endpoint == nil { throw .usage("--response-format says how --endpoint is asked: give --endpoint URL too") }
        return options
    }
}
