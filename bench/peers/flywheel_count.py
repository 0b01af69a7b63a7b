"""What a user would script instead of `replay flywheel`: count chip, routing, draft and push
usage from the export's metadata, the plain way (zstd -dc piped in, json.loads per line).

usage: python3 flywheel_count.py CORPUS.jsonl.zst [COUNTS.json]
Writes counts (numbers only) to COUNTS.json if given; never prints a text from the corpus.
"""
import json
import re
import subprocess
import sys
from collections import Counter

TAPPABLE = {"choose", "pick", "ask", "form", "slide"}
counts = Counter()
members, group, chip_screen, thread_id = [], False, False, None


def eligible(screen):
    """A say ending in a question as the screen's last say, and nothing to tap."""
    says = [node["say"] for node in screen if "say" in node]
    if not says or any(kind in TAPPABLE for node in screen for kind in node):
        return False
    return says[-1].rstrip()[-1:] in ("?", "\uff1f")


def names_member(text, names):
    """An @Name not inside a word, for one of the group's members (case-insensitive)."""
    return any(re.search(r"(?<!\w)@" + re.escape(name) + r"(?!\w)", text, re.IGNORECASE) for name in names if name)


zstd = subprocess.Popen(["zstd", "-dc", sys.argv[1]], stdout=subprocess.PIPE)
for line in zstd.stdout:
    record = json.loads(line)
    kind = record.get("type")
    if kind == "thread":
        thread_id, chip_screen = record["id"], False
        group = "group" in record
        members = [m["name"] for m in record["group"]["members"]] if group else []
        counts["threads"] += 1
    elif kind == "message" and record.get("thread") == thread_id:
        counts["messages"] += 1
        meta = record.get("meta") or {}
        if record["from"] != "person":
            push = record.get("push")
            if push:
                counts["push." + (push["kind"] if push["kind"] in ("reply", "handoff", "quote") else "other")] += 1
            chip_screen = eligible(record.get("screen") or [])
            continue
        if chip_screen:
            counts["chips.eligible"] += 1
            counts["chips.suggested"] += meta.get("via") == "suggested"
        chip_screen = False
        if group:
            routing = meta.get("group") or {}
            if names_member(record.get("text") or "", members):
                counts["route.named"] += 1
            elif routing.get("routed") == "on-device":
                counts["route.guessed_kept"] += 1
            elif routing.get("routed") is None:
                counts["route.lead" if routing.get("to") is None else "route.chose"] += 1
            counts["route.messages"] += 1
        if meta.get("offline"):
            counts["draft.offline"] += 1
            counts["draft.used"] += bool(meta.get("draft_ticks"))
zstd.wait()
if len(sys.argv) > 2:
    with open(sys.argv[2], "w") as out:
        json.dump(counts, out, sort_keys=True)
