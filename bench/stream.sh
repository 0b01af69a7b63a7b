#!/usr/bin/env bash
# Benchmarks replay's two stages against baselines, in one run, and prints ratios.
#
#   stream stage: `replay --dry-run` (read, decompress, parse, eligibility, tokenize, size) vs
#                 `zstd -dc > /dev/null` (decompression alone), on the same generated corpus.
#   model stage:  `replay --limit N` with the real model: eligible screens answered per second.
#
# usage: bench/stream.sh [THREADS (default 50000)] [MODEL_THREADS (default 300)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-50000}
model_threads=${2:-300}
out="$root/bench/out"
mkdir -p "$out"
cd "$root"
swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
corpus="$out/bench-$threads.jsonl.zst"
[ -f "$corpus" ] || "$replay" corpus generate --threads "$threads" --seed 7 "$corpus"

now() { date +%s.%N; }
best_of_3() {  # prints the fastest of three wall times of "$@", in seconds
  local best=""
  for _ in 1 2 3; do
    local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
    best=$(python3 -c "b='$best'; t=$t1-$t0; print(t if not b or t < float(b) else b)")
  done
  echo "$best"
}
zstd_s=$(best_of_3 sh -c "zstd -dc '$corpus' > /dev/null")
dry_s=$(best_of_3 "$replay" --dry-run --out "$out/dry" "$corpus")
bytes=$(zstd -dc "$corpus" | wc -c)
peak_kb=$( { /usr/bin/time -f '%M' "$replay" --dry-run --out "$out/dry" "$corpus" >/dev/null 2>/dev/null; } 2>&1 | tail -1 || echo "?")

t0=$(now)
"$replay" --limit "$model_threads" --out "$out/model" "$corpus" >/dev/null 2>&1
t1=$(now)
python3 - "$out/model/report.json" "$t0" "$t1" "$zstd_s" "$dry_s" "$bytes" "$threads" "$peak_kb" <<'PY'
import json, sys
report, t0, t1, zstd_s, dry_s, size, threads, peak = sys.argv[1], *map(float, sys.argv[2:7]), sys.argv[8]
chips = json.load(open(report))["jobs"]["chips"]
seconds = t1 - t0
print(f"corpus: {int(threads)} threads, {size/1e6:.1f} MB of JSON Lines")
print(f"stream stage: replay --dry-run {dry_s:.2f} s vs zstd -dc {zstd_s:.2f} s  ->  ratio {dry_s/zstd_s:.1f}x "
      f"({size/1e6/dry_s:.0f} MB/s; peak RSS {peak} KB)")
print(f"model stage: {chips['asked']} chips requests in {seconds:.1f} s  ->  {chips['asked']/seconds:.2f} screens/s "
      f"(host p50 {chips['latency_ms']['p50']:.0f} ms per request, batch {json.load(open(report))['run']['batch_size']})")
PY
