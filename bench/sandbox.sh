#!/usr/bin/env bash
# What the sandbox costs per system call, in one run, side by side: SandboxProbe --time-calls N
# times read(2) of /dev/null (first in the filter's allow-list) and getppid(2) (near its end),
# unconfined (the floor), under Landlock alone, and under Landlock with the seccomp allow-list;
# the ratio is confined to unconfined.
#
# The kernel (5.11+) caches, per system call, whether a filter allows it whatever its arguments,
# so calls on the plain allow-list should cost the same confined and unconfined; the ratio says.
# Best of 5 each, interleaved. Run on a quiet machine.
#
# usage: bench/sandbox.sh [CALLS (default 5000000)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
calls=${1:-5000000}
cd "$root"
swift build -c release --product SandboxProbe >&2
probe="$(swift build -c release --show-bin-path)/SandboxProbe"
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-sandbox-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

declare -A best
for round in 1 2 3 4 5; do
  for mode in unconfined landlock seccomp; do
    rm -rf "$work/allowed" "$work/outside"; mkdir -p "$work/allowed" "$work/outside"
    case $mode in
      unconfined) flags=(--unconfined) ;;
      landlock) flags=(--no-seccomp) ;;
      seccomp) flags=() ;;
    esac
    while read -r name value; do
      key="$mode/${name#ns-per-}"
      if [ -z "${best[$key]:-}" ] || awk "BEGIN{exit !($value < ${best[$key]})}"; then best[$key]=$value; fi
    done < <("$probe" --allowed "$work/allowed" --outside "$work/outside" --port 9 --time-calls "$calls" "${flags[@]}" 2>/dev/null | grep '^ns-per-')
  done
done
printf '%-10s %12s %12s %12s %10s\n' call unconfined landlock seccomp ratio
for call in read getppid; do
  u=${best[unconfined/$call]}; l=${best[landlock/$call]}; s=${best[seccomp/$call]}
  printf '%-10s %10.1f ns %10.1f ns %10.1f ns %9.2fx\n' "$call" "$u" "$l" "$s" "$(awk "BEGIN{print $s/$u}")"
done
