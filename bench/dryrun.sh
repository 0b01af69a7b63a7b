#!/usr/bin/env bash
# Times the dry run against decompression alone and against llama.cpp's own tokenizer, in one run.
#
#   zstd -dc > /dev/null                      the floor: decompression alone
#   replay flywheel                            the reader (decompress, split, parse, count)
#   replay --dry-run --job J, J in chips route push draft
#                                              the reader, each job's planning and exact prompt
#                                              sizes with the model's tokenizer (native BPE)
#   replay-bench dry-run --job chips
#                                              the same dry run with every text through
#                                              llama_tokenize, as before the native tokenizer
#   replay --dry-run --job J --model (none), J in chips push
#                                              the floor under any tokenizer: the same planning
#                                              with the approximate counts a run without a model
#                                              falls back to (exit 4), so no text is tokenized
# Prints one table of wall seconds and ratios to zstd -dc, "dry run vs llama.cpp tokenizer: N×",
# and whether both chips reports hold the same numbers (they must: the native tokenizer gives
# llama.cpp's exact ids, and only the run's start time and duration may differ).
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
  done
done
rows+=("same, chips, llama.cpp tokenizer|$(seconds "$replay_bench" dry-run --job chips --out "$out/llama-chips" "$corpus")")
# No model file: every count is the approximate one, and the run says so with exit 4 (expected here).
for job in chips push; do
  rows+=("same, $job, no tokenizer (approximate counts)|$(seconds sh -c '"$1" --dry-run --job "$2" --model "$3/none.gguf" --out "$3/approx-$2" "$4"; [ $? -eq 4 ]' \
    sh "$replay" "$job" "$out" "$corpus")")
done

bytes=$(zstd -dc "$corpus" | wc -c)
printf '%s\n' "${rows[@]}" > "$out/rows"
python3 - "$out" "$threads" "$bytes" <<'PY'
import json, statistics, sys
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
llama = json.load(open(f"{out}/llama-chips/report.json"))
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
dry = dict(rows)["replay --dry-run --job chips"]
slow = dict(rows)["same, chips, llama.cpp tokenizer"]
print(f"dry run vs llama.cpp tokenizer: {slow / dry:.1f}× ({slow:.2f} s -> {dry:.2f} s, chips)")

def numbers(report):
    """The report without what differs between two runs of the same dry run: when and how long."""
    report = json.loads(json.dumps(report))
    report["run"].pop("started", None)
    report["run"].pop("seconds", None)
    report.pop("sandbox", None)
    return report
same = numbers(native) == numbers(llama)
print(f"same numbers in both chips reports: {'yes' if same else 'NO'}")
reader = dict(rows)["replay flywheel"]
for job in ("chips", "push"):
    exact = dict(rows)[f"replay --dry-run --job {job}"]
    floor_ = dict(rows)[f"same, {job}, no tokenizer (approximate counts)"]
    print(f"{job}: {exact / reader:.1f}× the reader with exact counts, {floor_ / reader:.1f}× with none "
          f"(exact counts are {100 * (exact - floor_) / exact:.0f}% of the dry run)")

sys.exit(0 if same else 1)
PY
