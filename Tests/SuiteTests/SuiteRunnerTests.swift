import Engine
import Foundation
import Jobs
import Privacy
@testable import Suite
@testable import ReplayKit
import Testing
import TestSupport

/// The suite's runner decides each expectation from the jobs' own planning and judging, with a
/// scripted model, sizes in the phone's tokens: deterministic expectations come out as the app's rules say,
/// whatever the model writes, and given outputs are judged without asking it.
@Suite struct SuiteRunnerTests {
    static func run(_ cases: [String], model: any LanguageModel = ScriptedLanguageModel.valid(), modelVersion: String? = nil)
        throws -> [SuiteCaseResult] {
        let suite = try SuiteFile(parsing: Array(SuiteText.file(cases).utf8), file: "test.json")
        return SuiteRunner(suite: suite, model: model, modelVersion: modelVersion).run()
    }

    /// The verdicts of `result`'s expectations by name: passed, and the reason when not.
    static func verdicts(_ result: SuiteCaseResult) -> [String: String] {
        Dictionary(uniqueKeysWithValues: result.expectations.map { ($0.name.rawValue, $0.passed ? "pass" : $0.reason?.rawValue ?? "?") })
    }

    @Test func chipsFireOnlyOnAQuestionWithNothingToTap() throws {
        let results = try Self.run([
            SuiteText.chips("asks", expect: #"{"fires": true, "fallback": "none", "input_cut": false, "parses": true}"#),
            SuiteText.chips("choose", screen: #"[{"say": "How was it?"}, {"choose": {"options": ["a", "b"]}}]"#,
                            expect: #"{"fires": false, "fallback": "none"}"#),
            SuiteText.chips("statement", screen: #"[{"say": "Good run."}]"#, expect: #"{"fires": false}"#),
            SuiteText.chips("japanese", screen: #"[{"say": "よく眠れましたか？"}]"#, lang: "ja", expect: #"{"fires": true}"#),
            SuiteText.chips("finnish", screen: #"[{"say": "Miten meni?"}]"#, lang: "fi",
                            expect: #"{"fires": true, "fallback": "unsupported_language", "input_cut": false, "parses": true}"#),
            // Wrong on purpose: each names what it found.
            SuiteText.chips("wrong", must: false, screen: #"[{"say": "Good run."}]"#, expect: #"{"fires": true, "parses": true}"#),
        ])
        #expect(results.prefix(4).allSatisfy { $0.passed })
        #expect(Self.verdicts(results[4]) == ["fires": "pass", "fallback": "pass", "input_cut": "no_input", "parses": "not_asked"])
        #expect(Self.verdicts(results[5]) == ["fires": "differs", "parses": "not_eligible"])
        #expect(results[5].expectations[0].observed == .bool(false))
        #expect(results.allSatisfy { $0.expectations.filter { [.fires, .fallback, .inputCut, .parses].contains($0.name) }.allSatisfy { $0.deterministic } })
    }

    /// The cuts count the phone's tokens (the built-in estimate: 3.5 Latin characters a token),
    /// whatever the model's own tokenizer says.
    @Test func theCutsAreTheJobsOwn() throws {
        let long = SuiteText.repeated("easy miles", 280)   // 3,079 characters: 881 phone tokens
        let results = try Self.run([
            SuiteText.chips("chips-cut", screen: #"[{"say": "\#(long) How was it?"}]"#,
                            expect: #"{"input_cut": true, "input_tokens_at_most": 600}"#),
            // 2,003 characters: 573 tokens.
            SuiteText.chips("chips-whole", screen: #"[{"say": "\#(SuiteText.repeated("easy", 400)) ok?"}]"#,
                            expect: #"{"input_cut": false, "input_tokens_at_most": 600}"#),
            SuiteText.push("push-cut", replies: #"[[{"say": "\#(long) \#(long)"}]]"#, expect: #"{"input_cut": true, "input_tokens_at_most": 1000}"#),
            SuiteText.push("push-whole", replies: #"[[{"say": "\#(long)"}]]"#, expect: #"{"input_cut": false, "input_tokens_at_most": 880}"#),
        ])
        #expect(results.prefix(3).allSatisfy { $0.passed })
        #expect(Self.verdicts(results[3]) == ["input_cut": "pass", "input_tokens_at_most": "differs"])
        #expect(results[3].expectations[1].observed == .int(881))
        #expect(results[0].expectations[1].observed == .int(600))
    }

    @Test func aBatchedPushReadsTheNewestThree() throws {
        // Replies of 1, 2, 3, 4 and 5 words: the count read shows in the input's size.
        let replies = "[" + (1...5).map { #"[{"say": "\#(SuiteText.repeated("mile", $0))"}]"# }.joined(separator: ", ") + "]"
        let results = try Self.run([
            // The newest three, joined: 61 characters, 18 phone tokens.
            SuiteText.push("five", batch: 5, replies: replies, expect: #"{"reads_newest": 3, "input_tokens_at_most": 18}"#),
            SuiteText.push("two", batch: 2, replies: replies, expect: #"{"reads_newest": 2}"#),
            SuiteText.push("one", batch: 1, replies: replies, expect: #"{"reads_newest": 1}"#),
            SuiteText.push("wrong", must: false, batch: 5, replies: replies, expect: #"{"reads_newest": 5}"#),
            SuiteText.push("handoff", kind: "handoff", expect: #"{"fires": false, "fallback": "relay_line_kept"}"#),
            SuiteText.push("quote", kind: "quote", expect: #"{"fires": false, "fallback": "relay_line_kept"}"#),
            SuiteText.push("picture", replies: #"[[{"picture": {"url": "u"}}]]"#, expect: #"{"fires": false, "fallback": "no_words"}"#),
        ])
        #expect(results.filter { $0.id != "wrong" }.allSatisfy { $0.passed })
        let wrong = try #require(results.first { $0.id == "wrong" })
        #expect(Self.verdicts(wrong) == ["reads_newest": "differs"])
        #expect(wrong.expectations[0].observed == .int(3))
    }

    @Test func anAtNameWinsBeforeTheLanguageAndTheModel() throws {
        let model = ScriptedLanguageModel.valid()
        let results = try Self.run([
            SuiteText.route("named", message: "@Sage help", expect: #"{"named_route": true, "fires": false, "fallback": "named"}"#),
            SuiteText.route("named-fi", message: "@sage auta", lang: "fi", expect: #"{"named_route": true, "fallback": "named"}"#),
            SuiteText.route("email", message: "mail sage@sage.example", expect: #"{"named_route": false, "fires": true, "parses": true}"#),
            SuiteText.route("finnish", message: "auta", lang: "fi", expect: #"{"fires": true, "fallback": "unsupported_language"}"#),
            SuiteText.route("context", message: SuiteText.repeated("word", 5000), expect: #"{"fires": true, "fallback": "context_exceeded"}"#),
        ], model: model)
        #expect(results.allSatisfy { $0.passed })
        #expect(model.asked == 1, "only the e-mail case is asked")
    }

    /// Given outputs go through the job's checks, never the model, and are deterministic.
    @Test func givenOutputsAreJudgedWithoutTheModel() throws {
        let model = ScriptedLanguageModel.valid()
        let results = try Self.run([
            SuiteText.route("tie", message: "I cannot sleep", expect: #"{"parses": true, "accepted": true, "route_to": "lead"}"#,
                            given: #"{"output": "{\"to\":\"Sage\"}", "confidence": 0.4}"#),
            SuiteText.route("sure", message: "I cannot sleep", expect: #"{"route_to": "Sage"}"#,
                            given: #"{"output": "{\"to\":\"Sage\"}", "confidence": 0.9}"#),
            SuiteText.route("outsider", message: "who?", expect: #"{"parses": false, "accepted": false, "route_to": "lead"}"#,
                            given: #"{"output": "{\"to\":\"Bob\"}"}"#),
            SuiteText.draft("timer", message: "timer please", expect: #"{"parses": true, "accepted": true, "draft_kind": "timer", "no_draft": false}"#,
                            given: #"{"output": "{\"kind\":\"timer\",\"label\":\"Ice\",\"minutes\":20}"}"#),
            SuiteText.draft("zero", message: "timer please", expect: #"{"parses": false, "accepted": false}"#,
                            given: #"{"output": "{\"kind\":\"timer\",\"label\":\"Ice\",\"minutes\":0}"}"#),
            SuiteText.draft("blank", message: "note: x", expect: #"{"parses": true, "accepted": false, "draft_kind": "card"}"#,
                            given: #"{"output": "{\"kind\":\"card\",\"title\":\" \",\"body\":\"b\"}"}"#),
            SuiteText.push("greeting", expect: #"{"parses": true, "accepted": false}"#, given: #"{"output": "{\"line\":\"Hello! Weight down.\"}"}"#),
            SuiteText.chips("two", expect: #"{"chips_count_range": [2, 2], "accepted": true}"#,
                            given: #"{"output": "{\"replies\":[\"Good\",\"Sore\"]}"}"#),
        ], model: model)
        #expect(model.asked == 0)
        #expect(results.allSatisfy { $0.givenOutput && $0.expectations.allSatisfy { $0.deterministic } })
        // A blank card fails its checks, so there is no answer whose kind could be judged.
        let blank = try #require(results.first { $0.id == "blank" })
        #expect(Self.verdicts(blank) == ["parses": "pass", "accepted": "pass", "draft_kind": "no_answer"])
        #expect(results.filter { $0.id != "blank" }.allSatisfy { $0.passed })
    }

    /// Model-dependent expectations judge the model's answer; a model that writes nothing valid
    /// leaves deterministic ones as they were.
    @Test func modelDependentExpectationsJudgeTheAnswer() throws {
        let cases = [
            SuiteText.route("to-sage", must: false, message: "I cannot sleep", expect: #"{"route_to": "Sage", "parses": true}"#),
            SuiteText.draft("no-draft", must: false, message: "is this safe?", expect: #"{"no_draft": true, "no_violations": true}"#),
            SuiteText.chips("count", must: false, expect: #"{"chips_count_range": [2, 3], "in_budget": true}"#),
        ]
        let valid = try Self.run(cases)   // the lead, a card, two chips
        #expect(Self.verdicts(valid[0]) == ["route_to": "differs", "parses": "pass"])
        #expect(Self.verdicts(valid[1]) == ["no_draft": "differs", "no_violations": "pass"])
        #expect(valid[1].expectations[0].observed == .word("card"))
        #expect(Self.verdicts(valid[2]) == ["chips_count_range": "pass", "in_budget": "pass"])
        #expect(!valid[0].expectations[0].deterministic && valid[0].expectations[1].deterministic)
        #expect(valid[0].expectations[0].observed == nil, "who a route goes to is the model's choice: not shown")

        let broken = try Self.run(cases, model: ScriptedLanguageModel(output: { _ in "not json" }))
        #expect(Self.verdicts(broken[0]) == ["route_to": "differs", "parses": "differs"])   // no answer: the lead
        #expect(Self.verdicts(broken[1]) == ["no_draft": "no_answer", "no_violations": "pass"])
        #expect(Self.verdicts(broken[2]) == ["chips_count_range": "no_answer", "in_budget": "differs"])
    }

    @Test func casesForOtherModelVersionsAreSkipped() throws {
        let cases = [#"{"id": "v27", "job": "draft", "must": true, "model_versions": ["27.0"], "input": {"message": "list"}, "expect": {"fires": true}}"#]
        #expect(try Self.run(cases).map(\.skipped) == [true])
        #expect(try Self.run(cases, modelVersion: "26.4").map(\.skipped) == [true])
        #expect(try Self.run(cases, modelVersion: "27.0").map(\.passed) == [true])
    }

    @Test func aCaseRunsOncePerLanguage() throws {
        let cases = [#"{"id": "langs", "job": "draft", "must": true, "languages": ["en", "ja", "pl"], "input": {"message": "list"}, "expect": {"fallback": "none"}}"#]
        let results = try Self.run(cases)
        #expect(results.map(\.name) == ["langs:en", "langs:ja", "langs:pl"])
        #expect(results.map(\.passed) == [true, true, false])
        #expect(results[2].expectations[0].observed == .word("unsupported_language"))
    }

    /// Every must case of the bundled suite holds with any model that answers in shape: they
    /// are the app's rules, not the model's words.
    @Test func theBundledSuitesMustCasesHoldWithAScriptedModel() throws {
        let suite = try SuiteCommand.read(SuiteText.bundledPath)
        let results = SuiteRunner(suite: suite, model: ScriptedLanguageModel.valid()).run()
        let failed = results.filter { $0.must && $0.failed }.map { "\($0.name): \(Self.verdicts($0))" }
        #expect(failed.isEmpty, "\(failed)")
        #expect(results.contains { $0.skipped }, "the bundled suite's case for 26.4 and 27.0 is skipped without --model-version")
    }
}
