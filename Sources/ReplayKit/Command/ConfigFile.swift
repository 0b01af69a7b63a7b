import Engine
import Foundation
import Jobs
import Privacy

/// Settings from a JSON file (`--config replay.json`); flags on the command line win.
///
/// ```json
/// {
///   "device": "iphone15pro",
///   "budgets_ms": { "chips": 800, "route": 400, "push": 3000, "draft": 2000 },
///   "fail_under": { "chips.in_budget.device": 0.9, "route.accuracy": 0.5 },
///   "fail_over": { "chips.fallbacks.time_budget": 10 },
///   "labels": "labels.json",
///   "prompts": "prompts.json",
///   "profiles": "profiles.json",
///   "inject_fallbacks": "refusal=0.05",
///   "inject_seed": 7
/// }
/// ```
/// JSON rather than TOML because the package has a JSON parser of its own and may not depend on
/// another: the file is read as every input file is, with `ReportValue(parsingExactJSON:)` and
/// `InputFields`, so a key given twice is an error rather than one of the two silently kept.
public struct ConfigFile: Sendable, Equatable {
    /// The device's name, resolved against the profiles (`--profiles` or the config's) once read.
    public var device: String?
    /// The profiles file (`ProfilesFile`), relative to the working directory; `--profiles` wins.
    public var profiles: String?
    /// Fallbacks to inject, as `--inject-fallbacks` takes them; the flag wins.
    public var injectFallbacks: String?
    /// The injection's seed; `--inject-seed` wins.
    public var injectSeed: UInt64?
    public var budgets: [JobKind: Double] = [:]
    public var thresholds: [Threshold] = []
    /// The labels file (`LabelsFile`) to read, as `--labels` would name it: relative to the
    /// working directory, as every path of the command line. `--labels` wins.
    public var labels: String?
    /// The run key's file (`run_key`), relative to the working directory; `--run-key` wins.
    public var runKeyPath: String?
    /// The prompt set file (`PromptsFile`) to read, relative to the working directory; `--prompts` wins.
    public var prompts: String?

    public init() {}

    /// The keys a config file may have, in the order an unknown key's error lists them.
    static let keys = ["device", "budgets_ms", "fail_under", "fail_over", "labels", "run_key", "prompts", "profiles", "inject_fallbacks", "inject_seed"]

    /// Reads and checks the file; the error says which key is wrong.
    public static func load(_ path: String) throws(ArgumentParser.UsageError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArgumentParser.UsageError("cannot read the config file \(path)")
        }
        /// The fields of the object at `at` as `fields` checks them, a problem as a usage error
        /// naming the file and the key.
        func pairs(_ value: ReportValue, at: String, _ fields: InputFields) throws(ArgumentParser.UsageError) -> [(key: String, value: ReportValue)] {
            do {
                return try fields.pairs(of: value, at: at)
            } catch {
                switch error {
                case .notAnObject(""): throw ArgumentParser.UsageError("\(path): not a JSON object")
                case .notAnObject(let at): throw ArgumentParser.UsageError("\(path): '\(at)' must be an object")
                case .unknownKey(_, let key, let allowed): throw ArgumentParser.UsageError("\(path): unknown key '\(key)' (\(allowed.joined(separator: ", ")))")
                case .keyGivenTwice(let at, let key): throw ArgumentParser.UsageError("\(path): \(at.isEmpty ? "'\(key)'" : error.place) is given twice")
                case .missingKey(_, let key): throw ArgumentParser.UsageError("\(path): '\(key)' is missing")
                }
            }
        }
        // Text that is not UTF-8 JSON reads as null: like any value but an object, "not a JSON object".
        let document = String(validating: Array(data), as: UTF8.self).flatMap { try? ReportValue(parsingExactJSON: $0) } ?? .null
        let object = Dictionary(uniqueKeysWithValues: try pairs(document, at: "", InputFields(allowed: keys, optional: Set(keys))))
        var config = ConfigFile()
        /// The non-empty text the file gives `key`, or nil when it gives none; anything else is an
        /// error saying what the key must be.
        func text(_ key: String, mustBe what: String) throws(ArgumentParser.UsageError) -> String? {
            guard let value = object[key] else { return nil }
            guard case .label(let text) = value, !text.isEmpty else { throw ArgumentParser.UsageError("\(path): '\(key)' must be \(what)") }
            return text
        }
        config.profiles = try text("profiles", mustBe: "the path of a profiles file (see --profiles)")
        config.injectFallbacks = try text("inject_fallbacks", mustBe: "REASON=[SCOPE:]RATE,... as --inject-fallbacks takes it")
        if let seed = object["inject_seed"] {
            guard let number = seed.doubleValue, let value = UInt64(exactly: number), value <= UInt64(Int.max) else {
                throw ArgumentParser.UsageError("\(path): 'inject_seed' must be a whole number of 0 or more")
            }
            config.injectSeed = value
        }
        config.prompts = try text("prompts", mustBe: "the path of a prompt set file (see --prompts)")
        config.runKeyPath = try text("run_key", mustBe: "the path of a key file")
        config.labels = try text("labels", mustBe: "the path of a labels file (see --labels)")
        config.device = try text("device", mustBe: "the name of a device of the profiles or custom:MS_PER_TOKEN,TOKENS_PER_S")
        if let budgets = object["budgets_ms"] {
            for (name, value) in try pairs(budgets, at: "budgets_ms", .anyKeys).sorted(by: { $0.key < $1.key }) {
                guard let job = JobKind(rawValue: name), let ms = value.doubleValue, ms > 0 else {
                    throw ArgumentParser.UsageError("\(path): budgets_ms.\(name) must name a job (\(ArgumentParser.jobNames.joined(separator: ", "))) and a number above 0")
                }
                config.budgets[job] = ms
            }
        }
        for (name, bound) in [("fail_under", Threshold.Bound.atLeast), ("fail_over", .atMost)] {
            guard let gates = object[name] else { continue }
            for (key, value) in try pairs(gates, at: name, .anyKeys).sorted(by: { $0.key < $1.key }) {
                guard let limit = value.doubleValue, limit.isFinite else {
                    throw ArgumentParser.UsageError("\(path): \(name).\(key) must be JOB.KEY (or JOB[SLICE].KEY) with a number")
                }
                do throws(GateKey.Problem) {
                    let gate = try GateKey(parsing: key)
                    config.thresholds.append(bound == .atLeast ? Threshold(key: gate, minimum: limit) : Threshold(key: gate, maximum: limit))
                } catch {
                    throw ArgumentParser.UsageError("\(path): \(name).\(key): \(error)")
                }
            }
        }
        return config
    }
}
