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
///
/// (`prompt` and `output` lines with `--digests` only; `--plan-only` stops after the prompts).
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
        let requests: [GenerationRequest]
        do {
            requests = try PlannedRequests.of(job, corpus: corpus, threads: limit, requests: wanted, batchSize: batch,
                                              prompts: prompts)
        } catch {
            diagnostics("replay-bench model: \(error.description)")
            return .input
        }

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
        let statistics = [
            "decodes=\(stats.decodeCalls)", "evaluated=\(stats.tokensEvaluated)", "sampled=\(stats.tokensSampled)",
            "shared=\(stats.promptTokensShared)", "draft=\(stats.draftTokensAccepted)/\(stats.draftTokensProposed)",
            "ends-skipped=\(stats.endStepsSkipped)", "scored=\(stats.requestsScored)",
            String(format: "decode-s=%.2f", stats.decodeNanoseconds / 1e9), "prefill-tokens=\(stats.prefillTokens)",
            "fewest-prompt-tokens=\(engine.fewestPromptTokens(for: requests))",
            String(format: "sampling-s=%.2f", stats.samplingNanoseconds / 1e9), String(format: "grammar-s=%.2f", stats.grammarNanoseconds / 1e9),
        ].joined(separator: ",")
        let promptTokens = outcomes.reduce(0) { $0 + $1.promptTokens }
        let outputTokens = outcomes.reduce(0) { $0 + $1.outputTokens }
        diagnostics("summary\t\(job.rawValue)\t\(requests.count)\t" + String(format: "%.3f", seconds)
                    + "\t\(promptTokens)\t\(outputTokens)\t\(statistics)\t\(engine.options.summary),lanes=\(engine.laneCount)")
        return .success
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
