#!/usr/bin/env bash
# Runs the benchmarks that hold replay to its throughput targets, in one go, and prints one table
# with a yes/no column against exactly those targets:
#
#   the reader (bench/reader.sh)        `replay flywheel` at most 2.0× `zstd -dc` (the floor), and at
#                                       least 10× faster than a Python script counting the same, with
#                                       equal counts; kept as regression bars
#   planning (bench/long-thread.sh)     each job's dry run of one thread of 200,000 messages at most
#                                       2× the same bytes read with their words (a dry run firing nowhere)
#   the model stage (bench/model.sh)    each job at least 85% of the kernels' ceiling (the fewest
#                                       tokens any engine must evaluate, at libllama's best rates, over
#                                       replay's time), the median of 3 interleaved rounds, with every
#                                       answer equal to the plain engine's; and each job ahead of
#                                       llama.cpp's own llama-server at its best slot count (its time
#                                       over replay's above 1.0, the median of the same rounds), every
#                                       one of the server's answers parsing (built once into the cache
#                                       by bench/llama-server-build.sh on the first run: minutes);
#                                       and a second family, Qwen2.5-Coder-0.5B (where installed:
#                                       scripts/setup --deps-only --model qwen2.5-coder-0.5b), each
#                                       job's answers equal to the plain engine's, its share of its
#                                       own ceiling stated
#   the dry run (bench/dryrun.sh)       each job's dry run with Qwen2.5-Coder-0.5B the same numbers
#                                       as with SmolLM2-135M, at most 1.10× its time (the native
#                                       tokenizer knows both families; the sizes are the phone's)
#
# Each script prints its own detailed table as it goes and appends its rows to $BENCH_ROWS. The
# other scripts in bench/ (identity, audit, sample, shards, sandbox, items) measure what
# docs/performance.md reports beside these; run them on their own. Numbers mean most on a quiet
# machine: the stages are CPU-bound, and a ratio is fair only when both sides ran under one load.
#
# usage: bench/all.sh [--quick]     (BENCH_MODEL_REQUESTS: requests per job for the model stage, default 50;
#                                    BENCH_SECOND_REQUESTS: the same for the second family, default 20)
#        --quick: smaller corpora, fewer requests, one round (a smoke run of the scripts, not a measurement)
# Exit status: 0 every target met, 1 a target not met or a script failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=0
[ "${1:-}" = "--quick" ] && quick=1

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
export BENCH_ROWS="$rows"
status=0
if [ "$quick" = 1 ]; then
  BENCH_ROUNDS=1 bench/reader.sh 2000 || status=1
  bench/long-thread.sh 20000 || status=1
  BENCH_ROUNDS=1 bench/dryrun.sh 2000 || status=1
  BENCH_ROUNDS=1 BENCH_SECOND_REQUESTS=3 bench/model.sh 6 || status=1
else
  bench/reader.sh || status=1
  bench/long-thread.sh || status=1
  bench/dryrun.sh || status=1
  BENCH_ROUNDS=3 BENCH_SECOND_REQUESTS=${BENCH_SECOND_REQUESTS:-20} bench/model.sh "${BENCH_MODEL_REQUESTS:-50}" || status=1
fi

echo
echo "## replay against its targets ($(nproc) cores, $(date -u +%Y-%m-%d), load before: $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| stage | replay | against | its time | ratio | target | met |"
echo "|---|---:|---|---:|---:|---|:-:|"
while IFS=$'\t' read -r stage ours peer peer_time ratio target met; do
  echo "| $stage | $ours | $peer | $peer_time | $ratio | $target | $met |"
done < "$rows"
if grep -q $'\tno$' "$rows"; then
  echo
  echo "bench/all.sh: some targets are not met (rows marked no)" >&2
  status=1
fi
exit "$status"
