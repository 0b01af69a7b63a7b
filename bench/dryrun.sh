#!/usr/bin/env bash
# Times the dry run against decompression alone and against the reader, in one run.
#
#   zstd -dc > /dev/null                      the floor: decompression alone
#   replay flywheel                            the reader (decompress, split, parse, count)
#   replay --dry-run --job J, J in chips route push draft
#                                              the reader, each job's planning and its prompt
#                                              sizes in the phone's tokens (each model version's
#                                              estimate, docs/profiles.md)
#   replay --dry-run --job chips --model (none)
#                                              the same with no model file at all (exit 4): the
#                                              sizes are the phone's, so only the vocabulary's
#                                              load is saved
#   replay --dry-run --job J --model qwen2.5-coder-0.5b
#                                              each job's dry run with the second family installed
#                                              (scripts/setup --deps-only --model qwen2.5-coder-0.5b;
#                                              skipped, and said, when it is not): its vocabulary
#                                              is three times SmolLM2's and its pre-tokenizer
#                                              another, and the sizes are still the phone's
# Prints one table of wall seconds and ratios to zstd -dc, and whether the reports with another
# model file or none hold the same numbers as the default model's (they must: no size depends on
# the stand-in, and only the run's start time and duration and what it says of the model may
# differ). With BENCH_ROWS set (bench/all.sh), appends a row per job for the second family: its
# dry run's time over the default model's (the median of the rounds' ratios), with a target of
# the same numbers at most 1.10× the time.
#
# The reader and the four jobs' dry runs go in interleaved rounds (BENCH_ROUNDS, default 3): each
# time printed is the best of its rounds, and each "× the reader" the median of the rounds' own
# ratios, so a host whose speed drifts over minutes slows both sides of a ratio alike.
#
# The corpus is generated once (seed 7) into ${XDG_CACHE_HOME:-$HOME/.cache}/replay/bench/ and
# reused. Run on a quiet machine: every number is wall time.
#
# usage: bench/dryrun.sh [THREADS (default 57344)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-57344}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/replay/bench"
mkdir -p "$cache"
out=$(mktemp -d "${TMPDIR:-/tmp}/replay-dryrun-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
cd "$root"
swift build -c release --product replay >&2
swift build -c release --product replay-bench >&2
replay="$(swift build -c release --show-bin-path)/replay"
replay_bench="$(swift build -c release --show-bin-path)/replay-bench"
source "$root/bench/lib.sh"
corpus=$(bench_corpus "$threads")
second=$(find "${REPLAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/replay}/models" -maxdepth 1 -name 'qwen2.5-coder-0.5b.gguf' 2>/dev/null | head -1)
[ -n "$second" ] || echo "bench/dryrun.sh: Qwen2.5-Coder-0.5B is not installed (scripts/setup --deps-only --model qwen2.5-coder-0.5b): no second family's rows" >&2


rows=()
rows+=("zstd -dc > /dev/null|$(seconds sh -c "zstd -dc '$corpus' > /dev/null")")
rounds=${BENCH_ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench/dryrun.sh: BENCH_ROUNDS must be a positive number" >&2; exit 2; }
: > "$out/rounds"
for round in $(seq "$rounds"); do
  echo "$round|replay flywheel|$(seconds "$replay" flywheel --out "$out/flywheel-$round" "$corpus")" >> "$out/rounds"
  for job in chips route push draft; do
    # The first round's reports are the ones compared below.
    dir="$out/dry-$job"; [ "$round" = 1 ] || dir="$out/dry-$job-$round"
    echo "$round|replay --dry-run --job $job|$(seconds "$replay" --dry-run --job "$job" --out "$dir" "$corpus")" >> "$out/rounds"
    if [ -n "$second" ]; then
      dir="$out/qwen-$job"; [ "$round" = 1 ] || dir="$out/qwen-$job-$round"
      echo "$round|same, $job, Qwen2.5-Coder-0.5B|$(seconds "$replay" --dry-run --job "$job" --model "$second" --out "$dir" "$corpus")" >> "$out/rounds"
    fi
  done
done
# No model file: the run says so with exit 4 (expected here); its sizes are the same.
rows+=("same, chips, no model file|$(seconds sh -c '"$1" --dry-run --job chips --model "$2/none.gguf" --out "$2/none-chips" "$3"; [ $? -eq 4 ]' \
  sh "$replay" "$out" "$corpus")")

bytes=$(zstd -dc "$corpus" | wc -c)
printf '%s\n' "${rows[@]}" > "$out/rows"
python3 - "$out" "$threads" "$bytes" <<'PY'
import json, os, statistics, sys
out, threads, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = [line.rsplit("|", 1) for line in open(f"{out}/rows").read().splitlines()]
rows = [(name, float(seconds)) for name, seconds in rows]
# The interleaved rounds: per round, the reader's time and each job's.
rounds = {}
for line in open(f"{out}/rounds").read().splitlines():
    round_, name, seconds = line.split("|")
    rounds.setdefault(int(round_), {})[name] = float(seconds)
names = list(rounds[1])
rows[1:1] = [(name, min(r[name] for r in rounds.values())) for name in names]
def of_reader(name):
    """The median over rounds of `name`'s time over the reader's in the same round."""
    return statistics.median(r[name] / r["replay flywheel"] for r in rounds.values())
floor = rows[0][1]
native = json.load(open(f"{out}/dry-chips/report.json"))
none = json.load(open(f"{out}/none-chips/report.json"))
chips = native["jobs"]["chips"]
print(f"corpus: {threads} threads, {native['corpus']['messages']} messages, {size / 1e6:.0f} MB of JSON Lines, "
      f"{chips['eligible']} chip-eligible screens")
print()
print(f"| stage | seconds (best of {len(rounds)} interleaved rounds where several) | × zstd -dc | × the reader (median of the rounds' ratios) |")
print("|---|---:|---:|---:|")
for name, seconds in rows:
    ratio = f"{of_reader(name):.2f}×" if name in names else ""
    print(f"| {name} | {seconds:.2f} | {seconds / floor:.1f}× | {ratio} |")
print()

def numbers(report):
    """The report without what differs between two dry runs of the same corpus: when, how long,
    and what was said of the model (one had a file, the other none)."""
    report = json.loads(json.dumps(report))
    for key in ("started", "seconds", "model_unavailable"):
        report["run"].pop(key, None)
    for key in ("sandbox", "model"):
        report.pop(key, None)
    return report
same = numbers(native) == numbers(none)
print(f"same numbers in both chips reports (a model file and none): {'yes' if same else 'NO'}")
reader = dict(rows)["replay flywheel"]
for job in ("chips", "route", "push", "draft"):
    print(f"{job}: {dict(rows)[f'replay --dry-run --job {job}'] / reader:.1f}× the reader")

# The second family: the same numbers as the default model's, and its time over the default's.
bench_rows = os.environ.get("BENCH_ROWS")
for job in ("chips", "route", "push", "draft"):
    name = f"same, {job}, Qwen2.5-Coder-0.5B"
    if name not in names:
        continue
    equal = numbers(json.load(open(f"{out}/dry-{job}/report.json"))) == numbers(json.load(open(f"{out}/qwen-{job}/report.json")))
    same &= equal
    ratio = statistics.median(r[name] / r[f"replay --dry-run --job {job}"] for r in rounds.values())
    print(f"{job} with Qwen2.5-Coder-0.5B: {ratio:.2f}× the default model's dry run, same numbers: {'yes' if equal else 'NO'}")
    if bench_rows:
        with open(bench_rows, "a") as rows_out:
            mine, theirs = min(r[name] for r in rounds.values()), min(r[f"replay --dry-run --job {job}"] for r in rounds.values())
            met = equal and ratio <= 1.10
            rows_out.write(f"dry run, {job}, Qwen2.5-Coder-0.5B ({threads} threads, median of {len(rounds)} rounds)\t{mine:.1f} s\t"
                           f"the same with SmolLM2-135M\t{theirs:.1f} s\t{ratio:.2f}×, same numbers: {'yes' if equal else 'no'}\t"
                           f"same numbers, ≤ 1.10×\t{'yes' if met else 'no'}\n")

sys.exit(0 if same else 1)
PY
