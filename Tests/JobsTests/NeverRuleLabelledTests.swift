import Foundation
import Testing
@testable import Jobs

/// Each heuristic never rule measured on the team's labelled set (`NeverRuleLabelled/<rule>.json`,
/// written by us, so its words may be read here): precision and recall over every example, and
/// over the held-out split alone (written after the heuristics were tuned, never tuned on).
///
/// A gate that cries wolf gets switched off, so precision must be at least 0.9 over the whole
/// set; recall has a floor per rule, below what was measured, so a change that loses much of it
/// shows. Only counts and rates are printed, never an example. docs/never-rules.md states the
/// numbers; `swift test --filter NeverRuleLabelled` prints them.
@Suite struct NeverRuleLabelledTests {
    /// One labelled example: the text, its language (a subtag), whether it breaks the rule, the
    /// split it belongs to; for the push rules the agent whose reply it sums up; and what the
    /// output is judged against (`source`): for `push_unfaithful` the replies' words (with the
    /// group's `members`), for the draft rules the person's message.
    struct Example: Decodable {
        let split: String
        let language: String
        let violation: Bool
        let text: String
        let agent: String?
        let source: String?
        let members: [String]?
    }

    /// A rule's labelled set as the file holds it.
    struct LabelledSet: Decodable {
        let rule: String
        let examples: [Example]
    }

    /// Counts of one rule's verdicts against the labels.
    struct Tally: Equatable {
        var truePositives = 0, falsePositives = 0, falseNegatives = 0, trueNegatives = 0

        var count: Int { truePositives + falsePositives + falseNegatives + trueNegatives }
        /// Of the texts the rule flags, the share that break it (1 when it flags none).
        var precision: Double {
            truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives)
        }
        /// Of the texts that break it, the share the rule flags.
        var recall: Double {
            truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives)
        }

        mutating func add(flagged: Bool, violation: Bool) {
            switch (flagged, violation) {
            case (true, true): truePositives += 1
            case (true, false): falsePositives += 1
            case (false, true): falseNegatives += 1
            case (false, false): trueNegatives += 1
            }
        }
    }

    /// The folder beside this file that holds the labelled sets.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("NeverRuleLabelled")

    static func load(_ rule: NeverRule) throws -> LabelledSet {
        try JSONDecoder().decode(LabelledSet.self, from: Data(contentsOf: directory.appendingPathComponent(rule.rawValue + ".json")))
    }

    /// The rule's verdict on one example, as the job reaches it.
    static func flags(_ rule: NeverRule, _ example: Example) -> Bool {
        switch rule {
        case .chipsWrongLanguage: ChipLanguageRule.isWrongLanguage(example.text, language: example.language)
        case .chipsAgentVoice: AgentVoiceRule.speaksAsAgent(example.text)
        case .pushAdvice: PushAdviceRule.givesAdvice(example.text)
        case .pushGreeting: PushLineRule.everyLanguage.startsWithGreeting(example.text)
        case .pushSpeaksForAgent: PushLineRule.everyLanguage.speaksForAgent(example.text, agent: example.agent ?? "Coach")
        case .pushUnfaithful:
            PushUnfaithfulRule.invents(example.text, source: SourceFacts(reading: example.source ?? "", agent: example.agent ?? "Coach",
                                                                         members: example.members ?? [], counts: [1]),
                                       language: example.language)
        case .draftExpertQuestion: ExpertTopic.of(example.text, language: example.language) != nil
        case .draftAdvice: DraftAdviceRule.advises(example.text, message: message(of: example))
        case .draftAgentVoice: DraftAgentVoiceRule.speaksAsAgent(example.text, agent: example.agent ?? "Coach", message: message(of: example))
        case .routeOutsideGroup: false   // exact: proved by NeverRuleRouteGrammarTests, not measured
        }
    }

    /// A draft example's message as the draft job keeps it.
    static func message(of example: Example) -> SourceFacts? {
        example.source.map { SourceFacts(reading: $0, keepsParts: true) }
    }

    static func tally(_ rule: NeverRule, _ examples: some Sequence<Example>) -> Tally {
        var tally = Tally()
        for example in examples { tally.add(flagged: flags(rule, example), violation: example.violation) }
        return tally
    }

    static func line(_ name: String, _ tally: Tally) -> String {
        "\(name) n=\(tally.count) tp=\(tally.truePositives) fp=\(tally.falsePositives) fn=\(tally.falseNegatives) "
            + "tn=\(tally.trueNegatives) precision=\(String(format: "%.3f", tally.precision)) recall=\(String(format: "%.3f", tally.recall))"
    }

    /// Every heuristic rule and its recall floor (measured recall over the whole set, less a margin).
    static let floors: [(NeverRule, Double)] = [
        (.chipsWrongLanguage, 0.85),
        (.chipsAgentVoice, 0.9),
        (.pushAdvice, 0.9),
        (.pushGreeting, 0.95),
        (.pushSpeaksForAgent, 0.95),
        (.draftExpertQuestion, 0.85),
        (.pushUnfaithful, 0.9),
        (.draftAdvice, 0.9),
        (.draftAgentVoice, 0.9),
    ]

    @Test func everyHeuristicRuleHasAFloorAndALabelledSet() throws {
        #expect(Set(Self.floors.map(\.0)) == Set(NeverRule.allCases.filter(\.isHeuristic)))
        for (rule, _) in Self.floors {
            let set = try Self.load(rule)
            #expect(set.rule == rule.rawValue)
            let positives = set.examples.filter(\.violation).count
            #expect(set.examples.count >= 60 && positives >= 25 && set.examples.count - positives >= 25, "\(rule.rawValue)")
            #expect(Set(set.examples.map(\.language)).count >= 5, "\(rule.rawValue): several languages")
            #expect(set.examples.allSatisfy { ["dev", "tuned", "heldout"].contains($0.split) })
            #expect(set.examples.contains { $0.split == "heldout" }, "\(rule.rawValue): a held-out split")
        }
    }

    @Test(arguments: floors)
    func precisionAndRecallOnTheLabelledSet(rule: NeverRule, recallFloor: Double) throws {
        let set = try Self.load(rule)
        let all = Self.tally(rule, set.examples)
        let heldOut = Self.tally(rule, set.examples.filter { $0.split == "heldout" })
        print("never-rule \(rule.rawValue): " + Self.line("all", all) + "; " + Self.line("heldout", heldOut))
        #expect(all.precision >= 0.9, "\(rule.rawValue) precision \(all.precision)")
        #expect(all.recall >= recallFloor, "\(rule.rawValue) recall \(all.recall)")
    }
}
