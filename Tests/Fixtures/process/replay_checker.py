#!/usr/bin/env python3
"""A checker that proposes exactly the edits it is given, for tests of what Emend does with
them (providers/process/PROTOCOL.md): the edits that testers saw damage files, replayed
through a real plugin and the `emend` command.

    python3 -u replay_checker.py EDITS.json

EDITS.json is a list of {"original", "replacement", "category", "rule", "explanation"}; every
occurrence of an original inside the selection and clear of protected text becomes an edit.
An entry with a "context" (a text holding the original once) proposes its edit only where
the whole context stands, as a pattern rule of LanguageTool reads its neighbours' words.
"""

import json
import sys


def main(path):
    with open(path, encoding="utf-8") as f:
        table = json.load(f)
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        request = json.loads(raw)
        if "cancel" in request:
            continue
        data = request["text"].encode("utf-8")
        start, end = request["selection"]
        found = []
        for entry in table:
            needle = entry["original"].encode("utf-8")
            context = entry.get("context", entry["original"]).encode("utf-8")
            within = context.find(needle)
            at = data.find(context, start)
            while at >= 0 and at + len(context) <= end:
                index = at + within
                stop = index + len(needle)
                if not any(index < p_end and p_start < stop for p_start, p_end in request.get("protected") or []):
                    found.append((index, stop, entry))
                at = data.find(context, at + 1 if "context" in entry else stop)
        last = -1
        for index, stop, entry in sorted(found, key=lambda item: (item[0], item[1])):
            if index < last:
                continue
            last = stop
            edit = {"start": index, "end": stop, "replacement": entry["replacement"],
                    "explanation": entry.get("explanation", ""), "category": entry.get("category", "spelling"),
                    "rule": entry.get("rule", "REPLAY")}
            out.write(json.dumps({"id": request["id"], "edit": edit}).encode("ascii") + b"\n")
        out.write(json.dumps({"id": request["id"], "done": True}).encode("ascii") + b"\n")
        out.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
