import Engine
import Foundation
import Jobs

/// Settings from a JSON file (`--config replay.json`); flags on the command line win.
///
/// ```json
/// {
///   "device": "iphone15pro",
///   "budgets_ms": { "chips": 800, "route": 400, "push": 3000, "draft": 2000 },
///   "fail_under": { "chips.in_budget.device": 0.9, "route.accuracy": 0.5 },
///   "labels": "labels.json",
///   "prompts": "prompts.json",
///   "profiles": "profiles.json",
///   "inject_fallbacks": "refusal=0.05",
///   "inject_seed": 7
/// }
/// ```
/// JSON rather than TOML because Foundation reads it and the package may not depend on a parser.
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

    /// Reads and checks the file; the error says which key is wrong.
    public static func load(_ path: String) throws(ArgumentParser.UsageError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArgumentParser.UsageError("cannot read the config file \(path)")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ArgumentParser.UsageError("\(path): not a JSON object")
        }
        var config = ConfigFile()
        let known = ["device", "budgets_ms", "fail_under", "labels", "run_key", "prompts", "profiles", "inject_fallbacks", "inject_seed"]
        for key in object.keys where !known.contains(key) {
            throw ArgumentParser.UsageError("\(path): unknown key '\(key)' (\(known.joined(separator: ", ")))")
        }
        /// The non-empty text the file gives `key`, or nil when it gives none; anything else is an
        /// error saying what the key must be.
        func text(_ key: String, mustBe what: String) throws(ArgumentParser.UsageError) -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value as? String, !text.isEmpty else { throw ArgumentParser.UsageError("\(path): '\(key)' must be \(what)") }
            return text
        }
        config.profiles = try text("profiles", mustBe: "the path of a profiles file (see --profiles)")
        config.injectFallbacks = try text("inject_fallbacks", mustBe: "REASON=RATE,... as --inject-fallbacks takes it")
        if let seed = object["inject_seed"] {
            guard let number = seed as? NSNumber, let value = UInt64(exactly: number.doubleValue), value <= UInt64(Int.max) else {
                throw ArgumentParser.UsageError("\(path): 'inject_seed' must be a whole number of 0 or more")
            }
            config.injectSeed = value
        }
        config.prompts = try text("prompts", mustBe: "the path of a prompt set file (see --prompts)")
        config.runKeyPath = try text("run_key", mustBe: "the path of a key file")
        config.labels = try text("labels", mustBe: "the path of a labels file (see --labels)")
        config.device = try text("device", mustBe: "the name of a device of the profiles or custom:MS_PER_TOKEN,TOKENS_PER_S")
        if let budgets = object["budgets_ms"] {
            guard let budgets = budgets as? [String: Any] else { throw ArgumentParser.UsageError("\(path): 'budgets_ms' must be an object") }
            for (name, value) in budgets.sorted(by: { $0.key < $1.key }) {
                guard let job = JobKind(rawValue: name), let ms = (value as? NSNumber)?.doubleValue, ms > 0 else {
                    throw ArgumentParser.UsageError("\(path): budgets_ms.\(name) must name a job (\(ArgumentParser.jobNames.joined(separator: ", "))) and a number above 0")
                }
                config.budgets[job] = ms
            }
        }
        if let gates = object["fail_under"] {
            guard let gates = gates as? [String: Any] else { throw ArgumentParser.UsageError("\(path): 'fail_under' must be an object") }
            for (key, value) in gates.sorted(by: { $0.key < $1.key }) {
                guard let minimum = (value as? NSNumber)?.doubleValue, key.contains(".") else {
                    throw ArgumentParser.UsageError("\(path): fail_under.\(key) must be JOB.KEY with a number")
                }
                config.thresholds.append(Threshold(key: key, minimum: minimum))
            }
        }
        return config
    }
}
