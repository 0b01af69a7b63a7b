#!/usr/bin/env bash
# The audit's own cost (issue 16, point 2): `replay audit --limit N` over the sample corpus beside
# the same replay run without the audit, each the best of 3 wall times, release build. The
# difference is what strace, the allow-list's filter, the containment and the content scan add.
# Then the trace alone, the runs interleaved so that both see the same load: strace with the
# allow-list's expression (every call but the allowed ones, what the audit runs) against strace
# with the short list of named calls the audit traced before issue 16. Only times, exit codes and
# counts are printed.
#
# usage: bench/audit.sh [LIMIT (default 20)]     (BENCH_NO_BUILD=1 uses the release build as it is;
#                                                 BENCH_TRACE_ONLY=1 measures only the trace)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
limit=${1:-20}
[[ $limit =~ ^[0-9]+$ ]] || { echo "usage: bench/audit.sh [LIMIT]" >&2; exit 2; }
cd "$root"
[[ ${BENCH_NO_BUILD:-0} = 1 ]] || swift build -c release --product replay >&2
replay="$(swift build -c release --show-bin-path)/replay"
corpus="$root/corpora/sample.jsonl.zst"
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-bench-audit.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The expression the audit gives strace (AuditedCalls.traceExpression), read from the source.
allowlist=$(python3 - "$root/Sources/Audit/Auditor/AuditedCalls.swift" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
allowed = text[text.index("allowed: [String: String] = ["):text.index("public static let judged")]
print("trace=!" + ",".join("?" + name for name in sorted(set(re.findall(r'"([a-z0-9_]+)":', allowed)))))
PY
)
named="trace=socket,connect,bind,sendto,sendmsg,sendmmsg,open,openat,openat2,creat,rename,renameat,renameat2,truncate,ftruncate,unlink,unlinkat,rmdir,mkdir,mkdirat,link,linkat,symlink,symlinkat,mknod,mknodat,chdir,fchdir,execve,execveat,?chmod,?chown,?fchmod,?fchmodat,?fchmodat2,?fchown,?fchownat,?fremovexattr,?fsetxattr,?futimesat,?lchown,?lremovexattr,?lsetxattr,?removexattr,?removexattrat,?setxattr,?setxattrat,?utime,?utimensat,?utimes,?add_key,?io_uring_setup,?mq_open,?msgget,?request_key,?semget,?shmget,?kill,?rt_sigqueueinfo,?rt_tgsigqueueinfo,?tgkill,?tkill,?pidfd_send_signal"

python3 - "$replay" "$corpus" "$work" "$limit" "$allowlist" "$named" <<'PY'
import os, subprocess, sys, time
replay, corpus, work, limit, allowlist, named = sys.argv[1:7]
quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def best_of_3(name, command, expect):
    """The best of 3 runs of `command(run)`: each run is given its own --out (a finished run's
    directory is refused without --force)."""
    times = []
    for run in range(3):
        start = time.perf_counter()
        code = subprocess.run(command(run), **quiet).returncode
        times.append(time.perf_counter() - start)
        if code != expect:
            print(f"{name}: exit {code}, expected {expect}", file=sys.stderr)
            sys.exit(1)
    return min(times)

if os.environ.get("BENCH_TRACE_ONLY") != "1":
    plain = best_of_3("replay", lambda run: [replay, "--out", f"{work}/plain-{run}", "--limit", limit, corpus], 0)
    audited = best_of_3("replay audit", lambda run: [replay, "audit", "--out", f"{work}/audit-{run}", "--limit", limit, corpus], 0)
    print(f"| run (--limit {limit}, best of 3) | seconds |")
    print("|---|---:|")
    print(f"| replay | {plain:.2f} |")
    print(f"| replay audit | {audited:.2f} |")
    print(f"| the audit adds | {audited - plain:.2f} ({audited / plain:.2f}x) |")

# The trace alone, interleaved: run r of each expression back to back.
strace = "/usr/bin/strace"
expressions = {"allow-list (every call but the allowed)": allowlist, "named calls (before issue 16)": named}
times = {name: [] for name in expressions}
lines_of = {}
for run in range(3):
    for number, (name, expression) in enumerate(expressions.items()):
        out = f"{work}/trace-{run}-{number}"
        start = time.perf_counter()
        code = subprocess.run([strace, "-f", "--seccomp-bpf", "-qq", "-xx", "-yy", "-s", "16", "-e", expression,
                               "-o", out + ".log", "--", replay, "--out", out, "--limit", limit, corpus], **quiet).returncode
        times[name].append(time.perf_counter() - start)
        lines = sum(1 for _ in open(out + ".log", "rb"))
        subprocess.run(["rm", "-rf", out, out + ".log"])
        if code != 0:
            print(f"{name}: exit {code}", file=sys.stderr)
            sys.exit(1)
        lines_of[name] = lines
print()
print(f"| strace over replay (--limit {limit}, best of 3, interleaved) | seconds | trace lines |")
print("|---|---:|---:|")
for name in expressions:
    print(f"| {name} | {min(times[name]):.2f} | {lines_of[name]} |")
PY
