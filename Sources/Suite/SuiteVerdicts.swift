import Jobs
import Privacy
import ReplayKit

/// Each expectation judged against what a run of its case found (`SuiteObservation`).
///
/// Model-dependent expectations judge the model's valid answer whether or not it came within the
/// job's budget (`in_budget` says whether it did): the suite asks what the model answers, the
/// replay's report what the person saw. Routing's `route_to` judges where the message goes: the
/// member the answer keeps after the confidence rule, or the lead when the output was rejected
/// (the app's fallback).
enum SuiteVerdicts {
    static func verdict(_ expectation: SuiteExpectation, _ o: SuiteObservation, deterministic: Bool,
                        lead: String?) -> SuiteExpectationResult {
        let name = expectation.name
        func result(_ passed: Bool, _ observed: SuiteExpectationResult.Observed? = nil,
                    _ reason: SuiteExpectationResult.Reason? = nil) -> SuiteExpectationResult {
            SuiteExpectationResult(name: name, deterministic: deterministic, passed: passed, observed: observed, reason: reason)
        }
        /// Why something about the input (`input`) or the answer cannot be judged.
        func missing(input: Bool = false) -> SuiteExpectationResult {
            if !o.fires { return result(false, nil, .notEligible) }
            return result(false, nil, input ? .noInput : .notAsked)
        }
        switch expectation {
        case .fires(let expected):
            return result(o.fires == expected, .bool(o.fires))
        case .fallback(let expected):
            return result(o.fallback == expected, .word(o.fallback))
        case .namedRoute(let expected):
            return result(o.named == expected, .bool(o.named))
        case .inputCut(let expected):
            guard let cut = o.inputCut else { return missing(input: true) }
            return result(cut == expected, .bool(cut))
        case .inputTokensAtMost(let limit):
            guard let tokens = o.inputTokens else { return missing(input: true) }
            return result(tokens <= limit, .int(tokens))
        case .readsNewest(let expected):
            guard o.inputTokens != nil else { return missing(input: true) }
            return result(o.repliesRead == expected, o.repliesRead.map { .int($0) })
        case .parses(let expected):
            guard let parses = o.parses else { return missing() }
            return result(parses == expected, .bool(parses))
        case .accepted(let expected):
            guard let accepted = o.accepted else { return missing() }
            return result(accepted == expected, .bool(accepted))
        case .inBudget(let expected):
            guard let inBudget = o.inBudget else { return missing() }
            return result(inBudget == expected, .bool(inBudget))
        case .noViolations(let expected):
            guard let violations = o.violations else { return missing() }
            return result((violations == 0) == expected, .int(violations))
        case .routeTo(let expected):
            guard o.judged else { return missing() }
            let goesTo: String
            switch o.answer {
            case .route(let member)?: goesTo = member
            default: goesTo = lead ?? Route.lead   // no valid answer: the lead, as today
            }
            let wanted = expected == Route.lead ? (lead ?? Route.lead) : expected
            return result(goesTo.lowercased() == wanted.lowercased())
        case .draftKind(let expected):
            guard o.judged else { return missing() }
            guard case .draft(let kind)? = o.answer else { return result(false, nil, .noAnswer) }
            return result(kind == expected, .word(kind))
        case .noDraft(let expected):
            guard o.judged else { return missing() }
            guard case .draft(let kind)? = o.answer else { return result(false, nil, .noAnswer) }
            return result((kind == Draft.none.kind) == expected, .word(kind))
        case .chipsCountRange(let range):
            guard o.judged else { return missing() }
            guard case .chips(let count)? = o.answer else { return result(false, nil, .noAnswer) }
            return result(range.contains(count), .int(count))
        }
    }
}
