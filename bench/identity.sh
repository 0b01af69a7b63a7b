#!/usr/bin/env bash
# What identifying the corpus costs (issue 18, point 5): every byte of every file a run replays is
# hashed (HMAC-SHA-256 under the run key) before the first line is replayed. Measured side by
# side in one run, for a 20,000-thread and a 57,344-thread generated corpus:
#
#   sha256sum FILE                       the floor a user would reach for
#   openssl dgst -sha256 FILE            OpenSSL (SHA-NI where the CPU has it)
#   replay --dry-run --limit 1, 1 thread  a run's start: the tokenizer loaded, one thread replayed
#   replay --dry-run --limit 1 FILE      the same start, plus identifying FILE whole
#   replay --dry-run --job chips FILE    the whole dry run (identity included)
#
# The identity's cost is the difference of the two --limit 1 runs (both replay one thread; only
# the file hashed differs). Each time is the best of 3 runs, wall and CPU (user + system); the
# page cache holds the corpus (each command reads it once beforehand), as it does for a run's
# reader after the identity's pass. Only times, sizes and ratios are printed.
#
# usage: bench/identity.sh [THREADS...] (default 20000 57344)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- 20000 57344
for threads in "$@"; do [[ $threads =~ ^[0-9]+$ ]] || { echo "usage: bench/identity.sh [THREADS...]" >&2; exit 2; }; done
cache=${XDG_CACHE_HOME:-$HOME/.cache}/replay/bench
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-bench-identity.XXXXXX")
trap 'rm -rf "$work"' EXIT

cd "$root"
swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
source "$root/bench/lib.sh"

corpora=()
for threads in "$@"; do
  corpora+=("$(bench_corpus "$threads")")
done
"$replay" corpus generate --threads 1 --seed 7 "$work/one.jsonl.zst" >&2
# One run key for every run (a per-user key would be made in the user's state directory).
head -c 32 /dev/urandom > "$work/run-key"
chmod 600 "$work/run-key"

python3 - "$replay" "$work" "${corpora[@]}" <<'PY'
import os, resource, shutil, subprocess, sys, time
replay, work, corpora = sys.argv[1], sys.argv[2], sys.argv[3:]
quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
key = ["--run-key", os.path.join(work, "run-key")]
one = os.path.join(work, "one.jsonl.zst")

def best_of_3(make_command):
    """The best wall time of three runs and the CPU time (user + system, children) of that run."""
    runs = []
    for run in range(3):
        command = make_command(run)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, **quiet)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        runs.append((wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
    return min(runs)

def out(name):
    path = os.path.join(work, name)
    shutil.rmtree(path, ignore_errors=True)
    return path

summary = []
for corpus in corpora:
    threads = int(os.path.basename(corpus).split("-")[1])
    size = os.path.getsize(corpus)
    subprocess.run(["cat", corpus], check=True, **quiet)   # into the page cache
    rows = [
        ("sha256sum FILE (the floor)", best_of_3(lambda _: ["sha256sum", corpus])),
        ("openssl dgst -sha256 FILE", best_of_3(lambda _: ["openssl", "dgst", "-sha256", corpus])),
        ("replay --dry-run --limit 1, a 1-thread corpus", best_of_3(lambda r: [replay, "--dry-run", "--limit", "1", *key, "--out", out(f"start-{r}"), one])),
        ("replay --dry-run --limit 1 FILE", best_of_3(lambda r: [replay, "--dry-run", "--limit", "1", *key, "--out", out(f"limit-{r}"), corpus])),
        ("replay --dry-run --job chips FILE", best_of_3(lambda r: [replay, "--dry-run", "--job", "chips", *key, "--out", out(f"dry-{r}"), corpus])),
    ]
    times = dict(rows)
    (start, start_cpu), (limit, limit_cpu) = times["replay --dry-run --limit 1, a 1-thread corpus"], times["replay --dry-run --limit 1 FILE"]
    identity, identity_cpu = max(0.0, limit - start), max(0.0, limit_cpu - start_cpu)
    floor, floor_cpu = times["sha256sum FILE (the floor)"]
    dry, dry_cpu = times["replay --dry-run --job chips FILE"]
    print(f"corpus: {threads:,} threads, {size / 1e6:.1f} MB zstd (the bytes hashed); best of 3; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    print()
    print("| stage | wall | × sha256sum | CPU (user+sys) | × sha256sum |")
    print("|---|---:|---:|---:|---:|")
    for name, (seconds, cpu) in rows:
        print(f"| `{name}` | {seconds:.3f} s | {seconds / floor:.1f}× | {cpu:.3f} s | {cpu / max(floor_cpu, 1e-3):.1f}× |")
    print(f"| **identity (the two --limit 1 runs' difference)** | **{identity:.3f} s** | **{identity / floor:.1f}×** | "
          f"**{identity_cpu:.3f} s** | **{identity_cpu / max(floor_cpu, 1e-3):.1f}×** |")
    print()
    print(f"identity: {size / 1e6 / max(identity_cpu, 1e-3):.0f} MB/s of CPU; {100 * identity / dry:.1f}% of the dry run's wall time, "
          f"{100 * identity_cpu / dry_cpu:.1f}% of its CPU")
    print()
    summary.append((threads, identity, identity_cpu, floor, floor_cpu, dry, dry_cpu))

PY
