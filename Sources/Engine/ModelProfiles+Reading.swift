import Privacy

extension ModelProfiles {
    /// Reads a profiles file's bytes; `file` is how errors name it. Every key is checked
    /// (docs/profiles.md): the first problem is thrown, naming the key's path.
    public init(parsing bytes: [UInt8], file: String) throws(EngineError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .profilesFileIsNotJSON(file: file, problem: "it is not UTF-8 text")
        }
        let document: ReportValue
        do {
            document = try ReportValue(parsingExactJSON: text)
        } catch {
            throw .profilesFileIsNotJSON(file: file, problem: error.description)
        }
        let reader = ProfilesReader(file: file)
        guard document["schema"] == .label(Self.schema) else { throw .profilesFileHasAnotherSchema(file: file) }
        let top = try reader.fields(document, at: "", allowed: ["schema", "name", "unknown_model", "devices", "models", "queue"],
                                    optional: ["queue"])
        let name = try reader.name(top["name"]!, at: "name")
        var devices: [DeviceProfile] = []
        for (index, value) in try reader.array(top["devices"]!, at: "devices").enumerated() {
            let path = "devices[\(index)]"
            let fields = try reader.fields(value, at: path, allowed: ["name", "prefill_ms_per_token", "decode_tokens_per_s", "source"])
            let device = try reader.name(fields["name"]!, at: path + ".name").lowercased()
            guard !device.hasPrefix("custom:"), !devices.contains(where: { $0.name == device }) else {
                throw .profilesFileHasAWrongValue(file: file, path: path + ".name", expected: "a device name given once, not starting with custom:")
            }
            devices.append(DeviceProfile(
                name: device,
                prefillMillisecondsPerToken: try reader.number(fields["prefill_ms_per_token"]!, at: path + ".prefill_ms_per_token", above: nil),
                decodeTokensPerSecond: try reader.number(fields["decode_tokens_per_s"]!, at: path + ".decode_tokens_per_s", above: 0),
                source: try reader.text(fields["source"]!, at: path + ".source")))
        }
        guard !devices.isEmpty else { throw .profilesFileHasAWrongValue(file: file, path: "devices", expected: "a list of at least one device") }
        var models: [ModelVersionProfile] = []
        for (index, value) in try reader.array(top["models"]!, at: "models").enumerated() {
            let path = "models[\(index)]"
            let model = try reader.model(value, at: path, devices: Set(devices.map(\.name)))
            if let other = models.first(where: { $0.name == model.name || $0.overlaps(model) }) {
                throw .profilesFileHasAWrongValue(file: file, path: path, expected: "a version range of its own (it meets \(other.name)'s)")
            }
            models.append(model)
        }
        guard case .label(let unknownName)? = top["unknown_model"], let unknown = models.first(where: { $0.name == unknownName }) else {
            throw .profilesFileHasAWrongValue(file: file, path: "unknown_model", expected: "the name of one of the models")
        }
        var hasher = SHA256()
        hasher.update(bytes)
        let queue = try top["queue"].map { (value) throws(EngineError) in try reader.queue(value, at: "queue") } ?? Self.estimatedQueue
        self.init(name: name, sha256: hasher.finalizeHex(), devices: devices, models: models, unknownModel: unknown, queue: queue)
    }
}

extension ModelVersionProfile {
    /// Whether some version is covered by both.
    func overlaps(_ other: ModelVersionProfile) -> Bool {
        let starts = max(from, other.from)
        return covers(starts) && other.covers(starts)
    }
}

/// Walks a parsed profiles file, each value checked where it is read.
private struct ProfilesReader {
    let file: String

    func wrong(_ path: String, _ expected: String) -> EngineError {
        .profilesFileHasAWrongValue(file: file, path: path, expected: expected)
    }

    /// `problem` as this file's error.
    func wrong(_ problem: InputFieldProblem) -> EngineError {
        switch problem {
        case .notAnObject(let path): wrong(InputFields.shown(path), "an object")
        case .unknownKey(let path, let key, let allowed): wrong(InputFields.shown(path), "an object of \(allowed.joined(separator: ", ")) (not '\(key)')")
        case .keyGivenTwice: wrong(problem.place, "given once")
        case .missingKey: wrong(problem.place, "given")
        }
    }

    /// The fields of the object at `path` as `InputFields` checks them: each one of `allowed`,
    /// and every one of `allowed` but `optional` there.
    func fields(_ value: ReportValue, at path: String, allowed: [String], optional: Set<String> = []) throws(EngineError) -> [String: ReportValue] {
        do { return try InputFields(allowed: allowed, optional: optional).read(value, at: path) } catch { throw wrong(error) }
    }

    /// The fields of the object at `path`, keyed by the file's own names (devices), each given once.
    func named(_ value: ReportValue, at path: String) throws(EngineError) -> [(key: String, value: ReportValue)] {
        do { return try InputFields.anyKeys.pairs(of: value, at: path) } catch { throw wrong(error) }
    }

    func array(_ value: ReportValue, at path: String) throws(EngineError) -> [ReportValue] {
        guard case .array(let items) = value else { throw wrong(path, "a list") }
        return items
    }

    func text(_ value: ReportValue, at path: String) throws(EngineError) -> String {
        guard case .label(let text) = value, !text.isEmpty, text.count <= 600 else { throw wrong(path, "text of 1 to 600 characters") }
        return text
    }

    /// A name the report may show as written: the report's token rule keeps it.
    func name(_ value: ReportValue, at path: String) throws(EngineError) -> String {
        guard case .label(let text) = value, ReportLabel(token: text, salt: LabelSalt(bytes: [])).text == text,
              !ReportLabel.isHashed(text), text != ReportLabel.unknown.text else {
            throw wrong(path, "a name of at most 40 letters, digits and . _ + - / :, starting with a letter or digit")
        }
        return text
    }

    func number(_ value: ReportValue, at path: String, above floor: Double?) throws(EngineError) -> Double {
        guard let number = value.doubleValue, number.isFinite, number >= 0, floor.map({ number > $0 }) ?? true, number < 1e6 else {
            throw wrong(path, floor == nil ? "a number of 0 or more" : "a number above \(Int(floor!))")
        }
        return number
    }

    func contextTokens(_ value: ReportValue, at path: String) throws(EngineError) -> Int {
        guard case .int(let tokens) = value, (256...1_048_576).contains(tokens) else { throw wrong(path, "a whole number of tokens from 256 to 1048576") }
        return tokens
    }

    func version(_ value: ReportValue, at path: String) throws(EngineError) -> ModelVersion {
        guard case .label(let text) = value, let version = ModelVersion(text) else { throw wrong(path, "a version such as \"26.4\"") }
        return version
    }

    func model(_ value: ReportValue, at path: String, devices: Set<String>) throws(EngineError) -> ModelVersionProfile {
        let fields = try self.fields(value, at: path, allowed: ["name", "from", "below", "context_tokens", "context_tokens_by_device",
                                                                "languages", "timing_by_device", "tokens", "source"],
                                     optional: ["below", "context_tokens_by_device", "timing_by_device", "tokens"])
        let from = try version(fields["from"]!, at: path + ".from")
        let below = try fields["below"].map { (value) throws(EngineError) -> ModelVersion in try version(value, at: path + ".below") }
        if let below, below <= from { throw wrong(path + ".below", "a version after from") }
        var byDevice: [String: Int] = [:]
        if let value = fields["context_tokens_by_device"] {
            guard case .object = value else { throw wrong(path + ".context_tokens_by_device", "an object of device names") }
            for (device, tokens) in try named(value, at: path + ".context_tokens_by_device") {
                guard devices.contains(device) else { throw wrong(path + ".context_tokens_by_device", "keyed by the devices' names (not '\(device)')") }
                byDevice[device] = try contextTokens(tokens, at: path + ".context_tokens_by_device." + device)
            }
        }
        var timing: [String: DeviceTiming] = [:]
        if let value = fields["timing_by_device"] {
            guard case .object = value else { throw wrong(path + ".timing_by_device", "an object of device names") }
            for (device, figures) in try named(value, at: path + ".timing_by_device") {
                let at = path + ".timing_by_device." + device
                guard devices.contains(device) else { throw wrong(path + ".timing_by_device", "keyed by the devices' names (not '\(device)')") }
                let numbers = try self.fields(figures, at: at, allowed: ["prefill_ms_per_token", "decode_tokens_per_s"])
                timing[device] = DeviceTiming(
                    prefillMillisecondsPerToken: try number(numbers["prefill_ms_per_token"]!, at: at + ".prefill_ms_per_token", above: nil),
                    decodeTokensPerSecond: try number(numbers["decode_tokens_per_s"]!, at: at + ".decode_tokens_per_s", above: 0))
            }
        }
        var languages: Set<String> = []
        for (index, language) in try array(fields["languages"]!, at: path + ".languages").enumerated() {
            guard case .label(let code) = language, (2...3).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
                throw wrong(path + ".languages[\(index)]", "a lowercase language subtag such as \"en\"")
            }
            languages.insert(code)
        }
        return ModelVersionProfile(
            name: try name(fields["name"]!, at: path + ".name"), from: from, below: below,
            contextTokens: try contextTokens(fields["context_tokens"]!, at: path + ".context_tokens"),
            contextTokensByDevice: byDevice, languages: languages, timingByDevice: timing,
            tokens: try fields["tokens"].map { (value) throws(EngineError) in try tokens(value, at: path + ".tokens") } ?? .builtIn,
            source: try text(fields["source"]!, at: path + ".source"))
    }

    /// `queue`: the phone's cold start, idle unload and prewarm lead, and their source.
    func queue(_ value: ReportValue, at path: String) throws(EngineError) -> PhoneQueueModel {
        let fields = try self.fields(value, at: path, allowed: ["cold_start_ms", "idle_unload_s", "prewarm_lead_ms", "source"])
        return PhoneQueueModel(coldStartMilliseconds: try number(fields["cold_start_ms"]!, at: path + ".cold_start_ms", above: nil),
                               idleUnloadMilliseconds: 1000 * (try number(fields["idle_unload_s"]!, at: path + ".idle_unload_s", above: nil)),
                               prewarmLeadMilliseconds: try number(fields["prewarm_lead_ms"]!, at: path + ".prewarm_lead_ms", above: nil),
                               source: try text(fields["source"]!, at: path + ".source"))
    }

    /// `tokens`: characters per token for every script, the framing's tokens, and their source.
    func tokens(_ value: ReportValue, at path: String) throws(EngineError) -> PhoneTokenRates {
        let fields = try self.fields(value, at: path, allowed: ["chars_per_token", "framing_tokens", "source"])
        let scripts = PhoneTokenRates.Script.allCases.map(\.rawValue)
        let rates = try self.fields(fields["chars_per_token"]!, at: path + ".chars_per_token", allowed: scripts)
        var charactersPerToken: [PhoneTokenRates.Script: Double] = [:]
        for script in PhoneTokenRates.Script.allCases {
            let at = path + ".chars_per_token." + script.rawValue
            let rate = try number(rates[script.rawValue]!, at: at, above: 0)
            guard rate <= 100 else { throw wrong(at, "a number of characters per token above 0 and at most 100") }
            charactersPerToken[script] = rate
        }
        guard case .int(let framing) = fields["framing_tokens"]!, (0...4096).contains(framing) else {
            throw wrong(path + ".framing_tokens", "a whole number of tokens from 0 to 4096")
        }
        return PhoneTokenRates(charactersPerToken: charactersPerToken, framingTokens: framing,
                               source: try text(fields["source"]!, at: path + ".source"))
    }
}
