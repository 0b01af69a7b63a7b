#!/usr/bin/env bash
# Times one shard of a thread split against the whole run and against the reader's floor, in one run.
#
#   replay flywheel                              the outline read: every line checked and counted,
#                                                no words built (the floor of a shard's reading of
#                                                other shards' threads)
#   replay --dry-run --job chips                 the whole dry run, one process
#   replay --dry-run --job chips --shard I/N     each shard of N by thread id, one after the other
#
# Every shard of a thread split reads every byte; it builds the words of its own threads only
# and reads the rest as outlines. The ideal shard costs the outline read plus 1/N of the rest:
# the table prints each shard's time, the mean as a share of the whole run, and that ideal.
# With BASELINE=/path/to/replay, the same shards are timed with that binary too (an earlier
# build, for a before-and-after in one run), and both must give the same merged counts.
#
# The corpus is generated once (seed 7) into ${XDG_CACHE_HOME:-$HOME/.cache}/replay/bench/ and
# reused. Run on a quiet machine: every number is wall time.
#
# usage: [BASELINE=replay-binary] bench/shards.sh [THREADS (default 20000)] [SHARDS (default 4)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-20000}
shards=${2:-4}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/replay/bench"
mkdir -p "$cache"
out=$(mktemp -d "${TMPDIR:-/tmp}/replay-shards-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
cd "$root"
swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
source "$root/bench/lib.sh"
corpus=$(bench_corpus "$threads")


rows=()
rows+=("outline|replay flywheel|$(seconds "$replay" flywheel --out "$out/flywheel" "$corpus")")
rows+=("whole|replay --dry-run --job chips|$(seconds "$replay" --dry-run --job chips --out "$out/whole" "$corpus")")
binaries=("this|$replay")
[ -n "${BASELINE:-}" ] && binaries+=("baseline|$BASELINE")
for entry in "${binaries[@]}"; do
  name=${entry%%|*} binary=${entry#*|}
  dirs=()
  for ((i = 0; i < shards; i++)); do
    rows+=("$name-shard|$name: --shard $i/$shards|$(seconds "$binary" --dry-run --job chips --shard "$i/$shards" --out "$out/$name-$i" "$corpus")")
    dirs+=("$out/$name-$i")
  done
  "$replay" merge --out "$out/$name-merged" "${dirs[@]}" >/dev/null 2>"$out/stderr" || { cat "$out/stderr" >&2; exit 1; }
done

printf '%s\n' "${rows[@]}" > "$out/rows"
python3 - "$out" "$threads" "$shards" "${BASELINE:+yes}" <<'PY'
import json, sys
out, threads, shards, baseline = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "yes"
rows = [line.split("|", 2) for line in open(f"{out}/rows").read().splitlines()]
rows = [(kind, name, float(seconds)) for kind, name, seconds in rows]
outline = next(s for k, _, s in rows if k == "outline")
whole = next(s for k, _, s in rows if k == "whole")
print(f"corpus: {threads} threads, {shards} shards by thread id")
print()
print("| run | seconds | × whole run |")
print("|---|---:|---:|")
for _, name, seconds in rows:
    print(f"| {name} | {seconds:.2f} | {seconds / whole:.2f}× |")
print()
ideal = outline + (whole - outline) / shards
print(f"ideal shard (outline read + 1/{shards} of the rest): {ideal:.2f} s = {ideal / whole:.2f}× the whole run")

def numbers(path):
    report = json.load(open(f"{path}/report.json"))
    for key in ("started", "seconds"): report["run"].pop(key, None)
    for key in ("sandbox", "shard"): report.pop(key, None)
    return report
ok = True
for name in ["this"] + (["baseline"] if baseline else []):
    mean = sum(s for k, _, s in rows if k == f"{name}-shard") / shards
    same = numbers(f"{out}/{name}-merged") == numbers(f"{out}/whole")
    ok &= same
    print(f"{name}: mean shard {mean:.2f} s = {mean / whole:.2f}× the whole run, {mean / ideal:.2f}× the ideal; "
          f"merged report equals the whole run's: {'yes' if same else 'NO'}")
sys.exit(0 if ok else 1)
PY
