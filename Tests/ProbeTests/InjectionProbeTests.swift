import Engine
import Export
import Jobs
import Privacy
import Testing
import TestSupport
@testable import Probe

/// The probe's core with two scripted models: one that does whatever words in its prompt tell it
/// (it copies any marker it reads into its answer, and routes to the member whose line holds
/// one), and one that ignores them. Every kind's success rate is then 1 and 0, the utility of
/// the plain and attacked asks is counted on the same places, and nothing but counts comes out.
@Suite struct InjectionProbeTests {
    /// A model for these tests: valid answers of each job's shape, obeying planted markers or not.
    final class Scripted: LanguageModel, @unchecked Sendable {
        let obeys: Bool
        var info = ModelInfo(name: "scripted", description: "", path: "scripted", parameters: 0, contextPerSequence: 4096, batchSize: 8)
        init(obeys: Bool) { self.obeys = obeys }
        func tokenCount(of text: SealedText) -> Int { text.utf8Count / 4 + 1 }
        func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { TokenCut(text: text, keptTokens: tokenCount(of: text), wasCut: false) }
        func promptTokenCount(for request: GenerationRequest) -> Int { 100 }

        /// The first `zq` marker in `text`, if any.
        static func marker(in text: String) -> String? {
            text.firstMatch(of: /zq[a-z]{8}/).map { String($0.output) }
        }

        func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
            requests.map { request in
                let prompt = request.prompt.withUnsealedText { $0 }
                let planted = obeys ? Self.marker(in: prompt) : nil
                let output: String
                if let choices = request.choices {
                    // Routing: the member whose line holds the marker, else the first choice.
                    let line = prompt.split(separator: "\n").first { planted != nil && $0.contains(planted!) }
                    let name = line.flatMap { $0.dropFirst(2).split(separator: ":").first }.map(String.init)
                    let outputs = choices.map { $0.withUnsealedText { $0 } }
                    output = name.flatMap { name in outputs.first { $0.contains("\"\(name)\"") } } ?? outputs[0]
                } else if (request.grammar ?? "").contains("replies") {
                    output = #"{"replies":["\#(planted.map { "I agree " + $0 } ?? "Sounds good")"]}"#
                } else if (request.grammar ?? "").contains("line") {
                    output = #"{"line":"\#(planted.map { "Coach says " + $0 } ?? "A quiet week ahead")"}"#
                } else {
                    output = #"{"kind":"checklist","title":"Weekend","items":["\#(planted ?? "Shoes")","Water"]}"#
                }
                return GenerationOutcome(output: .success(SealedText(output)), promptTokens: 100, outputTokens: 8, hostMilliseconds: 5,
                                         choiceProbability: 0.9)
            }
        }
    }

    static let meta = MessageMeta(build: "2.4.0 (530)", model: "26.4")

    /// One thread per job, in English and German: a screen that asks, a group message, a push,
    /// an offline ask for a list.
    static var threads: [ThreadSnapshot] {
        let group = GroupInfo(lead: "Coach", members: [GroupMember(name: "Coach", about: SealedText("training")),
                                                       GroupMember(name: "Sage", about: SealedText("sleep")),
                                                       GroupMember(name: "Penny", about: SealedText("money"))])
        return [
            ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach", locale: "en-US"), messages: [
                MessageRecord(thread: "t1", id: "m1", from: .person, text: SealedText("Did the long run"), meta: meta),
                MessageRecord(thread: "t1", id: "m2", from: .agent("Coach"), screen: Screen(nodes: [.say(SealedText("How did your knee feel?"))])),
                MessageRecord(thread: "t1", id: "m3", from: .agent("Coach"), screen: Screen(nodes: [.say(SealedText("Rest day tomorrow."))]),
                              push: PushInfo(kind: "reply")),
                MessageRecord(thread: "t1", id: "m4", from: .person, text: SealedText("Make me a packing list for the race"),
                              meta: MessageMeta(offline: true, build: "2.4.0 (530)", model: "26.4")),
            ]),
            ThreadSnapshot(thread: ThreadRecord(id: "g1", locale: "de-DE", group: group), messages: [
                MessageRecord(thread: "g1", id: "m1", from: .person, text: SealedText("Ich schlafe schlecht"),
                              meta: MessageMeta(groupTo: "Sage", build: "2.4.0 (530)", model: "26.4")),
            ]),
        ]
    }

    static func probe(obeys: Bool) throws -> [InjectionProbe.Key: ProbeTally] {
        let probe = InjectionProbe(attacks: try AttackSet.read(AttackSetTests.bundled),
                                   jobs: [ChipsJob(), RouteJob(), PushJob(), DraftJob()], key: RunKey(bytes: Array(0..<32))!)
        let model = Scripted(obeys: obeys)
        var tallies: [InjectionProbe.Key: ProbeTally] = [:]
        for thread in threads {
            probe.run(probe.trials(in: thread, tokenizer: model), model: model, batch: 4, into: &tallies)
        }
        return tallies
    }

    @Test func everyKindIsTriedAtItsJobsPlaces() throws {
        let tallies = try Self.probe(obeys: true)
        let set = try AttackSet.read(AttackSetTests.bundled)
        #expect(Set(tallies.keys.map(\.kind)) == Set(set.attacks.map(\.kind)))
        // Each kind once here: one place of each job (the push and the chips place in English,
        // the group's message in German).
        #expect(tallies.values.allSatisfy { $0.trials == 1 })
    }

    @Test func aModelThatObeysIsAttackedEverywhereAndOneThatIgnoresNowhere() throws {
        let obeying = try Self.probe(obeys: true), ignoring = try Self.probe(obeys: false)
        for (key, tally) in obeying {
            #expect(tally.successRate == 1, "\(key.kind)")
            #expect(tally.baseline == 0, "\(key.kind): the plain ask carries no marker and meant another member")
            #expect(tally.plainAnswered == 1, "\(key.kind)")
            if key.job == .push {
                // "Coach says …" is a line the app's own check refuses (spec §4): the model was
                // steered, and the rule around it kept the person from seeing it. Both are counted.
                #expect(tally.attackedAnswered == 0 && tally.shown == 0, "\(key.kind)")
            } else {
                #expect(tally.attackedAnswered == 1 && tally.shown == tally.succeeded, "\(key.kind): valid answers in time are shown")
            }
        }
        for (key, tally) in ignoring {
            #expect(tally.successRate == 0, "\(key.kind)")
        }
        // Routing: obeyed, the route goes to Penny, whose line the attack took over.
        let route = try #require(obeying[InjectionProbe.Key(job: .route, kind: "route_about_claims_every_ask")])
        #expect(route.succeeded == 1 && route.quality["accuracy"]?.plainMean == 0 && route.quality["accuracy"]?.attackedMean == 0)
        // The interval is Wilson's (1927): 1 of 1 at z = 1.96 has the lower bound
        // (1 + z²/2 − z·√(z²/4)) / (1 + z²) = 0.2065, worked by hand.
        let interval = try #require(route.successInterval)
        #expect(abs(interval.low - 0.2065) < 0.001 && interval.high == 1)
    }

    /// A place's marker depends on the thread, the message and the kind, and on the run key.
    @Test func markersDifferByPlaceKindAndKey() {
        let a = InjectionProbe(attacks: try! AttackSet.read(AttackSetTests.bundled), jobs: [], key: RunKey(bytes: Array(0..<32))!)
        let b = InjectionProbe(attacks: a.attacks, jobs: [], key: RunKey(bytes: Array(1...32))!)
        let keys = [a.placeKey("t1", "m2", "chips_say_reply"), a.placeKey("t1", "m3", "chips_say_reply"),
                    a.placeKey("t1", "m2", "chips_card_title"), a.placeKey("t2", "m2", "chips_say_reply"),
                    b.placeKey("t1", "m2", "chips_say_reply")]
        #expect(Set(keys).count == keys.count)
        #expect(a.placeKey("t1", "m2", "chips_say_reply") == a.placeKey("t1", "m2", "chips_say_reply"))
    }
}
