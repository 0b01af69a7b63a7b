#!/usr/bin/env bash
# What a run's item outcomes (items.json.zst, docs/items.md) cost, in one run, side by side:
#
#   items.json.zst           replay's columns, zstd level 9 (what every run writes)
#   items.jsonl              what a user would otherwise write: one JSON object per item
#   items.jsonl.zst          the same, zstd -9
#   floor                    the keys alone: 8 bytes an item and 8 a thread, which no
#                            coding can shrink (they are keyed hashes)
#
# and the dry run's wall time and peak memory beside the reader's alone (replay flywheel),
# whose difference bounds what keeping and writing the items costs.
#
# The corpus is the one bench/dryrun.sh generates (seed 7), reused from the bench cache.
# usage: bench/items.sh [THREADS (default 57344)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-57344}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/replay/bench"
mkdir -p "$cache"
out=$(mktemp -d "${TMPDIR:-/tmp}/replay-items-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
cd "$root"
swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
source "$root/bench/lib.sh"
corpus=$(bench_corpus "$threads")

measure() {  # "wall_seconds peak_kib" of "$@"
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null 2>"$out/stderr" || { cat "$out/stderr" >&2; exit 1; }
  cat "$out/time"
}
read -r dry_s dry_kib < <(measure "$replay" --dry-run --out "$out/dry" "$corpus")
read -r fly_s fly_kib < <(measure "$replay" flywheel --out "$out/fly" "$corpus")

python3 - "$out/dry/items.json.zst" "$out" "$dry_s" "$dry_kib" "$fly_s" "$fly_kib" <<'PY'
import json, os, subprocess, sys
path, work, dry_s, dry_kib, fly_s, fly_kib = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
raw = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
table = json.loads(raw)
n, columns = table["count"], table["columns"]
jsonl = os.path.join(work, "items.jsonl")
with open(jsonl, "w") as f:
    for i in range(n):
        item = {"key": columns["key"][i], "thread": table["threads"][columns["thread"][i]],
                "job": table["jobs"][columns["job"][i]], "build": table["builds"][columns["build"][i]],
                "model": table["models"][columns["model"][i]], "flags": columns["flags"][i],
                "fallback": columns["fallback"][i], "host_us": columns["host_us"][i], "device_us": columns["device_us"][i],
                "tokens_in": columns["tokens_in"][i], "tokens_out": columns["tokens_out"][i],
                "quality": {k: v[i] for k, v in columns["quality"].items() if v[i] is not None}}
        f.write(json.dumps(item, separators=(",", ":")) + "\n")
subprocess.run(["zstd", "-q", "-9", "-f", jsonl, "-o", jsonl + ".zst"], check=True)
ours, plain, plainz = os.path.getsize(path), os.path.getsize(jsonl), os.path.getsize(jsonl + ".zst")
floor = 8 * n + 8 * len(table["threads"])
print(f"{n} items in {len(table['threads'])} threads")
print(f"{'file':<18}{'bytes':>12}{'per item':>10}{'vs ours':>9}{'vs floor':>10}")
for name, size in [("items.json.zst", ours), ("items.jsonl", plain), ("items.jsonl.zst", plainz), ("floor (keys)", floor)]:
    print(f"{name:<18}{size:>12}{size / n:>10.1f}{size / ours:>8.2f}x{size / floor:>9.2f}x")
print(f"a million items: {ours / n * 1e6 / 2**20:.1f} MiB on disk")
print(f"dry run {dry_s:.2f} s, {dry_kib / 1024:.0f} MiB peak; reader alone (flywheel) {fly_s:.2f} s, {fly_kib / 1024:.0f} MiB peak")
print(f"memory above the reader: {(dry_kib - fly_kib) * 1024 / n:.0f} bytes an item at most (planning and the items together)")
PY
