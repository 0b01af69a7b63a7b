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
