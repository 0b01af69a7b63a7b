import Confinement
import Engine
import Foundation
import Jobs
import Llama
import Privacy
import ReplayKit

/// `replay-bench model`: the model stage alone, for `bench/model.sh`.
///
///     replay-bench model --job JOB [--limit N] [--requests N] [--batch N] [--lanes N] [--chunk N] [--engine OPTIONS]
///                        [--model PATH] [--prompts FILE] [--digests KEY_FILE] [--plan-only] CORPUS...
///
/// Plans the first N threads (or as many as give `--requests` requests, which are then the first
/// that many) with one job exactly as a replay does, through the run's own `ThreadSource` and
/// `Planner` (with the built-in prompts, or `--prompts`'), then times only the model
/// answering the requests (`--chunk` at a time, by default as many as the runner sends in one call)
/// and prints, to `diagnostics`, digests and counts only:
///
///     prompt  INDEX  HMAC(instructions)  HMAC(prompt)  HMAC(grammar)  HMAC(token ids)  TOKENS
///     output  INDEX  HMAC(output) | failure:REASON  OUTPUT_TOKENS
///     summary JOB  REQUESTS  SECONDS  PROMPT_TOKENS  OUTPUT_TOKENS  ENGINE_STATISTICS  OPTIONS
///     latency JOB  FIRST_P50  FIRST_P95  ANSWER_P50  ANSWER_P95  STREAM_TOKENS_PER_S_P50  TOKENS_PER_S
///             DEVICE_FIRST_P50  DEVICE_FIRST_P95  DEVICE_ANSWER_P50  DEVICE_ANSWER_P95
///
/// (`prompt` and `output` lines with `--digests` only; `--plan-only` stops after the prompts).
/// `latency` is the answers as a person waiting on them reads them, on this host: each request's
/// wall-clock milliseconds from the start of the call that carried it to its first output token
/// and to its answer (the engine's `firstTokenMilliseconds`, `answerMilliseconds`; queueing
/// behind the call's other requests included), their medians and 95th percentiles (linear
/// between ranks, as numpy's default); the median of each request's own speed after its first
/// token (output tokens after the first over the time between the first and the answer); and
/// the stage's output tokens over its seconds. The `DEVICE_` figures are the same requests on the
/// default phone (`DeviceProfile.iPhone15Pro`, each place's model version's speeds), as a run's
/// budget judges them: sized in the phone's tokens (`JobItem.phoneSized`), the first token after
/// the prompt's prefill, the answer after its output too, each request alone on the phone.
/// `--batch` sets the sequences answered at once (shared out among `--lanes` lanes), each with a
/// KV buffer of 4,096 tokens (the phone's session ceiling): a request that does not fit fails as
/// it would on the phone.
/// A peer that rebuilds the prompts from the same corpus compares the prompt digests to prove it
/// asks the same thing, and the output digests to compare answers, without either side showing a
/// word. Each digest is HMAC-SHA-256 under the key in KEY_FILE (a run key file: 32 random bytes
/// or 64 hex digits) after the domain `replay.bench-digest/1` and a NUL: `bench/model.sh` makes a
/// fresh key per benchmark in its private directory and gives it to both sides, so the two can be
/// compared while a digest checked against a guessed output or route answer says nothing to
/// anyone without the key. Confined like a replay, with nowhere to write.
enum ModelBench {
    static let usage = """
        usage: replay-bench model --job JOB [--limit N] [--requests N] [--batch N] [--lanes N] [--chunk N]
                                  [--engine OPTIONS] [--model PATH] [--prompts FILE] [--digests KEY_FILE] [--plan-only] CORPUS...
        """

    static func run(_ arguments: [String], diagnostics: (String) -> Void) -> ExitCode {
        var job: JobKind? = nil
        var limit: Int? = nil
        var wanted: Int? = nil
        var batch = 8
        var lanes: Int? = nil
        var chunk: Int? = nil
        var engineOptions = LlamaEngine.Options.standard
        var modelPath: String? = nil
        var digestKeyPath: String? = nil
        var prompts = PromptSet.builtIn
        var planOnly = false
        var corpus: [String] = []
        var rest = arguments[...]
        func number(_ flag: String) -> Int? {
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else { return nil }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--job":
                guard let name = rest.popFirst(), let kind = JobKind(rawValue: name) else { return usageError(diagnostics) }
                job = kind
            case "--limit": guard let value = number(argument) else { return usageError(diagnostics) }; limit = value
            case "--requests": guard let value = number(argument) else { return usageError(diagnostics) }; wanted = value
            case "--batch": guard let value = number(argument) else { return usageError(diagnostics) }; batch = value
            case "--lanes": guard let value = number(argument) else { return usageError(diagnostics) }; lanes = value
            case "--chunk": guard let value = number(argument) else { return usageError(diagnostics) }; chunk = value
            case "--engine":
                guard let text = rest.popFirst(), let parsed = LlamaEngine.Options(parsing: text) else { return usageError(diagnostics) }
                engineOptions = parsed
            case "--model": guard let path = rest.popFirst() else { return usageError(diagnostics) }; modelPath = path
            case "--digests": guard let path = rest.popFirst() else { return usageError(diagnostics) }; digestKeyPath = path
            case "--prompts":
                guard let path = rest.popFirst() else { return usageError(diagnostics) }
                do {
                    prompts = try PromptsFile.load(path)
                } catch {
                    diagnostics("replay-bench model: \(error.description)")
                    return .usage
                }
            case "--plan-only": planOnly = true
            default:
                if argument.hasPrefix("-") { return usageError(diagnostics) }
                corpus.append(argument)
            }
        }
        guard let job, !corpus.isEmpty else { return usageError(diagnostics) }
        guard let path = modelPath ?? DefaultModel.path() else {
            diagnostics("replay-bench model: no model: pass --model PATH, or run scripts/setup")
            return .model
        }
        var digestKey: RunKey? = nil
        if let digestKeyPath {
            do {
                digestKey = try RunKeyFile.read(digestKeyPath, from: "--digests")
            } catch {
                diagnostics("replay-bench model: \(error.description)")
                return .usage
            }
        }
        if let refused = BenchConfinement.confine("replay-bench model", diagnostics: diagnostics) { return refused }
        let engine: LlamaEnginePool
        do {
            engine = try LlamaEnginePool(modelPath: path, lanes: lanes, sequences: batch,
                                         contextPerSequence: 4096, threads: AvailableProcessors.count, options: engineOptions)
        } catch {
            diagnostics("replay-bench model: \(error.description)")
            return .model
        }
        // The corpus read as a replay reads it, and the threads planned as a replay plans them.
        let items: [JobItem]
        do {
            items = try PlannedRequests.items(job, corpus: corpus, threads: limit, requests: wanted, batchSize: batch,
                                              prompts: prompts)
        } catch {
            diagnostics("replay-bench model: \(error.description)")
            return .input
        }
        let requests = items.compactMap(\.request)

        if let key = digestKey {
            for (index, request) in requests.enumerated() {
                let fields = [request.instructions.digest(key), request.prompt.digest(key), SealedText(request.grammar ?? "").digest(key),
                              engine.promptDigest(for: request, key: key), String(engine.promptTokenCount(for: request))]
                diagnostics("prompt\t\(index)\t" + fields.joined(separator: "\t"))
            }
        }
        if planOnly {
            diagnostics("planned\t\(job.rawValue)\t\(requests.count)")
            return .success
        }
        let perCall = chunk ?? ReplayRunner.requestsPerCall(batchSize: engine.info.batchSize)
        var outcomes: [GenerationOutcome] = []
        let started = ContinuousClock.now
        var start = 0
        while start < requests.count {
            let end = min(start + perCall, requests.count)
            outcomes += engine.respond(to: Array(requests[start..<end]))
            start = end
        }
        let seconds = started.millisecondsSince / 1000
        if let key = digestKey {
            for (index, outcome) in outcomes.enumerated() {
                let answer: String
                switch outcome.output {
                case .success(let text): answer = text.digest(key)
                case .failure(let failure): answer = "failure:\(failure)"
                }
                diagnostics("output\t\(index)\t\(answer)\t\(outcome.outputTokens)")
            }
        }
        let stats = engine.statistics
        // The floor's counts (bench/model.sh): what no exact engine skips, and the output tokens
        // that were scored among a request's choices rather than generated.
        let fewest = engine.fewestTokens(for: requests)
        let scoredOutputTokens = zip(requests, outcomes).reduce(0) { $0 + ($1.0.choices?.isEmpty == false ? $1.1.outputTokens : 0) }
        let statistics = [
            "decodes=\(stats.decodeCalls)", "evaluated=\(stats.tokensEvaluated)", "sampled=\(stats.tokensSampled)",
            "shared=\(stats.promptTokensShared)", "draft=\(stats.draftTokensAccepted)/\(stats.draftTokensProposed)",
            "ends-skipped=\(stats.endStepsSkipped)", "scored=\(stats.requestsScored)",
            "lent=\(stats.evaluationsLent)", "lending-withdrawn=\(stats.lendingWithdrawn)",
            String(format: "decode-s=%.2f", stats.decodeNanoseconds / 1e9), "prefill-tokens=\(stats.prefillTokens)",
            "fewest-prompt-tokens=\(fewest.prompt)",
            "fewest-prompt-tokens-by-position=" + fewest.promptByPosition.map(String.init).joined(separator: "/"),
            "fewest-choice-tokens=\(fewest.choices)", "scored-output-tokens=\(scoredOutputTokens)",
            String(format: "sampling-s=%.2f", stats.samplingNanoseconds / 1e9), String(format: "grammar-s=%.2f", stats.grammarNanoseconds / 1e9),
        ].joined(separator: ",")
        let promptTokens = outcomes.reduce(0) { $0 + $1.promptTokens }
        let outputTokens = outcomes.reduce(0) { $0 + $1.outputTokens }
        diagnostics("summary\t\(job.rawValue)\t\(requests.count)\t" + String(format: "%.3f", seconds)
                    + "\t\(promptTokens)\t\(outputTokens)\t\(statistics)\t\(engine.options.summary),lanes=\(engine.laneCount)")
        diagnostics(latencyLine(job, outcomes, seconds: seconds, device: deviceMilliseconds(items, outcomes)))
        return .success
    }

    /// Each answered request's estimated milliseconds on the default phone, to its first token
    /// and to its answer, judged as a run judges them (`PreAsk`'s version of each place, the
    /// sizes by `JobItem.phoneSized`).
    static func deviceMilliseconds(_ items: [JobItem], _ outcomes: [GenerationOutcome]) -> (first: [Double], answer: [Double]) {
        var preAsk = PreAsk(profiles: .builtIn, device: .iPhone15Pro, phoneTokens: PhoneTokenizers(.builtIn))
        var first: [Double] = [], answer: [Double] = []
        for (item, outcome) in zip(items, outcomes) {
            guard case .success = outcome.output else { continue }
            let version = preAsk.version(item.attribution.model)
            let sized = item.phoneSized(outcome, tokens: version.tokens)
            first.append(version.device.estimatedMilliseconds(promptTokens: sized.promptTokens, outputTokens: 0))
            answer.append(version.device.estimatedMilliseconds(promptTokens: sized.promptTokens, outputTokens: sized.outputTokens))
        }
        return (first, answer)
    }

    /// The `latency` line of `outcomes` (see the type's comment); `-` where nothing was clocked.
    static func latencyLine(_ job: JobKind, _ outcomes: [GenerationOutcome], seconds: Double,
                            device: (first: [Double], answer: [Double])) -> String {
        let firsts = outcomes.compactMap(\.firstTokenMilliseconds), answers = outcomes.compactMap(\.answerMilliseconds)
        let streams = outcomes.compactMap { outcome -> Double? in
            guard outcome.outputTokens >= 2, let first = outcome.firstTokenMilliseconds, let answer = outcome.answerMilliseconds,
                  answer > first else { return nil }
            return Double(outcome.outputTokens - 1) / ((answer - first) / 1000)
        }
        func shown(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "-" }
        let total = outcomes.reduce(0) { $0 + $1.outputTokens }
        return "latency\t\(job.rawValue)\t" + [
            percentile(firsts, 0.5), percentile(firsts, 0.95), percentile(answers, 0.5), percentile(answers, 0.95),
            percentile(streams, 0.5), seconds > 0 ? Double(total) / seconds : nil,
            percentile(device.first, 0.5), percentile(device.first, 0.95), percentile(device.answer, 0.5), percentile(device.answer, 0.95),
        ].map(shown).joined(separator: "\t")
    }

    /// The `fraction` quantile of `values`, linear between the ranks around it (numpy's default); nil for none.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = fraction * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down)), high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }

    private static func usageError(_ diagnostics: (String) -> Void) -> ExitCode {
        diagnostics("replay-bench model: " + usage)
        return .usage
    }
}

extension SealedText {
    /// HMAC-SHA-256 under `key` of the words' UTF-8, in hex: tells texts apart without showing
    /// them, and without confirming a guess to anyone who does not hold the key.
    func digest(_ key: RunKey) -> String {
        withUnsealedText { text in
            var mac = key.mac(LlamaModel.benchDigestDomain)
            mac.update(Array(text.utf8))
            return mac.finalizeHex()
        }
    }
}
