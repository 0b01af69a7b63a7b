#!/usr/bin/env bash
# What a user waits for (issue 19, point 5): the whole bundled sample replayed with every job,
# as `replay corpora/sample.jsonl.zst` runs it, once, release build: its wall time, its peak
# memory (the model's weights, every lane's KV buffers and the pipeline), and per job how many
# requests were asked and answered and how many prompt tokens they held. Only counts and times
# are printed; the run's directory is removed at exit.
#
# usage: bench/sample.sh [LIMIT (default: every thread)]     (BENCH_NO_BUILD=1: the release build as it is)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
limit=${1:-}
[[ -z $limit || $limit =~ ^[0-9]+$ ]] || { echo "usage: bench/sample.sh [LIMIT]" >&2; exit 2; }
[[ ${BENCH_NO_BUILD:-0} = 1 ]] || swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-bench-sample.XXXXXX")
trap 'rm -rf "$work"' EXIT

load_before=$(cut -d' ' -f1 /proc/loadavg)
echo "bench/sample.sh: replaying corpora/sample.jsonl.zst with every job (load $load_before)" >&2
/usr/bin/time -f '%e %M' -o "$work/time" "$replay" --out "$work/run" ${limit:+--limit "$limit"} \
  corpora/sample.jsonl.zst > /dev/null 2> "$work/stderr" || {
  echo "bench/sample.sh: replay failed" >&2; tail -5 "$work/stderr" >&2; exit 1; }
load_after=$(cut -d' ' -f1 /proc/loadavg)

python3 - "$work" "$load_before" "$load_after" <<'PY'
import json, os, sys
work, before, after = sys.argv[1:4]
seconds, kilobytes = open(f"{work}/time").read().split()
seconds, peak = float(seconds), int(kilobytes) * 1024
report = json.load(open(f"{work}/run/report.json"))
corpus = report["corpus"]
print(f"the sample{' (to --limit)' if report['run'].get('stopped_at_limit') else ''}, every job: {corpus['threads_replayed']} threads, {corpus['messages']} messages, "
      f"{os.cpu_count()} cores, load {before} → {after}")
print()
print("| job | eligible | asked | answered | input tokens (the words) | output tokens |")
print("|---|---:|---:|---:|---:|---:|")
asked_all = 0
for name, job in report["jobs"].items():
    tokens = job.get("tokens") or {}
    prompt, output = tokens.get("in", "–"), tokens.get("out", "–")
    asked_all += job["asked"]
    print(f"| {name} | {job['eligible']} | {job['asked']} | {job['answered']} | {prompt} | {output} |")
print()
print(f"| wall | peak RSS |")
print(f"|---:|---:|")
print(f"| {seconds / 60:.1f} min ({seconds:.0f} s) | {peak / 1e9:.2f} GB |")
PY
