import Privacy
import Testing

/// `InputFields`, the one check of an object's keys every input file is read with: each problem
/// it finds, where it says it is, and that what it returns is the file's fields as given.
@Suite struct InputFieldsTests {
    /// An object parsed as the readers parse a file, so a key given twice stays two pairs.
    static func object(_ json: String) throws -> ReportValue {
        try ReportValue(parsingExactJSON: json)
    }

    static let fields = InputFields(allowed: ["name", "size", "note"], optional: ["note"])

    @Test func anObjectWithItsKeysGivesItsFieldsByKeyAndInTheFilesOrder() throws {
        let value = try Self.object(#"{"size": 3, "name": "a", "note": "b"}"#)
        #expect(try Self.fields.read(value, at: "top") == ["name": .label("a"), "size": .int(3), "note": .label("b")])
        #expect(try Self.fields.pairs(of: value, at: "top").map(\.key) == ["size", "name", "note"])
        // An optional key may be left out.
        #expect(try Self.fields.read(try Self.object(#"{"name": "a", "size": 3}"#), at: "").count == 2)
    }

    @Test(arguments: [
        (#"[1]"#, InputFieldProblem.notAnObject(path: "cases[2]")),
        (#"{"name": "a", "colour": "red", "size": 3}"#, .unknownKey(path: "cases[2]", key: "colour", allowed: ["name", "size", "note"])),
        (#"{"name": "a", "size": 3, "name": "b"}"#, .keyGivenTwice(path: "cases[2]", key: "name")),
        (#"{"name": "a"}"#, .missingKey(path: "cases[2]", key: "size")),
        // The first problem in the file's order: the unknown key before the one given twice after it.
        (#"{"colour": 1, "name": "a", "name": "a", "size": 3}"#, .unknownKey(path: "cases[2]", key: "colour", allowed: ["name", "size", "note"])),
        (#"{"size": 1, "size": 2}"#, .keyGivenTwice(path: "cases[2]", key: "size")),
    ])
    func eachProblemIsThrownNamingTheObjectAndTheKey(json: String, problem: InputFieldProblem) throws {
        let value = try Self.object(json)
        #expect(throws: problem) { try Self.fields.read(value, at: "cases[2]") }
        #expect(throws: problem) { try Self.fields.pairs(of: value, at: "cases[2]") }
    }

    @Test func anObjectKeyedByTheFilesOwnNamesTakesAnyKeyOnce() throws {
        let value = try Self.object(#"{"slow": 1, "fast": 2}"#)
        #expect(try InputFields.anyKeys.pairs(of: value, at: "devices").map(\.key) == ["slow", "fast"])
        #expect(throws: InputFieldProblem.keyGivenTwice(path: "devices", key: "slow")) {
            try InputFields.anyKeys.read(try Self.object(#"{"slow": 1, "fast": 2, "slow": 3}"#), at: "devices")
        }
        #expect(throws: InputFieldProblem.notAnObject(path: "devices")) { try InputFields.anyKeys.read(.label("slow"), at: "devices") }
    }

    @Test func pathsJoinWithADotAndTheTopLevelIsTheEmptyPath() {
        #expect(InputFields.join("", "name") == "name")
        #expect(InputFields.join("jobs", "chips") == "jobs.chips")
        #expect(InputFields.join("cases[0].input", "lang") == "cases[0].input.lang")
        #expect(InputFields.shown("") == "the top level")
        #expect(InputFields.shown("jobs.chips") == "jobs.chips")
    }

    @Test func aProblemsPlaceIsTheKeysPathOrTheValuesForANonObject() {
        #expect(InputFieldProblem.notAnObject(path: "").place == "")
        #expect(InputFieldProblem.notAnObject(path: "jobs").place == "jobs")
        #expect(InputFieldProblem.unknownKey(path: "", key: "colour", allowed: []).place == "colour")
        #expect(InputFieldProblem.keyGivenTwice(path: "jobs.chips", key: "prompt").place == "jobs.chips.prompt")
        #expect(InputFieldProblem.missingKey(path: "models[1]", key: "from").place == "models[1].from")
    }

    /// A problem names keys and paths only: a value of the file (which could be anyone's words)
    /// is never part of it.
    @Test func aProblemNeverHoldsAValue() throws {
        let value = try Self.object(#"{"name": "Tell mum the surgery", "size": 3, "name": "Tell mum the surgery"}"#)
        do {
            _ = try Self.fields.read(value, at: "")
            Issue.record("accepted")
        } catch {
            #expect(error == .keyGivenTwice(path: "", key: "name"))
            #expect(!String(describing: error).contains("surgery"))
        }
    }
}
