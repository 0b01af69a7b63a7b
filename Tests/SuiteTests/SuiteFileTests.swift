import Export
import Foundation
import Jobs
@testable import Suite
@testable import ReplayKit
import Testing
import TestSupport

/// The suite file format (`replay.suite/1`, docs/suite.md): the bundled suite reads and covers
/// the spec, and a file that is not a suite is refused naming the file, the case and the key.
@Suite struct SuiteFileTests {
    static func bundled() throws -> SuiteFile {
        try SuiteCommand.read(SuiteText.bundledPath)
    }

    @Test func theBundledSuiteReadsWithFortyCasesPerJob() throws {
        let suite = try Self.bundled()
        #expect(suite.name == "spec")
        for job in JobKind.allCases {
            #expect(suite.cases.filter { $0.job == job }.count >= 40, "\(job.rawValue) has fewer than 40 cases")
        }
    }

    @Test func theBundledSuiteSpeaksSeveralLanguagesAndOneTheModelDoesNot() throws {
        let suite = try Self.bundled()
        let languages = Set(suite.cases.flatMap { $0.runLanguages.compactMap { $0.flatMap(Language.code(of:)) } })
        for code in ["en", "fr", "de", "es", "ja"] { #expect(languages.contains(code), "no case in \(code)") }
        #expect(languages.contains("fi") || languages.contains("pl"))
        #expect(!languages.filter { !SupportedLanguages.appleIntelligence.supports($0) }.isEmpty)
    }

    /// Must cases hold only what is decided without the model's words; model-dependent
    /// expectations are in cases that do not fail the run.
    @Test func mustCasesAreDeterministic() throws {
        let cases = try Self.bundled().cases
        for suiteCase in cases where suiteCase.must && suiteCase.given == nil {
            #expect(suiteCase.expectations.allSatisfy { $0.isDeterministic }, "\(suiteCase.id) is a must case with a model-dependent expectation")
        }
        let modelDependent = cases.filter { $0.given == nil && $0.expectations.contains { !$0.isDeterministic } }
        #expect(!modelDependent.isEmpty && modelDependent.allSatisfy { !$0.must })
    }

    /// The spec's edge cases are in the suite, each as the expectation that states it.
    @Test func theSpecsEdgeCasesAreThere() throws {
        let cases = try Self.bundled().cases
        func has(_ job: JobKind, must: Bool = true, given: Bool? = nil, _ test: (SuiteCase) -> Bool) -> Bool {
            cases.contains { $0.job == job && $0.must == must && (given == nil || ($0.given != nil) == given) && test($0) }
        }
        func screen(_ c: SuiteCase) -> [ScreenNode] {
            if case .chips(_, let screen, _, _) = c.input { return screen }
            return []
        }
        // @name always wins.
        #expect(has(.route) { $0.expectations.contains(.namedRoute(true)) && $0.expectations.contains(.fires(false)) })
        // A tie means the lead.
        #expect(has(.route, given: true) { $0.given?.confidence == 0.4 && $0.expectations.contains(.routeTo("lead")) })
        // A health or money question gets no draft.
        #expect(cases.filter { $0.job == .draft && $0.expectations.contains(.noDraft(true)) }.count >= 6)
        // Choose, pick, ask, form and slide screens get no chips.
        for kind in ["choose", "pick", "ask", "form", "slide"] {
            #expect(has(.chips) { c in screen(c).contains { $0.kind == kind } && c.expectations.contains(.fires(false)) }, "\(kind)")
        }
        // A say that does not end in a question gets no chips.
        #expect(has(.chips) { c in
            screen(c).count == 1 && !screen(c)[0].isTappable && c.expectations.contains(.fires(false))
        })
        // The 600-token chips cut and the 1,000-token push cut.
        #expect(has(.chips) { $0.expectations.contains(.inputCut(true)) && $0.expectations.contains(.inputTokensAtMost(600)) })
        #expect(has(.push) { $0.expectations.contains(.inputCut(true)) && $0.expectations.contains(.inputTokensAtMost(1000)) })
        // Handoff and quote keep the relay line.
        for kind in ["handoff", "quote"] {
            #expect(has(.push) { c in
                if case .push(_, kind, _, _, _) = c.input { return c.expectations.contains(.fallback("relay_line_kept")) }
                return false
            }, "\(kind)")
        }
        // Batched pushes read the newest three.
        #expect(has(.push) { c in
            if case .push(_, _, let batch, let replies, _) = c.input { return batch > 3 && replies.count > 3 && c.expectations.contains(.readsNewest(3)) }
            return false
        })
        // Drafts that must parse, and ones that must be rejected.
        #expect(has(.draft, given: true) { $0.expectations.contains(.parses(true)) })
        #expect(has(.draft, given: true) { $0.expectations.contains(.parses(false)) })
    }

    // MARK: - Files that are not suites

    static func error(_ text: String, file: String = "bad.json") -> String? {
        do {
            _ = try SuiteFile(parsing: Array(text.utf8), file: file)
            return nil
        } catch {
            return error.description
        }
    }

    static let good = SuiteText.chips("fine", expect: #"{"fires": true}"#)

    @Test(arguments: [
        // (the file's cases, the error's words after "bad.json: ")
        ([good, SuiteText.route("tie", message: "hi", expect: #"{"route_to": "Bob"}"#)],
         #"cases[1] (tie): expect.route_to: must be the name of one of input.members, or "lead" (the lead)"#),
        ([SuiteText.chips("long", expect: #"{"fires": "yes"}"#)], "cases[0] (long): expect.fires: must be true or false"),
        ([SuiteText.chips("typo", expect: #"{"fire": true}"#)], "cases[0] (typo): expect.fire: an unknown key"),
        ([SuiteText.chips("wrong-job", expect: #"{"route_to": "lead"}"#)], "cases[0] (wrong-job): expect.route_to: an unknown key"),
        ([SuiteText.chips("Not A Slug", expect: #"{"fires": true}"#)], "cases[0]: id: must be a short slug"),
        ([good, good], "cases[1] (fine): id: the id of cases[0] already"),
        ([SuiteText.chips("screen", screen: #"[{"say": 3}]"#, expect: #"{"fires": true}"#)], "cases[0] (screen): input.screen[0].say: must be a string"),
        ([SuiteText.chips("two-keys", screen: #"[{"say": "a?", "card": {}}]"#, expect: #"{"fires": true}"#)],
         "cases[0] (two-keys): input.screen[0]: must be an object with one key"),
        ([SuiteText.chips("card", screen: #"[{"card": {"title": "t"}}]"#, expect: #"{"fires": true}"#)], "cases[0] (card): input.screen[0].card.body is missing"),
        ([SuiteText.chips("lang", lang: "not a language", expect: #"{"fires": true}"#)], "cases[0] (lang): input.lang: must be a language tag"),
        ([SuiteText.push("batch", batch: 0, expect: #"{"fires": true}"#)], "cases[0] (batch): input.batch: must be a whole number from 1"),
        ([SuiteText.route("given", message: "hi", expect: #"{"parses": true}"#, given: #"{"output": "x", "confidence": 2}"#)],
         "cases[0] (given): given.confidence: must be a number from 0 to 1"),
        ([SuiteText.chips("range", expect: #"{"chips_count_range": [2, 4]}"#)], "cases[0] (range): expect.chips_count_range: must be [MIN, MAX]"),
        ([SuiteText.draft("kind", message: "m", expect: #"{"draft_kind": "poem"}"#)], "cases[0] (kind): expect.draft_kind: must be one of checklist"),
        ([SuiteText.draft("fallback", message: "m", expect: #"{"fallback": "late"}"#)], "cases[0] (fallback): expect.fallback: must be one of none"),
        ([#"{"id": "no-job", "must": true, "input": {}, "expect": {"fires": true}}"#], "cases[0] (no-job): job is missing"),
        ([#"{"id": "bad-job", "job": "poem", "must": true, "input": {}, "expect": {"fires": true}}"#], "cases[0] (bad-job): job: must be one of chips"),
        ([#"{"id": "no-expect", "job": "draft", "must": true, "input": {"message": "m"}, "expect": {}}"#],
         "cases[0] (no-expect): expect: must be an object of one expectation or more"),
        ([#"{"id": "extra", "job": "draft", "must": true, "input": {"message": "m", "words": "x"}, "expect": {"fires": true}}"#],
         "cases[0] (extra): input.words: an unknown key"),
        ([#"{"id": "lead", "job": "route", "must": true, "input": {"members": [{"name": "Sage"}], "lead": "Coach", "message": "m"}, "expect": {"fires": true}}"#],
         "cases[0] (lead): input.lead: must be the name of one of input.members"),
        ([#"{"id": "both", "job": "draft", "must": true, "languages": ["en"], "input": {"message": "m", "lang": "fr"}, "expect": {"fires": true}}"#],
         "cases[0] (both): input.lang: must be absent when the case gives languages"),
        ([#"{"id": "versions", "job": "draft", "must": true, "model_versions": ["next"], "input": {"message": "m"}, "expect": {"fires": true}}"#],
         "cases[0] (versions): model_versions[0]: must be an array of one model version or more"),
        ([#"{"id": "twice", "job": "draft", "must": true, "must": false, "input": {"message": "m"}, "expect": {"fires": true}}"#],
         "cases[0] (twice): must is given twice"),
    ])
    func aBadSuiteNamesTheFileTheCaseAndTheKey(cases: [String], expected: String) {
        let message = Self.error(SuiteText.file(cases))
        #expect(message?.hasPrefix("bad.json: " + expected) == true, "\(message ?? "no error")")
    }

    @Test func aFileThatIsNotASuiteSaysSo() {
        #expect(Self.error("{") == "bad.json: not JSON at byte 1: expected a key")
        #expect(Self.error(#"{"schema": "replay.prompts/1"}"#) == #"bad.json: schema: must be "replay.suite/1" (a suite file, docs/suite.md)"#)
        #expect(Self.error(#"{"schema": "replay.suite/1", "name": "x", "cases": []}"#) == "bad.json: cases: must be an array of one case or more")
        #expect(Self.error(#"{"schema": "replay.suite/1", "name": "x", "cases": [1]}"#) == "bad.json: cases[0]: must be an object (a case)")
        #expect(Self.error(#"{"schema": "replay.suite/1", "name": "x", "cases": [], "extra": 1}"#)?.hasPrefix("bad.json: extra: an unknown key") == true)
        #expect(throws: SuiteError.notJSON(file: "bad.json", problem: "not UTF-8 text at byte 2")) {
            try SuiteFile(parsing: Array("{ ".utf8) + [0xFF], file: "bad.json")
        }
    }

    /// Errors quote keys, never what a case holds.
    @Test func anErrorNeverQuotesTheInput() {
        let message = Self.error(SuiteText.file([SuiteText.chips("quote", screen: #"[{"say": "marmalade?"}, {"card": {"title": "marmalade", "body": 4}}]"#,
                                                                 expect: #"{"fires": true}"#)]))
        #expect(message != nil && message?.contains("marmalade") == false)
    }
}
