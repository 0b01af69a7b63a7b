import Privacy
import Engine
import Export
import Testing
import TestSupport
@testable import Jobs

/// Routing, push lines and drafts against the real default model: the output parses and keeps
/// its guides. Shares the chips tests' engine; one short request per job.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct RealModelJobsTests {
    /// Asks the model about every item and judges each answer.
    static func run(_ job: some Job, on snapshot: ThreadSnapshot) throws -> [(JobItem, GenerationOutcome, ItemResult)] {
        let engine = try RealModelChipsTests.engine.get()
        var ledger = JobLedger()
        let items = job.plan(snapshot, tokenizer: engine, ledger: &ledger)
        let outcomes = engine.respond(to: items.map { $0.request! })
        return zip(items, outcomes).map { ($0, $1, job.evaluate($0, outcome: $1, device: .iPhone15Pro)) }
    }

    @Test func routeNamesAMemberOrTheLead() throws {
        let snapshot = Threads.group([Threads.groupPerson("m1", "I keep waking up at 3am and can't get back to sleep", to: "Sage")])
        let results = try Self.run(RouteJob(contextLimit: 2048), on: snapshot)
        try #require(results.count == 1)
        let (_, outcome, result) = results[0]
        let route = try Route(output: outcome.output.get(), members: ["Coach", "Sage", "Penny"])
        #expect(route.map { route in ["Coach", "Sage", "Penny", "lead"].contains { route.chose($0) } } == true)
        #expect(outcome.choiceProbability >= 0.25 && outcome.choiceProbability <= 1)   // the likeliest of 4
        #expect(result.asked && result.fallback != .invalidOutput && result.quality["accuracy"] != nil)
    }

    @Test func pushLineIsOneLineWithinItsGuides() throws {
        let snapshot = Threads.coachThread([
            MessageRecord(thread: "t1", id: "m1", from: .agent("Coach"),
                          screen: Screen(nodes: [.stat(label: SealedText("Weight"), value: SealedText("-2.3"), unit: SealedText("lb")),
                                                 .say(SealedText("Nice week. Rest day or a light 3k tomorrow?"))]),
                          push: PushInfo(kind: "reply")),
        ])
        let results = try Self.run(PushJob(contextLimit: 2048, maxOutputTokens: 64), on: snapshot)
        try #require(results.count == 1)
        let (_, outcome, result) = results[0]
        let text = try outcome.output.get()
        // The schema holds whatever the checks after generation say about greetings.
        #expect((try? ContentDecoder.decode(text, as: PushLine.schema))?["line"]?.stringValue.map { line in
            line.withUnsealedText { (1...90).contains($0.count) && !$0.contains("\n") }
        } == true)
        #expect(result.asked && result.quality["well_formed"] != nil)
    }

    @Test func draftIsOneOfTheKindsWithinItsGuides() throws {
        let snapshot = Threads.coachThread([Threads.offline("m1", "set a 20 minute timer for the ice pack")])
        let results = try Self.run(DraftJob(contextLimit: 2048, maxOutputTokens: 96), on: snapshot)
        try #require(results.count == 1)
        let (_, outcome, result) = results[0]
        let draft = try Draft.check(output: outcome.output.get())
        let withinGuides: Bool = switch draft {
        case .success(.checklist(let title, let items)):
            title.characterCount <= 40 && (1...8).contains(items.count) && items.allSatisfy { $0.characterCount <= 60 }
        case .success(.timer(let label, let minutes)): label.characterCount <= 40 && (1...180).contains(minutes)
        case .success(.card(let title, let body)): title.characterCount <= 40 && body.characterCount <= 200
        case .success(.none): true
        case .failure(let rejection): rejection == .blank   // the grammar rules out the schema's failures
        }
        #expect(withinGuides)
        #expect(result.asked && result.quality["kind_agrees"] != nil)
    }
}
