import Confinement
import Engine
import Flywheel
import Foundation
import Jobs
import Llama
import Privacy
import ReplayKit

/// `replay-bench routing`: how well the model routes labelled asks, and what the confidence rule
/// does to it, for docs/routing.md and for a team choosing `--route-confidence` on its own export.
///
///     replay-bench routing [--model PATH|NAME] [--batch N] [--limit N] [--generate] CORPUS...
///
/// Plans the route job over the corpus exactly as a replay does, asks the model every ask whose
/// label is the person's own choice (`meta.group.to` without `routed`), with no time budget, and
/// writes to stderr (as every replay-bench result), as counts and rates only (no word, no member name):
/// - the baselines: always the most common member of the whole set, and of each ask's own group;
/// - per threshold (0 = the rule off): accuracy with a Wilson 95% interval, how many member
///   answers the rule sent to the lead, and the accuracy of the member answers it kept;
/// - a reliability table: the member answers (not the lead) by decile of their confidence, each
///   decile's count and accuracy.
/// `--generate` asks without the choices, so the engine writes its answer greedily under the
/// grammar, token by token, as it did before it scored choices: the same asks, the other way of
/// answering (every confidence is then 1, so only the threshold 0 row and the baselines mean anything).
/// Confined like a replay, with nowhere to write.
enum RoutingBench {
    static let usage = "usage: replay-bench routing [--model PATH|NAME] [--batch N] [--limit N] [--generate] CORPUS..."
    static let thresholds: [Double] = [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]

    /// One labelled ask, answered: numbers and booleans only.
    struct Answered {
        /// The group's choices (its members' names), in memory only: a key to count the group's own baseline.
        var group: String
        /// The label's index among the group's names.
        var label: Int
        /// The model's answer's index (the lead's when it answered `lead`), nil when it gave none.
        var answer: Int?
        var lead: Int
        var confidence: Double
        /// The ask's language as a report shows it (`ReportLabel(locale:)` of its primary subtag).
        var language: String = "unknown"
    }

    static func run(_ arguments: [String], diagnostics: (String) -> Void) -> ExitCode {
        var modelArgument: String? = nil
        var batch = 8
        var limit: Int? = nil
        var corpus: [String] = []
        var generate = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--generate": generate = true
            case "--model":
                guard let value = rest.popFirst() else { return usageError(diagnostics) }
                modelArgument = value
            case "--batch":
                guard let text = rest.popFirst(), let value = Int(text), value > 0 else { return usageError(diagnostics) }
                batch = value
            case "--limit":
                guard let text = rest.popFirst(), let value = Int(text), value > 0 else { return usageError(diagnostics) }
                limit = value
            default:
                if argument.hasPrefix("-") { return usageError(diagnostics) }
                corpus.append(argument)
            }
        }
        guard !corpus.isEmpty else { return usageError(diagnostics) }
        let path: String
        do {
            guard let found = try modelArgument.map(DefaultModel.file(forModelArgument:)) ?? DefaultModel.path() else {
                diagnostics("replay-bench routing: no model: pass --model PATH|NAME, or run scripts/setup")
                return .model
            }
            path = found
        } catch {
            diagnostics("replay-bench routing: \(error.description)")
            return .usage
        }
        if let refused = BenchConfinement.confine("replay-bench routing", diagnostics: diagnostics) { return refused }
        let engine: LlamaEnginePool
        let items: [JobItem]
        do {
            engine = try LlamaEnginePool(modelPath: path, sequences: batch, contextPerSequence: 4096, threads: AvailableProcessors.count)
            items = try PlannedRequests.items(.route, corpus: corpus, threads: limit, requests: nil, batchSize: batch,
                                              prompts: .builtIn)
                .filter { $0.labels["to"] != nil && $0.labels["routed"] == nil }
        } catch let error as LlamaError {
            diagnostics("replay-bench routing: \(error.description)")
            return .model
        } catch {
            diagnostics("replay-bench routing: \(error)")
            return .input
        }
        diagnostics("replay-bench routing: \(items.count) labelled asks, model \(engine.info.name)")
        let started = ContinuousClock.now
        var outcomes: [GenerationOutcome] = []
        var start = 0
        let perCall = ReplayRunner.requestsPerCall(batchSize: engine.info.batchSize)
        while start < items.count {
            let end = min(items.count, start + perCall)
            outcomes += engine.respond(to: items[start..<end].map { item in
                var request = item.request!
                if generate { request.choices = nil }
                return request
            })
            start = end
            diagnostics("replay-bench routing: \(start) of \(items.count) answered")
        }
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        let answered = zip(items, outcomes).map(Self.answered)
        diagnostics(table(answered, model: engine.info, seconds: seconds, generated: generate))
        return .success
    }

    /// The ask as indices: which group, which member the person chose, which the model did.
    static func answered(_ item: JobItem, _ outcome: GenerationOutcome) -> Answered {
        let members = (item.labels["members"] ?? "").split(separator: RouteJob.nameSeparator).map(String.init)
        let names = members.filter { $0 != Route.lead }
        let lead = names.firstIndex { RouteJob.same($0, item.labels["lead"] ?? "") } ?? 0
        let label = names.firstIndex { RouteJob.same($0, item.labels["to"] ?? "") } ?? -1
        var answer: Int? = nil
        if case .success(let output) = outcome.output, let route = Route(output: output, members: members) {
            answer = route.chose(Route.lead) ? lead : names.firstIndex { route.chose($0) }
        }
        let primary = item.attribution.locale.prefix { $0 != "-" && $0 != "_" }
        return Answered(group: item.labels["members"] ?? "", label: label, answer: answer, lead: lead,
                        confidence: outcome.choiceProbability, language: ReportLabel(locale: String(primary)).text)
    }

    /// The asks' numbers as markdown.
    static func table(_ asks: [Answered], model: ModelInfo, seconds: Double, generated: Bool) -> String {
        let n = asks.count
        var lines: [String] = []
        func rate(_ k: Int, _ n: Int) -> String {
            guard n > 0, let interval = WilsonInterval(successes: k, trials: n) else { return "–" }
            return String(format: "%.1f%% [%.1f, %.1f] (%d/%d)", 100 * Double(k) / Double(n), 100 * interval.low, 100 * interval.high, k, n)
        }
        // Baselines.
        var byMember: [String: [Int: Int]] = [:]
        for ask in asks { byMember[ask.group, default: [:]][ask.label, default: 0] += 1 }
        let overall = byMember.values.flatMap(\.values).max() ?? 0
        let groupBest = byMember.values.reduce(0) { $0 + ($1.values.max() ?? 0) }
        lines.append("model: \(model.description) (\(model.parameters) parameters), \(n) labelled asks, \(Int(seconds)) s, "
                     + (generated ? "answers generated greedily under the grammar" : "answers by scoring each choice"))
        lines.append("")
        lines.append("| baseline | accuracy [Wilson 95%] |")
        lines.append("|---|---|")
        lines.append("| always the most common member of the set | \(rate(overall, n)) |")
        lines.append("| always the most common member of the ask's group | \(rate(groupBest, n)) |")
        lines.append("| always the lead | \(rate(asks.filter { $0.label == $0.lead }.count, n)) |")
        lines.append("")
        lines.append("| threshold | accuracy [Wilson 95%] | member answers sent to the lead | accuracy of the member answers kept |")
        lines.append("|---|---|---|---|")
        for threshold in thresholds {
            var right = 0, turned = 0, kept = 0, keptRight = 0
            for ask in asks {
                var final = ask.answer ?? ask.lead
                let judged = ask.answer != nil && ask.answer != ask.lead
                if judged, threshold > 0, ask.confidence <= threshold {
                    final = ask.lead
                    turned += 1
                } else if judged {
                    kept += 1
                    if final == ask.label { keptRight += 1 }
                }
                if final == ask.label { right += 1 }
            }
            lines.append("| \(threshold == 0 ? "0 (off)" : String(format: "%.1f", threshold)) | \(rate(right, n)) | \(turned) | \(rate(keptRight, kept)) |")
        }
        lines.append("")
        lines.append("Reliability: the model's member answers (not the lead) by their confidence.")
        lines.append("")
        lines.append("| confidence | answers | accuracy [Wilson 95%] |")
        lines.append("|---|---|---|")
        for decile in 0..<10 {
            let low = Double(decile) / 10
            let inDecile = asks.filter { ask in
                guard let answer = ask.answer, answer != ask.lead else { return false }
                return ask.confidence >= low && (ask.confidence < low + 0.1 || (decile == 9 && ask.confidence <= 1))
            }
            lines.append(String(format: "| %.1f–%.1f ", low, low + 0.1) + "| \(inDecile.count) | \(rate(inDecile.filter { $0.answer == $0.label }.count, inDecile.count)) |")
        }
        lines.append("")
        lines.append("By language, the rule off and at the default (\(RouteJob.defaultMinimumConfidence)):")
        lines.append("")
        lines.append("| language | asks | accuracy, rule off [Wilson 95%] | accuracy at the default [Wilson 95%] |")
        lines.append("|---|---:|---|---|")
        for language in Set(asks.map(\.language)).sorted() {
            let mine = asks.filter { $0.language == language }
            let off = mine.filter { ($0.answer ?? $0.lead) == $0.label }.count
            let on = mine.filter { ask in
                let judged = ask.answer != nil && ask.answer != ask.lead
                let final = judged && ask.confidence <= RouteJob.defaultMinimumConfidence ? ask.lead : (ask.answer ?? ask.lead)
                return final == ask.label
            }.count
            lines.append("| \(language) | \(mine.count) | \(rate(off, mine.count)) | \(rate(on, mine.count)) |")
        }
        let noAnswer = asks.filter { $0.answer == nil }.count
        let saidLead = asks.filter { $0.answer == $0.lead }.count
        lines.append("")
        lines.append("No valid answer: \(noAnswer); answered the lead itself: \(saidLead) (right \(asks.filter { $0.answer == $0.lead && $0.label == $0.lead }.count)).")
        return lines.joined(separator: "\n")
    }

    static func usageError(_ diagnostics: (String) -> Void) -> ExitCode {
        diagnostics(usage)
        return .usage
    }
}
