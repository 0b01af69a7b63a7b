#!/usr/bin/env bash
# Benchmarks replay's model stage against llama-cpp-python answering the same screens one after the
# other, per job, in one run, and prints the ratios.
#
#   replay:  `replay-bench model` — each job's first N requests of the sample, planned exactly as
#            a replay plans them, answered by the engine with every speed-up on, at the runner's
#            call size (`ReplayRunner.requestsPerCall`); only answering is timed.
#   plain:   the same with every speed-up off (`--engine plain`): its answers must be identical.
#   peer:    bench/peer_llama_cpp_python.py — the same requests rebuilt from the corpus in Python,
#            answered with Llama.create_completion (temperature 0, the same GBNF grammar), one by one,
#            on the same libllama.so and model. Its prompts must have the same digests as replay's.
#
#   floor:   bench/kernel_rates.py — what libllama's kernels charge per token at their best here
#            (a prompt's rows in one evaluation; one token of each of many sequences), times the
#            fewest prompt tokens any engine must evaluate (the nodes of the trie of the prompts'
#            tokens: only a shared prefix can be evaluated once) and the output tokens: no engine
#            on these kernels answers the same requests faster, so peer time / floor is the
#            highest ratio any engine could show (the "ceiling" column). "if outputs were known"
#            charges every output token the prompt rate instead, as if each output were drafted
#            perfectly and checked in one evaluation: a bound even speculative decoding cannot pass.
#            The rates are measured before the jobs and again after them; the floor takes the
#            faster of each, and the table's header says how far the host's speed moved between
#            the two (a shared host's drifts over minutes, which no ratio here can tell from the engines).
#
# Nothing but digests and counts is printed or written; the digest files live in a private
# temporary directory removed at exit. Every digest is keyed (HMAC-SHA-256 under a fresh key made
# in that directory, mode 0600, given to both replay and the peer), so the two sides can be
# compared while a digest says nothing to anyone who does not hold the key: a plain SHA-256 of an
# output would confirm a guessed output (a route answer is one name of a short list). The peer's Python package comes from the llama-cpp-python
# sdist pinned in scripts/deps.env, unpacked once into the cache (no second llama.cpp build).
#
# usage: bench/model.sh [REQUESTS_PER_JOB (default 50)] [JOBS (default "chips route push draft")]
#        BENCH_ROUNDS=R runs every job's three sides R times, round after round (bench/all.sh: 3);
#        each figure is then the median of the rounds' own, and every round's answers must equal.
#        BENCH_PLAIN=0 skips the plain run; BENCH_PEER_THREADS sets the peer's threads (default: nproc).
#        BENCH_BUSY=N runs N busy processes (a CPU-bound loop each) beside both sides for the
#        whole bench, as on a shared CI runner or cluster node: then no kernel rates or floor
#        (the kernels' best is a quiet machine's) and no plain run, only replay against the peer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
requests=${1:-50}
jobs=${2:-chips route push draft}
rounds=${BENCH_ROUNDS:-1}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench/model.sh: BENCH_ROUNDS must be a positive number" >&2; exit 2; }
corpus="$root/corpora/sample.jsonl.zst"
# shellcheck disable=SC1091
. "$root/scripts/deps.env"
cache=${REPLAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/replay}
lib="$cache/llama.cpp-$LLAMA_CPP_PYTHON_VERSION/lib"
peer="$cache/llama-cpp-python-$LLAMA_CPP_PYTHON_VERSION-src"
model=$(find "$cache" -path '*smollm2-*' -name '*.gguf' 2>/dev/null | sort | tail -1)
[ -n "$model" ] && [ -d "$lib" ] || { echo "bench/model.sh: run scripts/setup first (no model or llama.cpp in $cache)" >&2; exit 2; }

work=$(mktemp -d)
chmod 700 "$work"
trap 'rm -rf "$work"' EXIT
(umask 077 && head -c 32 /dev/urandom > "$work/digest-key")

if [ ! -f "$peer/llama_cpp/llama.py" ]; then
  echo "bench/model.sh: unpacking llama-cpp-python $LLAMA_CPP_PYTHON_VERSION's Python package (once)" >&2
  python3 -m pip install --quiet scikit-build-core cmake numpy jinja2 diskcache >&2
  python3 -m pip download --quiet --no-deps --no-binary :all: --no-build-isolation \
    "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$work/sdist" >&2
  tar -xzf "$work/sdist/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" -C "$work/sdist"
  rm -rf "$peer.tmp" && mkdir -p "$peer.tmp"
  cp -R "$work/sdist/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/llama_cpp" "$peer.tmp/"
  rm -rf "$peer" && mv "$peer.tmp" "$peer"
fi
python3 -c 'import numpy, jinja2, diskcache' 2>/dev/null || python3 -m pip install --quiet numpy jinja2 diskcache >&2

swift build -c release --product replay-bench >&2
replay="$(swift build -c release --show-bin-path)/replay-bench"
peer_threads=${BENCH_PEER_THREADS:-$(nproc)}
load() { cut -d' ' -f1 /proc/loadavg; }

busy=${BENCH_BUSY:-0}
[[ $busy =~ ^[0-9]+$ ]] || { echo "bench/model.sh: BENCH_BUSY must be a number" >&2; exit 2; }
busy_pids=()
if [ "$busy" -gt 0 ]; then
  for _ in $(seq "$busy"); do
    python3 -c 'while True: pass' &
    busy_pids+=("$!")
  done
  trap 'kill "${busy_pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
  echo "bench/model.sh: $busy busy processes beside both sides (${busy_pids[*]})" >&2
  BENCH_PLAIN=0
  : > "$work/rates"
else
  echo "bench/model.sh: the kernels' best rates (load $(load))" >&2
  PYTHONPATH="$peer" LLAMA_CPP_LIB_PATH="$lib" python3 "$root/bench/kernel_rates.py" --model "$model" \
    --threads "$(nproc)" > "$work/rates"
fi

for round in $(seq "$rounds"); do
  for job in $jobs; do
    echo "bench/model.sh: round $round of $rounds, $job (load $(load))" >&2
    at="$work/$job.$round"
    load > "$at.load"
    "$replay" model --job "$job" --requests "$requests" --digests "$work/digest-key" "$corpus" 2> "$at.replay"
    if [ "${BENCH_PLAIN:-1}" != 0 ]; then
      "$replay" model --job "$job" --requests "$requests" --digests "$work/digest-key" --engine plain "$corpus" 2> "$at.plain"
    fi
    PYTHONPATH="$peer" LLAMA_CPP_LIB_PATH="$lib" python3 "$root/bench/peer_llama_cpp_python.py" \
      --job "$job" --requests "$requests" --threads "$peer_threads" --model "$model" \
      --digest-key "$work/digest-key" "$corpus" > "$at.peer"
    load >> "$at.load"
  done
done
if [ "$busy" -eq 0 ]; then
  # Again at the end: a shared host's speed drifts over minutes, and a floor measured at another
  # moment than the runs it bounds says more about the host than about the engines.
  echo "bench/model.sh: the kernels' best rates again (load $(load))" >&2
  PYTHONPATH="$peer" LLAMA_CPP_LIB_PATH="$lib" python3 "$root/bench/kernel_rates.py" --model "$model" \
    --threads "$(nproc)" > "$work/rates.end"
fi

python3 - "$work" "$requests" "$jobs" "$busy" "$rounds" <<'PY'
import os, statistics, sys
work, requests, jobs, busy, rounds = sys.argv[1], sys.argv[2], sys.argv[3].split(), int(sys.argv[4]), int(sys.argv[5])
def read_rates(path):
    found = {}
    if os.path.exists(path):
        for line in open(path):
            name, milliseconds, arrangement = line.rstrip("\n").split("\t")
            found[name] = (float(milliseconds) / 1000, arrangement)
    return found
rates, rates_end = read_rates(f"{work}/rates"), read_rates(f"{work}/rates.end")
# The floor takes the faster of the two measurements of each rate (the kernels' best); the drift
# between them is printed with the table.
drift = {}
for name, (seconds, _) in rates_end.items():
    if name in rates:
        drift[name] = seconds / rates[name][0] - 1
        if seconds < rates[name][0]:
            rates[name] = rates_end[name]

def read(path):
    lines = {"prompt": [], "output": [], "summary": None}
    if not os.path.exists(path):
        return None
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        if fields[0] in ("prompt", "output"):
            lines[fields[0]].append(fields[1:])
        elif fields[0] == "summary":
            lines["summary"] = fields[1:]
    return lines

def shown(value, form):
    return "–" if value is None else form.format(value)

rows, failed = [], False
for job in jobs:
    per_round, same_total, agree_total, loads, n = [], 0, 0, [], 0
    plain_ran = True
    for round_ in range(1, rounds + 1):
        at = f"{work}/{job}.{round_}"
        replay, peer, plain = (read(f"{at}.{k}") for k in ("replay", "peer", "plain"))
        if replay is None or peer is None or replay["summary"] is None or peer["summary"] is None:
            print(f"{job}, round {round_}: a run failed", file=sys.stderr); failed = True; break
        if replay["prompt"] != peer["prompt"]:
            differ = sum(a != b for a, b in zip(replay["prompt"], peer["prompt"])) + abs(len(replay["prompt"]) - len(peer["prompt"]))
            print(f"{job}: the peer's requests differ from replay's ({differ} prompt digests): no comparison", file=sys.stderr)
            failed = True; break
        n = int(replay["summary"][1])
        replay_s, peer_s = float(replay["summary"][2]), float(peer["summary"][2])
        agree_total += sum(a[1] == b[1] for a, b in zip(replay["output"], peer["output"]))
        if plain is not None and plain["summary"] is not None:
            same_total += sum(a[1:] == b[1:] for a, b in zip(replay["output"], plain["output"]))
        else:
            plain_ran = False
        loads.append(" → ".join(open(f"{at}.load").read().split()))
        stats = dict(field.split("=", 1) for field in replay["summary"][5].split(",") if "=" in field)
        prefill_tokens, output_tokens = int(stats["prefill-tokens"]), int(replay["summary"][4])
        fewest = int(stats["fewest-prompt-tokens"])
        floor = fewest * rates["prefill"][0] + output_tokens * rates["generate"][0] if rates else None
        oracle = (fewest + output_tokens) * rates["prefill"][0] if rates else None
        per_round.append(dict(replay=replay_s, peer=peer_s, floor=floor, oracle=oracle, prefill=prefill_tokens,
                              fewest=fewest, output=output_tokens))
    else:
        # Each figure is the median of the rounds' own: a round's ratio has both sides measured
        # minutes apart at most, so a host whose speed drifts moves both alike.
        median = lambda f: statistics.median(f(r) for r in per_round)
        ratio = median(lambda r: r["peer"] / r["replay"])
        share = median(lambda r: r["floor"] / r["replay"]) if rates else None
        ceiling = median(lambda r: r["peer"] / r["floor"]) if rates else None
        oracle = median(lambda r: r["peer"] / r["oracle"]) if rates else None
        identical = f"{same_total}/{n * rounds}" if plain_ran else "–"
        failed |= plain_ran and same_total != n * rounds
        shares = " ".join(f"{r['floor'] / r['replay']:.0%}" for r in per_round) if rates else "–"
        first = per_round[0]
        rows.append(dict(job=job, n=n, replay=median(lambda r: r["replay"]), peer=median(lambda r: r["peer"]),
                         ratio=ratio, share=share, shares=shares, ceiling=ceiling, oracle=oracle,
                         tokens=f"{first['prefill']} / {first['fewest']}", output=first["output"],
                         floor=median(lambda r: r["floor"]) if rates else None, identical=identical,
                         agree=f"{agree_total}/{n * rounds}", plain_ran=plain_ran, load="; ".join(loads)))

beside = f", {busy} busy processes beside both sides" if busy else ""
print(f"model stage, each job's first {requests} requests of corpora/sample.jsonl.zst, SmolLM2-135M Q4_1, {os.cpu_count()} cores{beside}; "
      f"{rounds} interleaved round{'s' if rounds > 1 else ''}, each figure the median of the rounds' own")
if rates:
    print(f"kernels at their best: {rates['prefill'][0] * 1000:.2f} ms per prompt token ({rates['prefill'][1]}), "
          f"{rates['generate'][0] * 1000:.2f} ms per generated token ({rates['generate'][1]})")
if drift:
    worst = max(drift.values(), key=abs)
    print("kernel rates at the end against the start: " + ", ".join(f"{name} {change:+.0%}" for name, change in drift.items())
          + (f" (the host's speed moved {abs(worst):.0%} during the bench: the ceiling column is only as good as that)"
             if abs(worst) > 0.10 else ""))
print("| job | requests | replay s | llama-cpp-python s | ratio | of the ceiling (each round) | prompt tokens evaluated / fewest possible | output tokens | floor s | ceiling | if outputs were known | answers = plain | answers = peer | load |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for r in rows:
    print(f"| {r['job']} | {r['n']} | {r['replay']:.1f} | {r['peer']:.1f} | **{r['ratio']:.2f}×** | {shown(r['share'], '{:.0%}')} ({r['shares']}) | "
          f"{r['tokens']} | {r['output']} | {shown(r['floor'], '{:.1f}')} | {shown(r['ceiling'], '{:.2f}×')} | "
          f"{shown(r['oracle'], '{:.2f}×')} | {r['identical']} | {r['agree']} | {r['load']} |")
rows_file = os.environ.get("BENCH_ROWS")
if rows_file and rates:
    # One row per job for bench/all.sh's single table, against issue 36's target: at least 85% of
    # the kernels' ceiling (the floor's time over replay's), every answer equal to the plain engine's.
    with open(rows_file, "a") as out:
        for r in rows:
            met = r["share"] >= 0.85 and r["plain_ran"] and r["identical"] == f"{r['n'] * rounds}/{r['n'] * rounds}"
            out.write(f"model stage, {r['job']} ({r['n']} requests, median of {rounds} rounds)\t{r['replay']:.1f} s\t"
                      f"the kernels' floor (llama-cpp-python: {r['peer']:.1f} s, {r['ratio']:.2f}× slower)\t{r['floor']:.1f} s\t"
                      f"{r['share']:.1%} of the ceiling, answers = plain {r['identical']}\t≥ 85%, all answers equal\t"
                      f"{'yes' if met else 'no'}\n")
sys.exit(1 if failed else 0)
PY
