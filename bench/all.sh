#!/usr/bin/env bash
# Runs every benchmark in one go and prints one table: each stage of replay beside what a user
# would otherwise run (or the floor, `zstd -dc`), as a ratio against the targets issue 19 set.
#
#   bench/reader.sh   the reader: `replay flywheel` vs a Python counting script and `zstd -dc`,
#                     beside the parse floor (libzstd and simdjson on two threads, nothing decoded)
#   bench/dryrun.sh   the dry run: `replay --dry-run` per job vs `zstd -dc` and llama.cpp's tokenizer
#   bench/long-thread.sh  the dry run per job on one thread of 200,000 messages vs the reader
#   bench/identity.sh the corpus identity (every byte hashed) vs the dry run and `sha256sum`
#   bench/model.sh    the model stage: `replay bench-model` per job vs llama-cpp-python
#   bench/audit.sh    `replay audit --limit 9` vs the same replay unaudited (and what each part adds)
#   bench/sample.sh   what a user waits for: the whole sample replayed with every job, and its peak memory
#   BENCH_BUSY=2 bench/model.sh   the model stage again with two busy processes beside both sides
#
# Each script prints its own detailed table to stdout as it goes and appends its summary rows to
# $BENCH_ROWS; this prints them together at the end. Numbers mean most on a quiet machine: the
# stages are CPU-bound, and a ratio is only fair when both sides ran under the same load.
#
# usage: bench/all.sh [--quick]     (BENCH_MODEL_REQUESTS: requests per job for the model stage, default 50)
#        --quick: smaller corpora and fewer requests (a smoke run, not a measurement)
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
  bench/reader.sh 2000 || status=1
  bench/dryrun.sh 2000 || status=1
  bench/long-thread.sh 20000 || status=1
  bench/identity.sh 2000 || status=1
  bench/model.sh 6 || status=1
  bench/audit.sh 2 || status=1
  BENCH_NO_BUILD=1 bench/sample.sh 3 || status=1
  BENCH_BUSY=2 bench/model.sh 3 chips || status=1
else
  bench/reader.sh || status=1
  bench/dryrun.sh || status=1
  bench/long-thread.sh || status=1
  bench/identity.sh || status=1
  bench/model.sh "${BENCH_MODEL_REQUESTS:-50}" || status=1
  BENCH_NO_BUILD=1 bench/audit.sh 9 || status=1
  BENCH_NO_BUILD=1 bench/sample.sh || status=1
  BENCH_BUSY=2 bench/model.sh "${BENCH_MODEL_REQUESTS:-50}" || status=1
fi

echo
echo "## replay against the alternatives ($(nproc) cores, $(date -u +%Y-%m-%d), load before: $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| stage | replay | against | its time | ratio | target | met |"
echo "|---|---:|---|---:|---:|---|:-:|"
while IFS=$'\t' read -r stage ours peer peer_time ratio target met; do
  echo "| $stage | $ours | $peer | $peer_time | $ratio | $target | $met |"
done < "$rows"
if grep -q $'\tno$' "$rows"; then
  echo
  echo "bench/all.sh: some targets are not met (rows marked no)" >&2
fi
exit "$status"
