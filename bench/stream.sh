#!/usr/bin/env bash
# Benchmarks replay's stages against a baseline in one run, and prints ratios.
#
#   reader:      `replay flywheel` (decompress, split, parse every line, count metadata) vs
#                `zstd -dc > /dev/null` (decompression alone), on the same generated corpus;
#   stream stage: `replay --dry-run --job chips` (the reader plus eligibility and exact token
#                sizes with the model's tokenizer) vs the same zstd baseline;
#   model stage: `replay --job chips --limit N` with the real model: screens answered per second.
# Peak memory of the stream stage is measured too (it must not grow with the corpus).
#
# usage: bench/stream.sh [THREADS (default 50000)] [MODEL_THREADS (default 40)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-50000}
model_threads=${2:-40}
out="$root/bench/out"
mkdir -p "$out"
cd "$root"
swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
corpus="$out/bench-$threads.jsonl.zst"
[ -f "$corpus" ] || "$replay" corpus generate --threads "$threads" --seed 7 "$corpus" >&2

seconds() {  # wall seconds of "$@", output discarded
  local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N)
  python3 -c "print($t1 - $t0)"
}
zstd_s=$(seconds sh -c "zstd -dc '$corpus' > /dev/null")
reader_s=$(seconds "$replay" flywheel --out "$out/flywheel" "$corpus")
dry_s=$(seconds "$replay" --dry-run --job chips --out "$out/dry" "$corpus")
# Peak memory over a tenth of the corpus and over all of it: flat means streaming works.
/usr/bin/time -f '%M' -o "$out/peak-tenth" "$replay" --dry-run --job chips --limit $((threads / 10)) --out "$out/peak" "$corpus" >/dev/null 2>&1
/usr/bin/time -f '%M' -o "$out/peak-full" "$replay" --dry-run --job chips --out "$out/peak" "$corpus" >/dev/null 2>&1
peak_kb=$(tail -1 "$out/peak-tenth")
peak_full_kb=$(tail -1 "$out/peak-full")
bytes=$(zstd -dc "$corpus" | wc -c)
model_s=$(seconds "$replay" --job chips --limit "$model_threads" --out "$out/model" "$corpus")

python3 - "$out" "$zstd_s" "$reader_s" "$dry_s" "$model_s" "$bytes" "$threads" "$peak_kb" "$peak_full_kb" <<'PY'
import json, sys
out = sys.argv[1]
zstd_s, reader_s, dry_s, model_s, size = map(float, sys.argv[2:7])
threads, peak_tenth, peak_full = sys.argv[7], sys.argv[8], sys.argv[9]
dry = json.load(open(f"{out}/dry/report.json"))
model = json.load(open(f"{out}/model/report.json"))
chips = model["jobs"]["chips"]
print(f"corpus: {threads} threads, {dry['corpus']['messages']} messages, {size/1e6:.0f} MB of JSON Lines, "
      f"{dry['jobs']['chips']['eligible']} chip-eligible screens")
print(f"reader (replay flywheel): {reader_s:.1f} s vs zstd -dc {zstd_s:.1f} s -> {reader_s/zstd_s:.1f}x ({size/1e6/reader_s:.0f} MB/s)")
print(f"stream stage (replay --dry-run --job chips): {dry_s:.1f} s vs zstd -dc {zstd_s:.1f} s -> {dry_s/zstd_s:.1f}x "
      f"({size/1e6/dry_s:.1f} MB/s, {int(threads)/dry_s:.0f} threads/s; tokenizing the eligible screens dominates)")
print(f"peak RSS of the dry run: {int(peak_tenth)//1024} MB over a tenth of the corpus, {int(peak_full)//1024} MB over all of it")
print(f"model stage (replay --job chips --limit {model['corpus']['threads_replayed']}): {chips['asked']} screens in {model_s:.0f} s "
      f"-> {chips['asked']/model_s:.2f} screens/s; host p50 {chips['latency_ms']['p50']:.0f} ms per request "
      f"(its share of batched evaluation), {chips['tokens']['in']//max(1,chips['asked'])} prompt + "
      f"{chips['tokens']['out']//max(1,chips['asked'])} output tokens each, batch {model['run']['batch_size']}")
replayed = model['corpus']['threads_replayed']
print(f"sizing vs replaying: the dry run covers {int(threads)/dry_s:.0f} threads/s, the model {replayed/model_s:.2f} threads/s "
      f"-> {int(threads)/dry_s/(replayed/model_s):.0f}x")
PY
