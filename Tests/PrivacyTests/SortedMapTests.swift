import Privacy
import Testing

/// `@SortedMap` and `Judged` as a property wrapper: fields of a type whose coding is the
/// synthesized one, written in a fixed order and judged as they are read.
@Suite struct SortedMapTests {
    struct Tally: Codable, Equatable {
        @BuildLabel var build: String
        @SortedMap<BuildLabel, Int> var byBuild: [String: Int] = [:]
        @SortedMap<CounterName, Int> var counters: [String: Int] = [:]
    }

    /// Refuses every string it is asked about under `refused`.
    struct Refusing: ResultStringJudge {
        let refused: ResultStringRule
        func problem(with text: String, as rule: ResultStringRule) -> String? { rule == refused ? "allowed here" : nil }
    }

    static let tally = Tally(build: "2.9", byBuild: ["unknown": 1, "2.10": 2, "2.9": 3], counters: ["zeta": 1, "alpha": 2, "mu": 3])

    @Test func labelsComeInDisplayOrderOtherKeysAsWritten() throws {
        let value = try ReportValueEncoder().encode(Self.tally)
        #expect(value == .object([
            ("build", .label("2.9")),
            ("byBuild", .object([("2.9", .int(3)), ("2.10", .int(2)), ("unknown", .int(1))])),
            ("counters", .object([("alpha", .int(2)), ("mu", .int(3)), ("zeta", .int(1))])),
        ]))
        #expect(try ReportValueDecoder(strict: true).decode(Tally.self, from: ReportValue(parsingExactJSON: value.exactJSON())) == Self.tally)
    }

    @Test func readingJudgesEachKeyAndWrappedString() throws {
        let value = try ReportValueEncoder().encode(Self.tally)
        let judged = { (rule: ResultStringRule) in ReportValueDecoder(userInfo: [.resultStringJudge: Refusing(refused: rule)], strict: true) }
        #expect(throws: StateFormatError("build: a string that is not allowed here")) { try judged(.label(.build)).decode(Tally.self, from: value) }
        #expect(throws: StateFormatError("counters{0}: a key that is not allowed here")) { try judged(.counter).decode(Tally.self, from: value) }
        #expect(throws: StateFormatError("byBuild: missing")) {
            try ReportValueDecoder(strict: true).decode(Tally.self, from: .object([("build", .label("2.9")), ("counters", .object([]))]))
        }
    }
}
