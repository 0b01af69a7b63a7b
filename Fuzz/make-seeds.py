#!/usr/bin/env python3
"""Writes libFuzzer seed files from JSON Lines on standard input (scripts/fuzz pipes the sample in).

usage: zstd -dc corpora/sample.jsonl.zst | Fuzz/make-seeds.py OUT-DIR [MAX-LEN]

Each seed is a 4-byte plan header (see FuzzPlan in Fuzz/FuzzHarness.swift), then JSONL: every line
on its own, and every thread's block of lines (its thread line and its messages, cut at a line end
to fit MAX-LEN, default 4096), so the reader's thread-before-message rule is exercised too. The
headers cycle through the plans: one chunk, small chunks, larger chunks, single bytes, a read
failure, a small maximum line length. Files are named by the SHA-1 of their bytes, as libFuzzer
names its own. Prints only how many seeds were written and their total size, never their bytes.
"""
import hashlib
import json
import os
import sys

HEADERS = [
    bytes([0, 0, 0, 0]),          # the whole payload in one chunk
    bytes([1, 7, 3, 11]),         # chunks of 8, 4 and 12 bytes
    bytes([2, 30, 90, 5]),        # chunks of 121, 361 and 21 bytes
    bytes([3, 0, 0, 0]),          # one byte per chunk
    bytes([1 | 4, 5, 9, 3]),      # chunks of 6, 10, 4 bytes; the source fails after 3 chunks
    bytes([2 | 8 | 0x40, 9, 4, 6]),  # larger chunks, a maximum line length of 4 * 32 + 9 + 1 = 138
]


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = sys.argv[1]
    max_len = int(sys.argv[2]) if len(sys.argv) == 3 else 4096
    os.makedirs(out, exist_ok=True)
    lines = [line for line in sys.stdin.buffer.read().split(b"\n") if line]
    payload_room = max_len - len(HEADERS[0])

    seeds = set()
    for index, line in enumerate(lines):
        if len(line) + 1 <= payload_room:
            seeds.add(HEADERS[index % len(HEADERS)] + line + b"\n")

    # Thread blocks: a thread line and the lines after it, up to the next thread line.
    blocks, current = [], []
    for line in lines:
        try:
            kind = json.loads(line).get("type")
        except (ValueError, AttributeError):
            kind = None
        if kind == "thread" and current:
            blocks.append(current)
            current = []
        current.append(line)
    if current:
        blocks.append(current)
    for index, block in enumerate(blocks):
        payload = b""
        for line in block:
            if len(payload) + len(line) + 1 > payload_room:
                break
            payload += line + b"\n"
        if payload:
            seeds.add(HEADERS[(index + 1) % len(HEADERS)] + payload)

    total = 0
    for seed in seeds:
        with open(os.path.join(out, hashlib.sha1(seed).hexdigest()), "wb") as file:
            file.write(seed)
        total += len(seed)
    print(f"seeds: {len(seeds)} files, {total} bytes ({len(lines)} lines, {len(blocks)} thread blocks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
