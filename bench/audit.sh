#!/usr/bin/env bash
# The audit's own cost (issue 16, point 2): `replay audit --limit N` over the sample corpus beside
# the same replay run without the audit, each the best of 3 wall times, release build. The
# difference is what strace, the allow-list's filter, the containment and the content scan add.
# Only times, exit codes and counts are printed.
#
# usage: bench/audit.sh [LIMIT (default 20)]     (BENCH_NO_BUILD=1 uses the release build as it is)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
limit=${1:-20}
[[ $limit =~ ^[0-9]+$ ]] || { echo "usage: bench/audit.sh [LIMIT]" >&2; exit 2; }
cd "$root"
[[ ${BENCH_NO_BUILD:-0} = 1 ]] || swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
corpus="$root/corpora/sample.jsonl.zst"
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-bench-audit.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 - "$replay" "$corpus" "$work" "$limit" <<'PY'
import subprocess, sys, time
replay, corpus, work, limit = sys.argv[1:5]
quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def best_of_3(name, command, expect):
    times = []
    for run in range(3):
        start = time.perf_counter()
        code = subprocess.run(command, **quiet).returncode
        times.append(time.perf_counter() - start)
        if code != expect:
            print(f"{name}: exit {code}, expected {expect}", file=sys.stderr)
            sys.exit(1)
    return min(times)

plain = best_of_3("replay", [replay, "--out", work + "/plain", "--limit", limit, corpus], 0)
audited = best_of_3("replay audit", [replay, "audit", "--out", work + "/audit", "--limit", limit, corpus], 0)
print(f"| run (--limit {limit}, best of 3) | seconds |")
print("|---|---:|")
print(f"| replay | {plain:.2f} |")
print(f"| replay audit | {audited:.2f} |")
print(f"| the audit adds | {audited - plain:.2f} ({audited / plain:.2f}x) |")
PY
