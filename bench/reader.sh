#!/usr/bin/env bash
# The reader's ratios, measured side by side in one run (issue 19, point 3).
#
#   zstd -dc > /dev/null                     the floor: decompression alone
#   simdjson_floor                           the parse floor: libzstd on one thread while simdjson
#                                            (the fastest JSON parser known) validates every line on
#                                            a second, replay's two-thread shape with no record
#                                            decoded and nothing counted (bench/peers/)
#   zstd -dc | python3 json_loads.py         json.loads on every line (bench/peers/json_loads.py)
#   python3 flywheel_count.py                what a user would script: the same chip, routing,
#                                            draft and push counts from meta (bench/peers/)
#   replay flywheel                          the reader and the flywheel counts
#
# The five commands run in turn, round after round (BENCH_ROUNDS, default 5): each time printed is
# the best of its rounds, and each ratio the median of the rounds' own ratios, so that a host
# whose speed drifts over minutes (shared machines do, by 20-50%) slows both sides of a ratio
# alike. Peak RSS of `replay flywheel` is measured at 1k, 10k and 100k threads (it must stay
# flat). Corpora are generated once (seed 7) into a cache outside the clone. A check on stderr
# compares the Python script's counts with replay's metrics.json (messages, chips, routing,
# drafts, pushes). Only counts, times and sizes are printed.
#
# usage: bench/reader.sh [THREADS (default 57344)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${1:-57344}
[[ $threads =~ ^[0-9]+$ ]] || { echo "usage: bench/reader.sh [THREADS]" >&2; exit 2; }
[[ ${BENCH_ROUNDS:-5} =~ ^[1-9][0-9]*$ ]] || { echo "bench/reader.sh: BENCH_ROUNDS must be a positive number" >&2; exit 2; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/replay/bench
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-bench-reader.XXXXXX")
trap 'rm -rf "$work"' EXIT

cd "$root"
swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"

# shellcheck source=bench/lib.sh
source "$root/bench/lib.sh"
# simdjson_floor, built once into the cache from simdjson's single-file release (pysimdjson's
# sdist, pinned in scripts/deps.env) and the system's libzstd; rebuilt when its source changes.
# shellcheck disable=SC1091
. "$root/scripts/deps.env"
floor_source="$root/bench/peers/simdjson_floor.cpp"
floor_key=$(sha256sum "$floor_source" | cut -c1-12)
floor_bin="$cache/simdjson-$PYSIMDJSON_VERSION/simdjson_floor-$floor_key"
if [[ ! -x $floor_bin ]]; then
  echo "bench/reader.sh: building the simdjson floor (once)" >&2
  src="$cache/simdjson-$PYSIMDJSON_VERSION/pysimdjson-$PYSIMDJSON_VERSION/simdjson"
  mkdir -p "$cache/simdjson-$PYSIMDJSON_VERSION"
  if [[ ! -s $src/simdjson.cpp ]]; then
    python3 - "$PYSIMDJSON_VERSION" "$PYSIMDJSON_SHA256" "$work/pysimdjson.tar.gz" <<'FETCH'
import hashlib, json, sys, urllib.request
version, digest, path = sys.argv[1:]
project = json.load(urllib.request.urlopen("https://pypi.org/pypi/pysimdjson/json"))
url = next(u["url"] for u in project["releases"][version] if u["packagetype"] == "sdist")
data = urllib.request.urlopen(url).read()
if hashlib.sha256(data).hexdigest() != digest:
    sys.exit(f"bench/reader.sh: pysimdjson {version}'s sdist does not have the digest in scripts/deps.env")
open(path, "wb").write(data)
FETCH
    tar -xzf "$work/pysimdjson.tar.gz" -C "$cache/simdjson-$PYSIMDJSON_VERSION" \
      "pysimdjson-$PYSIMDJSON_VERSION/simdjson/simdjson.cpp" "pysimdjson-$PYSIMDJSON_VERSION/simdjson/simdjson.h"
  fi
  "${CXX:-clang++}" -O3 -std=c++17 -DNDEBUG -I "$src" "$floor_source" "$src/simdjson.cpp" -lzstd -lpthread -o "$floor_bin.partial"
  mv "$floor_bin.partial" "$floor_bin"
fi

corpus=$(bench_corpus "$threads")
rss_sizes=(1024 10240 102400)
for size in "${rss_sizes[@]}"; do bench_corpus "$size" > /dev/null; done

python3 - "$root" "$replay" "$corpus" "$work" "$threads" "$floor_bin" "${rss_sizes[@]/#/$cache/corpus-}" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
root, replay, corpus, work, threads, floor_bin = sys.argv[1:7]
rss_corpora = [path + "-seed7.jsonl.zst" for path in sys.argv[7:]]
peers = os.path.join(root, "bench", "peers")
quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def timed(command):
    """The wall time of one run, and its CPU time (user + system, all processes of the command)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, shell=isinstance(command, str), check=True, **quiet)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

def out(name):
    return os.path.join(work, name)

commands = [
    ("zstd -dc > /dev/null", lambda _: f"zstd -dc '{corpus}' > /dev/null"),
    ("zstd -dc \\| python3 json_loads.py", lambda _: f"zstd -dc '{corpus}' | python3 '{peers}/json_loads.py'"),
    ("python3 flywheel_count.py (meta counts)",
     lambda run: ["python3", f"{peers}/flywheel_count.py", corpus, out(f"counts-{run}.json")]),
    ("replay flywheel", lambda run: [replay, "flywheel", "--out", out(f"flywheel-{run}"), corpus]),
    ("simdjson_floor (zstd + simdjson, two threads)", lambda _: [floor_bin, corpus]),
]
rounds = int(os.environ.get("BENCH_ROUNDS", "5"))
times = [[] for _ in commands]  # per command, (wall, cpu) of each round
for run in range(rounds):
    for index, (_, make_command) in enumerate(commands):
        times[index].append(timed(make_command(run)))
rows = [(name, min(times[index])) for index, (name, _) in enumerate(commands)]

def median_ratio(numerator, denominator):
    """The median over rounds of one command's wall time over another's in the same round."""
    return statistics.median(a[0] / b[0] for a, b in zip(times[numerator], times[denominator]))

floor_ratio = median_ratio(3, 0)    # replay flywheel over zstd -dc
parse_floor_ratio = median_ratio(4, 0)  # zstd + simdjson over zstd -dc
python_ratio = median_ratio(2, 3)   # the Python script over replay flywheel

def peak_rss_kb(path, name):
    report = out(name + ".time")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report, replay, "flywheel", "--out", out(name), path],
                   check=True, **quiet)
    return int(open(report).read().split()[-1])

rss = [(path, peak_rss_kb(path, f"rss-{index}")) for index, path in enumerate(rss_corpora)]

# The counts must agree, or the comparison means nothing (counts only, to stderr).
metrics = json.load(open(out("flywheel-0") + "/metrics.json"))
cells = {m["metric"]: m["cells"]["all"][0] for m in metrics["metrics"]}
ours = json.load(open(out("counts-0.json")))
pairs = [("messages", metrics["totals"]["messages"], ours.get("messages", 0)),
         ("chips.suggested", cells["chips.suggested"]["numerator"], ours.get("chips.suggested", 0)),
         ("chips eligible replies", cells["chips.suggested"]["denominator"], ours.get("chips.eligible", 0))]
for name in ("route.named", "route.guessed_kept", "route.chose", "route.lead", "draft.used"):
    pairs.append((name, cells[name]["numerator"], ours.get(name, 0)))
pairs += [("group person messages", cells["route.named"]["denominator"], ours.get("route.messages", 0)),
          ("offline messages", cells["draft.used"]["denominator"], ours.get("draft.offline", 0)),
          ("push.kind.reply", cells["push.kind.reply"]["numerator"], ours.get("push.reply", 0))]
agree = all(a == b for _, a, b in pairs)
for name, a, b in pairs:
    print(f"check: {name}: replay {a}, python {b}{'' if a == b else '  <- DIFFERENT'}", file=sys.stderr)
print(f"check: counts {'agree' if agree else 'DIFFER'}", file=sys.stderr)

size = int(subprocess.run(f"zstd -dc '{corpus}' | wc -c", shell=True, check=True, capture_output=True).stdout)
floor, floor_cpu = rows[0][1]
load = os.getloadavg()[0]
print(f"corpus: {threads} threads, {metrics['totals']['messages']} messages, {size / 1e6:.0f} MB of JSON Lines, "
      f"{os.path.getsize(corpus) / 1e6:.0f} MB zstd; best of {rounds} interleaved rounds, ratios the median of the "
      f"rounds' own, {os.cpu_count()} cores, "
      f"load average {load:.1f} at the end (other work on the machine slows the two-thread reader most)")
print()
print("| stage | wall | vs zstd -dc | CPU (user+sys) | vs zstd -dc |")
print("|---|---:|---:|---:|---:|")
for index, (name, (seconds, cpu)) in enumerate(rows):
    ratio = median_ratio(index, 0)
    print(f"| `{name}` | {seconds:.2f} s | {ratio:.2f}x | {cpu:.2f} s | {cpu / floor_cpu:.1f}x |")
(python_s, python_cpu), (replay_s, replay_cpu) = rows[2][1], rows[3][1]
print(f"| **replay flywheel vs the Python counting script** | | **{python_ratio:.1f}x faster** | | "
      f"**{python_cpu / replay_cpu:.1f}x less CPU** |")
for path, kb in rss:
    label = os.path.basename(path).split("-")[1]
    print(f"| peak RSS of `replay flywheel`, {int(label):,} threads | {kb / 1024:.0f} MB | | | |")
print()
print(f"the parse floor: decompressing and validating every line with simdjson on two threads takes "
      f"{parse_floor_ratio:.2f}x zstd -dc; replay flywheel's {floor_ratio:.2f}x is that plus decoding every record "
      f"by the export format's rules and counting it")
print(f"bars: >= 10x faster than the Python script ({python_ratio:.1f}x wall), "
      f"<= 2.0x zstd -dc ({floor_ratio:.2f}x); RSS flat ({', '.join(f'{kb // 1024} MB' for _, kb in rss)}); "
      f"counts {'agree' if agree else 'DIFFER'}")

rows_file = os.environ.get("BENCH_ROWS")
if rows_file:
    # Rows for bench/all.sh's single table, against the bars issue 36 keeps for the reader.
    with open(rows_file, "a") as out:
        out.write(f"reader: replay flywheel ({int(threads):,} threads, median of {rounds} rounds)\t{replay_s:.2f} s\t"
                  f"zstd -dc (the floor)\t{floor:.2f} s\t{floor_ratio:.2f}× the floor\t≤ 2.0×\t"
                  f"{'yes' if floor_ratio <= 2.0 else 'no'}\n")
        out.write(f"reader: replay flywheel ({int(threads):,} threads, median of {rounds} rounds)\t{replay_s:.2f} s\t"
                  f"a Python script counting the same\t{python_s:.2f} s\t{python_ratio:.1f}× faster, counts "
                  f"{'equal' if agree else 'DIFFERENT'}\t≥ 10×, counts equal\t{'yes' if python_ratio >= 10 and agree else 'no'}\n")
PY
