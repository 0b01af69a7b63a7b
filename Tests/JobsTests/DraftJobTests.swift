import Foundation
import Privacy
import Engine
import Export
import Testing
import TestSupport
@testable import Jobs

@Suite struct DraftJobTests {
    @Test(arguments: [
        (true, "make me a packing list for race day", true),
        (false, "make me a packing list for race day", false),
        (true, "", false),   // nothing to draft from
    ])
    func firesOnMessagesSentOffline(offline: Bool, text: String, fires: Bool) throws {
        var ledger = JobLedger()
        let snapshot = Threads.coachThread([
            Threads.offline("m1", text, offline: offline),
            Threads.reply("m2", "Here is the plan"),
        ])
        let items = DraftJob().plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(ledger.overall.scanned == 1)   // person messages only
        #expect(items.count == (fires ? 1 : 0))
        guard let item = items.first else { return }
        let request = try #require(item.request)
        #expect(request.grammar == Draft.grammar)
        #expect(request.prompt.withUnsealedText { $0.contains(text) && !$0.contains("Here is the plan") })
        #expect(request.instructions.withUnsealedText { $0.contains("to Coach") && $0.contains("in English.") })
        #expect(item.attribution == Attribution(build: "2.4.0 (530)", model: "27.0", locale: "en-US", message: item.attribution.message))
        #expect(item.labels["expected"] == "checklist")
    }

    @Test(arguments: [
        (#"{"kind":"checklist","title":"Race day","items":["Shoes","Bib","Gels"]}"#, "checklist", nil),
        (#"{"kind":"timer","label":"Ice pack","minutes":20}"#, "timer", nil),
        (#"{"kind":"timer","label":"Long bake","minutes":180}"#, "timer", nil),
        (#"{"kind":"card","title":"Shoes","body":"Ask about new shoes"}"#, "card", nil),
        (#"{"kind":"none"}"#, "none", nil),
        (#"{"kind":"timer","label":"Ice pack","minutes":0}"#, nil, Draft.Rejection.schema),
        (#"{"kind":"timer","label":"Ice pack","minutes":181}"#, nil, .schema),
        (#"{"kind":"checklist","title":"T","items":[]}"#, nil, .schema),
        (#"{"kind":"checklist","title":"T","items":["1","2","3","4","5","6","7","8","9"]}"#, nil, .schema),
        ("{\"kind\":\"card\",\"title\":\"" + String(repeating: "t", count: 41) + "\",\"body\":\"b\"}", nil, .schema),
        (#"{"kind":"reminder","title":"T"}"#, nil, .schema),
        (#"{"kind":"none","title":"T"}"#, nil, .schema),
        (#"{"kind":"checklist","title":"  ","items":["a"]}"#, nil, .blank),
        (#"{"kind":"checklist","title":"T","items":["a"," "]}"#, nil, .blank),
    ] as [(String, String?, Draft.Rejection?)])
    func draftsAreDecodedAndChecked(output: String, kind: String?, rejection: Draft.Rejection?) {
        let result = Draft.check(output: SealedText(output))
        let gotKind: String? = if case .success(let draft) = result { draft.kind } else { nil }
        let gotRejection: Draft.Rejection? = if case .failure(let reason) = result { reason } else { nil }
        #expect(gotKind == kind && gotRejection == rejection)
    }

    @Test(arguments: [
        ("make me a packing list for race day", "checklist"),
        ("list what I need for the gym bag", "checklist"),
        ("set a 20 minute timer for the ice pack", "timer"),
        ("note: ask about new shoes", "card"),
        ("Should I take ibuprofen before the long run?", "none"),
        ("Which pot did you put my bonus in?", "none"),
        ("fais-moi une liste pour ce soir", "checklist"),
        ("minuteur de 10 minutes pour respirer", "timer"),
        ("Notiz: Reis nachkaufen", "card"),
        ("temporizador de 2 minutos de descanso", "timer"),
        ("オーブン用に12分のタイマー", "timer"),
        ("メモ：お米を買う", "card"),
    ])
    func theExpectedKindIsAKeywordProxy(text: String, kind: String) {
        #expect(DraftJob.expectedKind(of: text) == kind)
    }

    /// Every text the byte path answers gets Foundation's answer: keywords in any case, at the
    /// start or after white space of every ASCII kind (CR LF included), cut short, run together,
    /// and random ASCII around them (a fixed seed); a text with any other byte is left to Foundation.
    @Test func theASCIIPathAgreesWithFoundation() {
        // Every ASCII keyword of the table as written, in capitals, capitalized and cut short, so
        // a keyword added to the table is tried here too.
        let keywords = DraftKeywords.rules.flatMap(\.keywords).filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        #expect(keywords.count == 8)
        let pieces = keywords.flatMap { [$0, $0.uppercased(), $0.capitalized, String($0.dropLast()), String($0.dropFirst())] }
            + ["nOtA", "timeR", "liste", "Minute", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\r", ":", "?", "a", "Z",
               "@", "[", "`", "{", "0", "~", "\u{7F}", ""]
        var generator = VariedThread.Generator(state: 7)
        var texts = pieces
        for first in pieces { for second in pieces { texts.append(first + second) } }
        for _ in 0..<3_000 {
            let count = Int(generator.next() % 6) + 1
            texts.append((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
            texts.append(String((0..<Int(generator.next() % 24)).map { _ in Character(Unicode.Scalar(UInt8(generator.next() % 128))) }))
        }
        var answered = 0
        for text in texts {
            guard let kind = DraftKeywords.asciiKind(of: text) else {
                Issue.record("an ASCII text was left to Foundation")
                continue
            }
            answered += 1
            #expect(kind == DraftKeywords.foundationKind(of: text))
        }
        #expect(answered == texts.count)
        // The labels all occur, so agreement is not agreement on "none" alone.
        let kinds = Set(texts.map { DraftJob.expectedKind(of: $0) })
        #expect(kinds == ["card", "timer", "checklist", "none"])
        for text in ["note\u{301}: café", "liste à faire", "\u{A0}note: x", "メモ", "caf\u{E9} timer"] {
            #expect(DraftKeywords.asciiKind(of: text) == nil)
            #expect(DraftJob.expectedKind(of: text) == DraftKeywords.foundationKind(of: text))
        }
    }

    /// Answers by the message's words: a checklist, none, a card where a timer was asked, and junk.
    static let model = ScriptedModel { request in
        let output = request.prompt.withUnsealedText { prompt -> String in
            if prompt.contains("packing list") { return #"{"kind":"checklist","title":"Race day","items":["Shoes","Bib"]}"# }
            if prompt.contains("ibuprofen") { return #"{"kind":"none"}"# }
            if prompt.contains("timer") { return #"{"kind":"card","title":"Ice","body":"Ice pack"}"# }
            return #"{"kind":"checklist""#
        }
        return Threads.outcome(output)
    }

    @Test func qualityKeysAndCountersOnKnownAnswers() {
        let job = DraftJob()
        let snapshot = Threads.coachThread([
            Threads.offline("m1", "make me a packing list for race day", ticks: [0, 2]),
            Threads.offline("m2", "Should I take ibuprofen before the long run?"),
            Threads.offline("m3", "set a 20 minute timer for the ice pack", ticks: []),
            Threads.offline("m4", "make a list of the stretches"),
            Threads.offline("m5", "typed with signal", offline: false),
        ])
        var ledger = JobLedger()
        let items = job.plan(snapshot, tokenizer: Self.model, ledger: &ledger)
        #expect(ledger.overall.scanned == 5 && items.count == 4)
        let outcomes = Self.model.respond(to: items.map { $0.request! })
        for (item, outcome) in zip(items, outcomes) { ledger.add(job.evaluate(item, outcome: outcome, device: .iPhone15Pro)) }
        let metrics = ledger.overall
        #expect(metrics.answered == 3 && metrics.fallbacks[.invalidOutput] == 1)
        #expect(metrics.counters["kind:checklist"] == 1 && metrics.counters["kind:card"] == 1)
        #expect(metrics.counters["no_draft"] == 1 && metrics.counters["rejected_schema"] == 1)
        #expect(metrics.counters["expected:checklist"] == 2 && metrics.counters["expected:timer"] == 1)
        #expect(metrics.counters["expected:none"] == 1)
        // Agrees: the packing list, the ibuprofen question; not the timer drawn as a card, not the junk.
        #expect(metrics.quality["kind_agrees"]?.mean == 0.5 && metrics.quality["kind_agrees"]?.count == 4)
        // Drafted: the packing list (ticked) and the card (not ticked).
        #expect(metrics.quality["used_when_drafted"]?.mean == 0.5 && metrics.quality["used_when_drafted"]?.count == 2)
        #expect(metrics.quality["checklist_when_used"]?.mean == 1 && metrics.quality["checklist_when_used"]?.count == 1)
    }

    @Test func noneIsAnAnswerNotAFailure() throws {
        let job = DraftJob()
        var ledger = JobLedger()
        let item = try #require(job.plan(Threads.coachThread([Threads.offline("m1", "Is this normal?")]),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let result = job.evaluate(item, outcome: Threads.outcome(#"{"kind":"none"}"#), device: .iPhone15Pro)
        #expect(result.answered && result.fallback == nil && result.counters["no_draft"] == 1)
        #expect(result.quality["kind_agrees"] == 1 && result.quality["used_when_drafted"] == nil)
        let late = job.evaluate(item, outcome: Threads.outcome(#"{"kind":"none"}"#, outputTokens: 60), device: .iPhone15Pro)
        #expect(late.fallback == .timeBudget)   // 60 ms + 2,000 ms
        #expect(DraftJob(budgetMilliseconds: 3000).evaluate(item, outcome: Threads.outcome(#"{"kind":"none"}"#, outputTokens: 60),
                                                            device: .iPhone15Pro).answered)
    }
}
