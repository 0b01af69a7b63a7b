#!/usr/bin/env bash
# The audit's own cost (issue 19, point 2): `replay audit --limit N` over the sample corpus beside
# the same replay run without the audit, and where the difference goes, each the best of 3 wall
# times of the release build, the runs interleaved so that all see the same load:
#
#   replay                      the plain run
#   replay, canary planted      the same run given the audit's variables by hand (a fresh
#                               canary, salt and hashes file): the canary in every prompt, no
#                               trace, no scan; with the plain run, the canary's own cost
#   replay under strace         the plain run traced with the audit's expression (the allow-list:
#                               every call but the allowed ones), no canary: the trace's cost
#   replay audit                all of it, and the scan of what the run wrote
#
# with the prompt and output tokens each run's report counts (every job's tokens.in and tokens.out).
# A planted canary changes the prompts, so it changes the outputs too: both counts are shown.
# Only times, exit codes and counts are printed.
#
# usage: bench/audit.sh [LIMIT (default 9)]     (BENCH_NO_BUILD=1 uses the release build as it is)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
limit=${1:-9}
[[ $limit =~ ^[0-9]+$ ]] || { echo "usage: bench/audit.sh [LIMIT]" >&2; exit 2; }
cd "$root"
[[ ${BENCH_NO_BUILD:-0} = 1 ]] || swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
corpus="$root/corpora/sample.jsonl.zst"
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-bench-audit.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The expression the audit gives strace (AuditedCalls.traceExpression), read from the source.
allowlist=$(python3 - "$root/Sources/Audit/Auditor/AuditedCalls.swift" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
allowed = text[text.index("allowed: [String: String] = ["):text.index("public static let judged")]
print("trace=!" + ",".join("?" + name for name in sorted(set(re.findall(r'"([a-z0-9_]+)":', allowed)))))
PY
)

CANARY_WORDS="$root/Sources/Confinement/Tap/CanaryWords.swift" \
python3 - "$replay" "$corpus" "$work" "$limit" "$allowlist" <<'PY'
import os, subprocess, sys, time
replay, corpus, work, limit, allowlist = sys.argv[1:6]
quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

strace = "/usr/bin/strace"
trace_options = ["-f", "--seccomp-bpf", "-qq", "-xx", "-yy", "-s", "16"]

import json, re, secrets
# The canary's words, read from the source (the same list the auditor draws from).
text = open(os.environ["CANARY_WORDS"]).read()
listed = text[text.index('"""') + 3:text.rindex('"""')].split()
assert len(listed) == 2048, len(listed)

def stats(out):
    """The prompt and output tokens of every job, from the run's report.json."""
    try:
        jobs = json.load(open(out + "/report.json"))["jobs"].values()
    except (OSError, KeyError, ValueError):
        return (None, None)
    return (sum(job["tokens"]["in"] for job in jobs), sum(job["tokens"]["out"] for job in jobs))

def plain(run):
    return [replay, "--out", f"{work}/plain-{run}", "--limit", limit, corpus], {}, f"{work}/plain-{run}"

def canary(run):
    out = f"{work}/canary-{run}"
    os.makedirs(out)
    return [replay, "--out", out, "--force", "--limit", limit, corpus], {
        "REPLAY_AUDIT_CANARY": " ".join(secrets.choice(listed) for _ in range(8)),
        "REPLAY_AUDIT_SALT": secrets.token_hex(32),
        "REPLAY_AUDIT_HASHES": f"{out}/.replay-audit-hashes"}, out

def traced(run):
    out = f"{work}/trace-{run}"
    return [strace] + trace_options + ["-e", allowlist, "-o", out + ".log", "--", replay, "--out", out,
                                       "--limit", limit, corpus], {}, out

def audited(run):
    return [replay, "audit", "--out", f"{work}/audit-{run}", "--limit", limit, corpus], {}, f"{work}/audit-{run}/run"

variants = {"replay": plain, "replay, canary planted (no trace, no scan)": canary,
            "replay under strace (no canary, no scan)": traced, "replay audit": audited}
times = {name: [] for name in variants}
tokens = {}
for run in range(3):
    for name, make in variants.items():
        command, extra, out = make(run)
        environment = dict(os.environ, **extra)
        start = time.perf_counter()
        done = subprocess.run(command, env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        times[name].append(time.perf_counter() - start)
        if done.returncode != 0:
            print(f"bench/audit.sh: {name}: exit {done.returncode}", file=sys.stderr)
            sys.exit(1)
        tokens[name] = stats(out)
best = {name: min(values) for name, values in times.items()}
base = best["replay"]
print(f"| run (--limit {limit} of the sample, best of 3, interleaved) | seconds | against replay | prompt tokens | output tokens |")
print("|---|---:|---:|---:|---:|")
for name, seconds in best.items():
    prompt, output = tokens[name]
    shown = lambda count: "–" if count is None else f"{count:,}"
    print(f"| {name} | {seconds:.2f} | {seconds / base:.2f}x | {shown(prompt)} | {shown(output)} |")
PY
