import Engine
import Privacy
import Testing

/// Each model version's own limits: which profile a `meta.model` is judged by, what the built-in
/// set says and where from, and a profiles file's errors naming the key that is wrong.
@Suite struct ModelProfilesTests {
    @Test(arguments: [
        ("26.0", "26.0"), ("26.3", "26.0"), ("26.3.1", "26.0"), ("26.4", "26.4"), ("26.10", "26.4"),
        ("27", "27.0"), ("27.0", "27.0"), ("27.2", "27.0"), ("28.0", "27.0"),
        ("unknown", "26.0"), ("", "26.0"), ("27.0-beta", "26.0"), ("25.9", "26.0"),
    ])
    func aPlaceIsJudgedByItsOwnVersionsProfile(model: String, profile: String) {
        #expect(ModelProfiles.builtIn.profile(forModel: model).name == profile)
    }

    @Test func theBuiltInSetGives27ItsOwnContextAndStatesEverySource() throws {
        let builtIn = ModelProfiles.builtIn
        #expect(builtIn.contextTokens(model: "26.0", device: "iphone15pro") == 4096)
        #expect(builtIn.contextTokens(model: "26.4", device: "iphone15pro") == 4096)
        #expect(builtIn.contextTokens(model: "27.0", device: "iphone15pro") == 8192)
        #expect(builtIn.largestContext(on: "iphone15pro") == 8192)
        #expect(builtIn.devices.map(\.name) == ["iphone15pro", "iphone16pro", "iphone17pro"])
        #expect(builtIn.devices.allSatisfy { !$0.source.isEmpty } && builtIn.models.allSatisfy { !$0.source.isEmpty })
        // The published figure is stated as published; the others say they are estimates.
        #expect(builtIn.devices[0].source.contains("Apple ML Research"))
        #expect(builtIn.devices.dropFirst().allSatisfy { $0.source.hasPrefix("estimate") })
        #expect(builtIn.models.allSatisfy { $0.languages.contains("en") && $0.languages.contains("ja") && !$0.languages.contains("fi") })
        // Its digest is that of the bytes `replay profiles show` prints.
        var hasher = SHA256()
        hasher.update(Array(ModelProfiles.builtInText.utf8))
        #expect(builtIn.sha256 == hasher.finalizeHex())
        #expect(DeviceProfile.iPhone15Pro.prefillMillisecondsPerToken == 0.6 && DeviceProfile.iPhone15Pro.decodeTokensPerSecond == 30)
    }

    @Test func aVersionsOwnDeviceFiguresAndCeilingReplaceTheDevicesOnThatDeviceOnly() throws {
        let text = Self.file(models: """
            {"name":"26.4","from":"26.4","below":"27.0","context_tokens":4096,"languages":["en"],"source":"s"},
            {"name":"27.0","from":"27.0","context_tokens":8192,"context_tokens_by_device":{"slow":4096},
             "timing_by_device":{"slow":{"prefill_ms_per_token":2,"decode_tokens_per_s":10}},"languages":["en","fi"],"source":"s"}
            """)
        let profiles = try ModelProfiles(parsing: Array(text.utf8), file: "p.json")
        let slow = try #require(profiles.device(named: "SLOW"))
        let fast = try #require(profiles.device(named: "fast"))
        #expect(profiles.contextTokens(model: "27.0", device: "slow") == 4096)
        #expect(profiles.contextTokens(model: "27.0", device: "fast") == 8192)
        #expect(profiles.device(slow, model: "27.0").prefillMillisecondsPerToken == 2)
        #expect(profiles.device(slow, model: "26.4").prefillMillisecondsPerToken == 1)
        #expect(profiles.device(fast, model: "27.0") == fast)
        #expect(profiles.anyLanguage == ["en", "fi"])
        #expect(profiles.unknownModel.name == "26.4")
    }

    /// A file with two devices ("slow" and "fast") and the given models; unknown_model 26.4.
    static func file(models: String, unknown: String = "26.4") -> String {
        """
        {"schema":"replay.profiles/1","name":"team","unknown_model":"\(unknown)",
         "devices":[{"name":"slow","prefill_ms_per_token":1,"decode_tokens_per_s":20,"source":"measured"},
                    {"name":"fast","prefill_ms_per_token":0.5,"decode_tokens_per_s":40,"source":"measured"}],
         "models":[\(models)]}
        """
    }

    static let good = #"{"name":"26.4","from":"26.4","context_tokens":4096,"languages":["en"],"source":"s"}"#

    @Test(arguments: [
        (file(models: good).replacingOccurrences(of: "replay.profiles/1", with: "replay.profiles/2"), "its schema is not replay.profiles/1"),
        (file(models: good, unknown: "25.0"), "unknown_model must be the name of one of the models"),
        (file(models: good.replacingOccurrences(of: "4096", with: "12")), "models[0].context_tokens must be a whole number of tokens"),
        (file(models: good.replacingOccurrences(of: #""26.4","context"#, with: #""26.x","context"#)), "models[0].from must be a version"),
        (file(models: good.replacingOccurrences(of: #"["en"]"#, with: #"["EN"]"#)), "models[0].languages[0] must be a lowercase language subtag"),
        (file(models: good.replacingOccurrences(of: #""source":"s"}"#, with: #""source":"s","colour":1}"#)), "models[0] must be an object of"),
        (file(models: good + "," + good.replacingOccurrences(of: #""name":"26.4""#, with: #""name":"27.0""#)), "models[1] must be a version range of its own"),
        (file(models: #"{"name":"27.0","from":"27.0","context_tokens":8192,"context_tokens_by_device":{"pixel":4096},"languages":["en"],"source":"s"}"#,
              unknown: "27.0"), "models[0].context_tokens_by_device must be keyed by the devices' names"),
        (file(models: good).replacingOccurrences(of: #""decode_tokens_per_s":20"#, with: #""decode_tokens_per_s":0"#), "devices[0].decode_tokens_per_s must be a number above 0"),
        ("{", "not a JSON profiles file"),
    ])
    func aBadFileIsRefusedNamingTheFileAndTheKey(text: String, expected: String) {
        #expect {
            _ = try ModelProfiles(parsing: Array(text.utf8), file: "team/profiles.json")
        } throws: { error in
            let description = (error as? EngineError)?.description ?? ""
            return description.hasPrefix("team/profiles.json: ") && description.contains(expected)
        }
    }

    /// A key given twice is refused, naming its path, rather than the last one kept: a profiles
    /// file that says two things of one model means neither. The values are never repeated.
    @Test(arguments: [
        (file(models: good.replacingOccurrences(of: #""source":"s"}"#, with: #""source":"s","source":"Tell mum the surgery"}"#)),
         "models[0].source"),
        (file(models: good).replacingOccurrences(of: #""name":"team","#, with: #""name":"team","name":"surgery","#),
         "name"),
        (file(models: good).replacingOccurrences(of: #""source":"measured"},"#, with: #""source":"measured","decode_tokens_per_s":30},"#),
         "devices[0].decode_tokens_per_s"),
        (file(models: #"{"name":"27.0","from":"27.0","context_tokens":8192,"context_tokens_by_device":{"slow":4096,"slow":2048},"languages":["en"],"source":"s"}"#,
              unknown: "27.0"), "models[0].context_tokens_by_device.slow"),
        (file(models: #"{"name":"27.0","from":"27.0","context_tokens":8192,"languages":["en"],"source":"s","#
              + #""timing_by_device":{"fast":{"prefill_ms_per_token":1,"decode_tokens_per_s":9,"prefill_ms_per_token":2}}}"#, unknown: "27.0"),
         "models[0].timing_by_device.fast.prefill_ms_per_token"),
    ])
    func aKeyGivenTwiceIsRefusedNamingItsPath(text: String, path: String) {
        do {
            _ = try ModelProfiles(parsing: Array(text.utf8), file: "team/profiles.json")
            Issue.record("accepted")
        } catch {
            #expect(error == .profilesFileHasAWrongValue(file: "team/profiles.json", path: path, expected: "given once"))
            #expect(error.description == "team/profiles.json: \(path) must be given once")
            #expect(!error.description.contains("surgery"))
        }
    }

    @Test(arguments: [("26.4", "26.4.0", true), ("27", "27.0", true), ("26.10", "26.4", false), ("27.0", "26.9", false)])
    func versionsCompareAsNumbers(a: String, b: String, equal: Bool) throws {
        let x = try #require(ModelVersion(a)), y = try #require(ModelVersion(b))
        #expect((x == y) == equal)
        if !equal { #expect(y < x) }
        #expect(ModelVersion("unknown") == nil && ModelVersion("1.2.3.4.5") == nil && ModelVersion("٢٧.٠") == nil)
    }
}
