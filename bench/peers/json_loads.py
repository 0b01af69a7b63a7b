"""The floor a user's Python starts from: json.loads on every line of standard input.

usage: zstd -dc CORPUS.jsonl.zst | python3 json_loads.py
Prints the number of lines parsed (to stderr), never their content.
"""
import json
import sys

lines = 0
for line in sys.stdin.buffer:
    if line.strip():
        json.loads(line)
        lines += 1
print(f"json_loads: {lines} lines", file=sys.stderr)
