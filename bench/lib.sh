# Shared by the bench scripts (sourced, not run): the cached corpus and the wall-time helper.
#
# Expects `replay` (the release binary), `cache` (the bench cache directory) and `out` (the
# script's scratch directory) to be set by the script that sources it.

# The generated corpus of $1 threads (seed 7), made once into the cache and reused; prints its path.
# The name is the one every bench script shares; the partial name's .zst makes the generator compress.
bench_corpus() {
  local threads=$1
  local corpus="$cache/corpus-$threads-seed7.jsonl.zst"
  if [ ! -s "$corpus" ]; then
    local partial="$cache/.partial-$$-$threads-seed7.jsonl.zst"
    "$replay" corpus generate --threads "$threads" --seed 7 "$partial" >&2
    mv "$partial" "$corpus"
  fi
  printf '%s\n' "$corpus"
}

# Wall seconds of "$@", output discarded; fails the bench (naming the script) if the command fails.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  if ! "$@" >/dev/null 2>"$out/stderr"; then
    echo "bench/$(basename "$0"): failed: $*" >&2
    cat "$out/stderr" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.3f}')"
}

# The best (least) wall seconds of $1 runs of the rest: a sub-second row measured once moves by
# tens of percent with whatever else the machine does, the best of a few much less.
best_seconds() {
  local runs=$1 best="" t
  shift
  for _ in $(seq "$runs"); do
    t=$(seconds "$@")
    best=$(python3 -c "print(min(float('$t'), float('${best:-inf}')))")
  done
  python3 -c "print(f'{$best:.3f}')"
}
