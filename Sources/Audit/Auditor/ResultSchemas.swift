import Confinement
import Privacy

/// The shapes of the JSON files a `replay` run writes under `--out`, as docs/report-schema.md
/// documents them: report.json (`replay.report/1`), state.json and its checkpoints
/// (`replay.state/1`), metrics.json (`replay.flywheel/1`).
///
/// A reviewed constant, restating the writers' files: it was written when Audit sat below the
/// writers and could not name their types. Audit now sits above them, and decoding each file
/// with its writer's own type is to replace this restatement. Until then the shapes are kept in
/// step by the tests that run real `replay` runs (dry and with the model, every job, the
/// flywheel, checkpoints, gates) and want zero findings: a key a writer adds fails them until it
/// is added here with its rule.
enum ResultSchemas {
    // MARK: Fixed words

    static let jobNames: Set<String> = ["chips", "route", "push", "draft"]
    static let fallbackReasons: Set<String> = [
        "model_unavailable", "unsupported_language", "context_exceeded", "invalid_output", "time_budget", "engine_failure",
        "refusal", "guardrail_violation", "rate_limited",
    ]
    static let qualityNames: Set<String> = [
        "exact_match", "best_f1", "accuracy", "agreement", "lead_accuracy", "well_formed", "length_chars", "kind_agrees",
        "used_when_drafted", "checklist_when_used",
    ]
    static let settingSources: Set<String> = ["spec", "default", "flag_or_config"]
    static let hashedKinds: Set<String> = ["whole", "first_and_last_mib", "not_hashed"]
    static let dimensions: Set<String> = ["all", "build", "model", "locale", "agent", "week"]
    static let flywheelMetrics: Set<String> = [
        "chips.suggested", "route.named", "route.guessed_kept", "route.chose", "route.lead", "draft.used", "draft.ticks_mean",
        "push.kind.reply", "push.kind.handoff", "push.kind.quote", "push.kind.other", "push.batch.1", "push.batch.2",
        "push.batch.3", "push.batch.4", "push.batch.5-9", "push.batch.10+", "push.batch_mean",
    ]

    // MARK: Pieces

    static func fixed(_ words: Set<String>) -> ResultShape { .text(.fixed(words)) }
    static func fixed(_ words: String...) -> ResultShape { .text(.fixed(Set(words))) }
    static let int = ResultShape.integer
    static let number = ResultShape.number
    static let bool = ResultShape.boolean
    static let optionalNumber = ResultShape.nullable(.number)
    static let sha256 = ResultShape.text(.hex(64))
    static let path = ResultShape.text(.path)
    static let prose = ResultShape.text(.prose)

    static let tool = ResultShape.object(["name": fixed("replay"), "version": .text(.label(.token))])

    /// `device` of the report and `options.device` of a state: a built-in device, a custom one,
    /// or a device a team's profiles file names (a token).
    static let device = ResultShape.object([
        "profile": .text(.either([.fixed(["iphone15pro", "iphone16pro", "iphone17pro"]), .customDevice, .label(.token)])),
        "prefill_ms_per_token": number,
        "decode_tokens_per_s": number,
        "source": prose,
    ])

    /// `sandbox` (SandboxReport.reportValue).
    static let sandbox: ResultShape = {
        let rights = ResultShape.array(.text(.fixed(Set(SandboxReport.writeRightNames))))
        var keys: [String: ResultShape] = [
            "landlock_abi": int,
            "writable_directories": .array(path),
            "writable_files": .array(path),
            "denied_filesystem_access": rights,
            "withheld_in_writable_directories": rights,
            "descriptors_redirected_to_dev_null": .array(int),
            "threads_at_confinement": int,
            "unsandboxed_reason": .nullable(prose),
        ]
        for flag in ["enforced", "tcp_denied", "abstract_unix_sockets_scoped", "signals_scoped", "non_unix_sockets_denied",
                     "all_sockets_denied", "metadata_writes_denied", "ipc_denied", "exec_denied", "process_attributes_fixed",
                     "core_dumps_disabled", "argument_area_hidden", "proc_hidden_from_other_users", "all_threads_confined"] {
            keys[flag] = bool
        }
        return .nullable(.object(keys))
    }()

    /// `audit` (AuditTap.reportValue): null outside `replay audit`.
    static let audit = ResultShape.nullable(.object(["prompts": int, "prompts_with_canary": int, "outputs": int]))

    /// `model` of the report, `model.description` of a state.
    static let modelDescription = ResultShape.nullable(.object([
        "name": .text(.modelText),
        "description": .text(.modelText),
        "file": path,
        "file_bytes": int,
        "sha256": .nullable(sha256),
        "parameters": int,
        "context_per_sequence": int,
        "batch_size": int,
    ]))

    static let kindCounts = ResultShape.map(key: .label(.kind), value: int)

    /// `run.prompts` of the report, `options.prompts` of a state: the prompt set's name (a token,
    /// as the set's reader requires) and the SHA-256 of its file.
    static let promptSet = ResultShape.object(["name": .text(.label(.token)), "sha256": sha256])

    /// `run.profiles` of a report and `options.profiles` of a state: the model versions as the
    /// run's device runs them. Names are tokens, versions numbers, languages subtags.
    static let profiles = ResultShape.object([
        "name": .text(.label(.token)), "sha256": sha256, "unknown_model": .text(.label(.token)),
        "versions": .array(.object([
            "name": .text(.label(.token)), "from": .text(.label(.model)), "below": .nullable(.text(.label(.model))),
            "context_tokens": int, "languages": .array(.text(.label(.locale))),
            "prefill_ms_per_token": number, "decode_tokens_per_s": number, "source": prose,
        ])),
    ])

    /// `run.inject_fallbacks` of a report and `options.inject_fallbacks` of a state.
    static let injection = ResultShape.nullable(.object([
        "rates": .map(key: .fixed(["refusal", "guardrail", "rate_limit"]), value: number), "seed": int,
    ]))

    // MARK: report.json

    /// The keys of a job's block and of each of its build and model slices.
    static let reportMetrics: [String: ResultShape] = {
        let quality = ResultShape.map(key: .fixed(qualityNames), value: .object(["compared": int, "mean": optionalNumber]))
        return [
            "scanned": int, "eligible": int, "asked": int, "answered": int,
            "answered_rate": optionalNumber,
            "fallbacks": .map(key: .fixed(fallbackReasons), value: int),
            "in_budget": .object(["host": optionalNumber, "device": optionalNumber]),
            "latency_ms": .object(["p50": optionalNumber, "p95": optionalNumber, "device_p50": optionalNumber, "device_p95": optionalNumber]),
            "tokens": .object(["in": int, "out": int, "inputs_cut": int]),
            "quality": quality,
            "quality_all_answers": quality,
            "counters": .map(key: .counter, value: int),
            "violations": .map(key: .fixed(neverRules), value: int),
        ]
    }()

    static let reportJob: ResultShape = {
        var keys = reportMetrics
        keys["budget_ms"] = number
        keys["budget_source"] = fixed(settingSources)
        keys["input_cap_tokens"] = int
        keys["context_limit_tokens"] = int
        keys["newest_replies"] = int
        keys["minimum_confidence"] = number
        keys["minimum_confidence_source"] = fixed(settingSources)
        keys["prompt_sizes"] = .object([
            "p50_tokens": optionalNumber, "p95_tokens": optionalNumber, "max_tokens": int,
            "device_prefill_ms_p50": optionalNumber, "device_prefill_ms_p95": optionalNumber,
            "over_context": int, "over_budget_before_output": int,
        ])
        keys["by_build"] = .map(key: .label(.build), value: .object(reportMetrics))
        keys["by_model"] = .map(key: .label(.model), value: .object(reportMetrics))
        keys["by_locale"] = .map(key: .label(.locale), value: .object(reportMetrics))
        return .object(keys)
    }()

    static let report = ResultShape.object([
        "schema": fixed("replay.report/1"),
        "tool": tool,
        "run": .object([
            "mode": fixed("replay", "dry-run"),
            "jobs": .array(fixed(jobNames)),
            "started": .text(.timestamp),
            "seconds": number,
            "thread_limit": .nullable(int),
            "stopped_at_limit": bool,
            "strict": bool,
            "batch_size": int,
            "model_unavailable": .nullable(prose),
            "token_sizes": fixed("model tokenizer", "estimated from UTF-8 bytes (no tokenizer)"),
            "prompts": promptSet,
            "profiles": profiles,
            "inject_fallbacks": injection,
        ]),
        "shard": .object([
            "index": .nullable(int), "count": int, "by": fixed("thread", "file"), "shards": .array(int),
            "threads_read": int, "threads_skipped": int, "unsandboxed_shards": .array(int),
        ]),
        "sandbox": sandbox,
        "audit": audit,
        "model": modelDescription,
        "device": device,
        "corpus": .object([
            "files": int, "lines": int, "threads": int, "threads_replayed": int, "messages": int, "bad_lines": int,
            "unknown_types": kindCounts, "unknown_nodes": kindCounts, "compressed_bytes": int, "bytes": int,
            "errors": .array(prose),
            "bad_line_samples": .array(.object(["file": path, "line": int, "reason": prose])),
        ]),
        "jobs": .map(key: .fixed(jobNames), value: reportJob),
    ])

    // MARK: state.json and checkpoints

    static let histogram = ResultShape.object(["count": int, "sum_ns": int, "buckets": .array(.tuple([int, int]))])

    static let ledgerMetrics: ResultShape = {
        let quality = ResultShape.map(key: .fixed(qualityNames), value: .object(["sum_billionths": int, "count": int]))
        return .object([
            "scanned": int, "eligible": int, "asked": int, "answered": int,
            "fallbacks": .map(key: .fixed(fallbackReasons), value: int),
            "in_budget_host": int, "in_budget_device": int, "inputs_cut": int,
            "host_latency_ms": histogram, "device_latency_ms": histogram,
            "tokens_in": int, "tokens_out": int,
            "quality": quality, "quality_all_answers": quality,
            "counters": .map(key: .counter, value: int),
        ])
    }()

    /// The spec's never rules, as report.json's `violations` blocks name them (NeverRule).
    static let neverRules: Set<String> = [
        "chips_wrong_language", "chips_agent_voice", "push_advice", "push_greeting", "push_speaks_for_agent",
        "draft_expert_question", "route_outside_group",
    ]

    /// A flywheel key: `all`, an ISO week, or a build, model, locale or agent label.
    static let flywheelKey = ResultShape.text(.either([
        .fixed(["all"]), .isoWeek, .label(.build), .label(.model), .label(.locale), .label(.agent),
    ]))

    static let state = ResultShape.object([
        "schema": fixed("replay.state/1"),
        "tool": tool,
        "checkpoint": .nullable(.object([
            "sequence": int, "events_read": int,
            // The checkpoint's chain of item segments (`checkpoint-NNNNNN.items.json.zst`).
            "item_segments": .array(.object(["sequence": int, "count": int, "sha256": sha256])),
        ])),
        "options": .object([
            "jobs": .array(fixed(jobNames)),
            "budgets_ms": .map(key: .fixed(jobNames), value: number),
            "device": device,
            "thread_limit": .nullable(int),
            "strict": bool, "dry_run": bool, "flywheel": bool,
            "batch_size": int,
            "labels": .nullable(sha256),
            "prompts": promptSet,
            "profiles": profiles,
            "inject_fallbacks": injection,
        ]),
        "corpus_identity": .object([
            "files": .array(.object([
                "path": path, "bytes": .nullable(int), "hmac_sha256": .nullable(sha256), "hashed": fixed(hashedKinds),
            ])),
            "run_key_check": .nullable(sha256),
        ]),
        "model": .object([
            "path": .nullable(path), "bytes": .nullable(int), "sha256": .nullable(sha256), "hashed": fixed(hashedKinds),
            "unavailable": .nullable(prose), "approximate_tokens": bool, "description": modelDescription,
        ]),
        "shard": .object([
            "count": int, "by": fixed("thread", "file"), "indexes": .array(int), "threads_seen": int,
            "threads_skipped": int, "unsandboxed": .array(int),
        ]),
        "run": .object(["started": .text(.timestamp), "seconds": number]),
        "sandbox": sandbox,
        "audit": audit,
        "corpus": .object([
            "files": int, "lines": int, "records": int, "threads": int, "messages": int, "bad_lines": int,
            "unknown_types": kindCounts, "unknown_nodes": kindCounts, "compressed_bytes": int, "bytes": int,
            "threads_replayed": int, "stopped_at_limit": bool, "stopped_at_another_shards_bad_line": bool,
            "errors": .array(.object(["file_index": int, "message": prose])),
            "bad_line_samples": .array(.object(["file_index": int, "file": path, "line": int, "reason": prose])),
            "fatal": .nullable(.object(["file_index": int, "line": int, "message": prose])),
        ]),
        "jobs": .map(key: .fixed(jobNames), value: .object([
            "ledger": .object([
                "overall": ledgerMetrics,
                "by_build": .map(key: .label(.build), value: ledgerMetrics),
                "by_model": .map(key: .label(.model), value: ledgerMetrics),
                "by_locale": .map(key: .label(.locale), value: ledgerMetrics),
            ]),
            "prompt_sizes": .nullable(.object([
                "prompt_tokens": histogram, "device_prefill_ms": histogram, "max_prompt_tokens": int,
                "over_context": int, "over_budget_before_output": int,
            ])),
        ])),
        "flywheel": .nullable(.object([
            "threads": int, "messages": int,
            "buckets": .array(.object([
                "dimension": fixed(dimensions), "key": flywheelKey, "events": int,
                "metrics": .map(key: .fixed(flywheelMetrics), value: .tuple([int, int])),
            ])),
        ])),
        "complete": bool,
        // HMAC-SHA-256 under the run key of the file without this key (ReplayKit's `StateDigest`).
        "digest": .text(.prefixedHex(stateDigestPrefix, 64)),
    ])

    /// How a state's `digest` begins: its algorithm.
    static let stateDigestPrefix = "hmac-sha256:"

    // MARK: manifest.json

    /// `replay.manifest/1` (issue 18's completion manifest, `RunManifest` on the manifest
    /// branch): every entry a result file by its name, its kind, size and digest. A name the
    /// manifest withholds (`path` null) is a finding of its own in the directory already.
    static let manifest = ResultShape.object([
        "schema": fixed("replay.manifest/1"),
        "entries": .array(.object([
            "path": .nullable(.text(.resultFileName)),
            "kind": fixed("file", "directory", "symlink", "other"),
            "bytes": .nullable(int),
            "sha256": .nullable(sha256),
            "withheld": fixed("name", "finding", "unreadable"),
        ])),
        "complete": bool,
    ])

    // MARK: compare.json

    /// The metric keys of `replay compare` (ReplayKit's `MetricDefinition`): the fixed rates,
    /// means and percentiles, and each quality measure under both families.
    static let compareMetricKeys: Set<String> = {
        var keys: Set<String> = ["asked", "answered", "in_budget.host", "in_budget.device", "tokens.in", "tokens.out",
                                 "latency.host.p50", "latency.host.p95", "latency.device.p50", "latency.device.p95"]
        for reason in fallbackReasons { keys.insert("fallback." + reason) }
        for rule in neverRules { keys.insert("violation." + rule) }
        for name in qualityNames { keys.insert("quality." + name); keys.insert("quality_all_answers." + name) }
        return keys
    }()

    /// The flags compare.json's `differences.options` names (StateOptions.differences).
    static let compareOptionFlags: Set<String> = [
        "--job", "--budget", "--device", "--limit", "--strict", "--dry-run", "--flywheel", "--batch", "--labels", "--prompts",
        "--profiles", "--inject-fallbacks",
    ]

    static let compareVerdicts: Set<String> = ["better", "worse", "changed", "no detectable change", "no pairs"]
    static let compareDirections: Set<String> = ["higher_is_better", "lower_is_better", "neutral"]

    static let compareJoin = ResultShape.object([
        "base": int, "new": int, "paired": int, "base_only": int, "new_only": int, "repeated": int,
    ])

    static let compareSlice = ResultShape.object([
        "eligible": compareJoin,
        "metrics": .map(key: .fixed(compareMetricKeys), value: .object([
            "kind": fixed("rate", "mean", "percentile"),
            "unit": fixed("fraction", "tokens", "ms", "score", "characters"),
            "direction": fixed(compareDirections),
            "test": fixed("mcnemar_exact", "paired_normal", "paired_bootstrap"),
            "pairs": int, "clusters": int,
            "base": optionalNumber, "new": optionalNumber, "difference": optionalNumber,
            "lower": optionalNumber, "upper": optionalNumber, "standard_error": optionalNumber,
            "p": optionalNumber, "p_holm": optionalNumber, "minimum_detectable": optionalNumber,
            "discordant": .nullable(.object(["base_only": int, "new_only": int])),
            "verdict": fixed(compareVerdicts),
        ])),
    ])

    static let compareSide = ResultShape.object([
        "directory": path,
        "mode": fixed("replay", "dry-run"),
        "jobs": .array(fixed(jobNames)),
        "budgets_ms": .map(key: .fixed(jobNames), value: number),
        "model_sha256": .nullable(sha256),
        "shards": int, "threads_replayed": int, "items": int,
    ])

    /// `replay.compare/1` (docs/compare-schema.md).
    static let compare = ResultShape.object([
        "schema": fixed("replay.compare/1"),
        "tool": tool,
        "base": compareSide,
        "new": compareSide,
        "differences": .object([
            "options": .array(fixed(compareOptionFlags)),
            "model": bool,
        ]),
        "method": .object([
            "confidence": number, "power": number, "alpha": number, "clusters": fixed("thread"), "adjustment": fixed("holm"),
            "bootstrap": .object(["seed": int, "replicates": int]),
        ]),
        "sandbox": sandbox,
        "join": compareJoin,
        "jobs": .map(key: .fixed(jobNames), value: .object([
            "join": compareJoin,
            "overall": compareSlice,
            "by_build": .map(key: .label(.build), value: compareSlice),
            "by_model": .map(key: .label(.model), value: compareSlice),
            "by_locale": .map(key: .label(.locale), value: compareSlice),
        ])),
        "gates": .array(.object([
            "job": fixed(jobNames), "metric": fixed(compareMetricKeys), "margin": number,
            "direction": fixed(compareDirections), "bound": fixed("lower", "upper"),
            "value": optionalNumber, "limit": number, "passed": bool, "reason": .nullable(prose),
        ])),
    ])

    // MARK: report.json of replay suite run

    /// The expectation keys of a suite (ReplayKit's `SuiteExpectation.allNames`).
    static let suiteExpectationNames: Set<String> = [
        "fires", "fallback", "input_cut", "input_tokens_at_most", "named_route", "reads_newest", "parses", "accepted", "in_budget",
        "no_violations", "route_to", "draft_kind", "no_draft", "chips_count_range",
    ]
    /// Why a suite's expectation failed (ReplayKit's `SuiteExpectationResult.reasons`).
    static let suiteReasons: Set<String> = ["differs", "not_eligible", "no_input", "not_asked", "no_answer"]
    /// The fixed words an expectation may have observed: what the app decides before asking
    /// (`SuiteExpectation.fallbacks`) and the draft kinds.
    static let suiteObservedWords: Set<String> = [
        "none", "unsupported_language", "context_exceeded", "named", "relay_line_kept", "no_words", "checklist", "timer", "card",
    ]
    static let suiteKinds: Set<String> = ["deterministic", "model_dependent"]

    static let suiteRuns: [String: ResultShape] = [
        "runs": int, "passed": int, "failed": int, "skipped": int, "must": int, "must_failed": int,
    ]
    static let suiteExpectationCounts: [String: ResultShape] = ["checked": int, "passed": int, "failed": int, "pass_rate": optionalNumber]

    /// `replay.suite-report/1` (docs/suite.md): report.json of `replay suite run`, told from a
    /// run's report.json by its `schema`. Case ids are the suite's (a token), never its inputs.
    static let suiteReport: ResultShape = {
        var byJob = suiteRuns
        byJob["by_kind"] = .map(key: .fixed(suiteKinds), value: .object(suiteExpectationCounts))
        var byKind = suiteExpectationCounts
        byKind["by_name"] = .map(key: .fixed(suiteExpectationNames), value: .object(suiteExpectationCounts))
        var totals = suiteRuns
        totals["by_job"] = .map(key: .fixed(jobNames), value: .object(byJob))
        totals["by_kind"] = .map(key: .fixed(suiteKinds), value: .object(byKind))
        return .object([
            "schema": fixed("replay.suite-report/1"),
            "tool": tool,
            "suite": .object(["file": path, "name": .text(.label(.token)), "sha256": sha256, "cases": int, "runs": int]),
            "run": .object([
                "started": .text(.timestamp), "seconds": number, "model_version": .nullable(.text(.label(.model))), "prompts": promptSet,
            ]),
            "model": modelDescription,
            "device": device,
            "sandbox": sandbox,
            "verdict": fixed("pass", "fail"),
            "totals": .object(totals),
            "cases": .array(.object([
                "id": .text(.label(.token)),
                "language": .nullable(.text(.label(.locale))),
                "job": fixed(jobNames),
                "must": bool,
                "given_output": bool,
                "status": fixed("pass", "fail", "skipped"),
                "expectations": .array(.object([
                    "name": fixed(suiteExpectationNames),
                    "kind": fixed(suiteKinds),
                    "pass": bool,
                    "observed": .nullable(.either([.boolean, .integer, fixed(suiteObservedWords)])),
                    "reason": .nullable(fixed(suiteReasons)),
                ])),
            ])),
        ])
    }()

    // MARK: items.json.zst

    /// `replay.items/1` (docs/items.md), the JSON inside the zstd frame: keys and threads 16
    /// lowercase hex digits, builds, models and locales labels under their rules, everything else numbers.
    static let items: ResultShape = {
        let column = ResultShape.array(int)
        let measures = ResultShape.map(key: .fixed(qualityNames), value: .array(.nullable(int)))
        return .object([
            "schema": fixed("replay.items/1"),
            "count": int,
            "jobs": .array(fixed(jobNames)),
            "fallbacks": .array(fixed(fallbackReasons)),
            "never_rules": .array(fixed(neverRules)),
            "threads": .array(.text(.hex(16))),
            "builds": .array(.text(.label(.build))),
            "models": .array(.text(.label(.model))),
            "locales": .array(.text(.label(.locale))),
            "columns": .object([
                "key": .array(.text(.hex(16))),
                "thread": column, "job": column, "build": column, "model": column, "locale": column, "flags": column,
                "fallback": column,
                "host_us": column, "device_us": column, "tokens_in": column, "tokens_out": column, "violations": column,
                "quality": measures, "quality_all_answers": measures,
            ]),
        ])
    }()

    // MARK: metrics.json

    static let flywheelCell: [String: ResultShape] = [
        "key": flywheelKey, "numerator": int, "denominator": int,
        "rate": optionalNumber, "low": optionalNumber, "high": optionalNumber, "smallSample": bool,
    ]

    static let metrics: ResultShape = {
        var usage = flywheelCell
        usage["metric"] = fixed(flywheelMetrics)
        return .object([
            "schema": fixed("replay.flywheel/1"),
            "interval": fixed("wilson"),
            "confidence": number,
            "smallSampleBelow": int,
            "totals": .object(["threads": int, "messages": int]),
            "metrics": .array(.object([
                "metric": fixed(flywheelMetrics),
                "feature": fixed(jobNames),
                "kind": fixed("share", "mean"),
                "label": prose,
                "definition": prose,
                "cells": .map(key: .fixed(dimensions), value: .array(.object(flywheelCell))),
            ])),
            "replayed": .array(.object([
                "job": fixed(jobNames), "eligible": int, "answered": int,
                "coverage": optionalNumber, "coverageLow": optionalNumber, "coverageHigh": optionalNumber,
                "inBudgetDevice": optionalNumber,
                "usage": .nullable(.object(usage)),
            ])),
        ])
    }()
}

extension ResultSchemas {
    /// The rule for a flywheel key under `dimension` (docs/report-schema.md, flywheel): `all`
    /// alone under `all`, an ISO week (or `unknown`) under `week`, and under build, model,
    /// locale and agent the label rule of that kind. Nil for a dimension replay does not count.
    static func flywheelKeyRule(_ dimension: String) -> ResultText? {
        switch dimension {
        case "all": .fixed(["all"])
        case "week": .either([.isoWeek, .fixed([ReportLabel.unknown.text])])
        case "build": .label(.build)
        case "model": .label(.model)
        case "locale": .label(.locale)
        case "agent": .label(.agent)
        default: nil
        }
    }

    /// Keys of flywheel cells that do not fit their dimension: `metrics[i].cells.<dimension>[j]`
    /// of metrics.json, `flywheel.buckets[i]` of a state. The shapes admit any key of any
    /// dimension; this is the closer check.
    static func flywheelKeyProblems(_ value: ReportValue, context: ResultText.Context) -> [ResultShape.Problem] {
        var problems: [ResultShape.Problem] = []
        func check(_ key: ReportValue?, _ dimension: String, _ path: String) {
            guard case .label(let text)? = key, let rule = flywheelKeyRule(dimension) else { return }
            if !rule.admits(text, context: context) {
                problems.append(ResultShape.Problem(path: path, what: "a key that is not \(rule.summary) for its dimension"))
            }
        }
        if case .array(let metrics)? = value["metrics"] {
            for (i, metric) in metrics.enumerated() {
                guard case .object(let cells)? = metric["cells"] else { continue }
                for (dimension, list) in cells where dimensions.contains(dimension) {
                    guard case .array(let items) = list else { continue }
                    for (j, item) in items.enumerated() { check(item["key"], dimension, "metrics[\(i)].cells.\(dimension)[\(j)].key") }
                }
            }
        }
        if case .array(let buckets)? = value["flywheel"]?["buckets"] {
            for (i, bucket) in buckets.enumerated() {
                guard case .label(let dimension)? = bucket["dimension"] else { continue }
                check(bucket["key"], dimension, "flywheel.buckets[\(i)].key")
            }
        }
        return problems
    }
}
