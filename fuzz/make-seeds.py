#!/usr/bin/env python3
"""Writes the hand-written seeds of fuzz/corpus/ (run from anywhere: python3 fuzz/make-seeds.py).

An input is read by fuzz/abi_fuzzer.c as a program: its steps from the front, and what the
engine does inside callbacks from the back (a zero byte, or nothing left, always takes the
ordinary path: every callback, default options, answers given at once and correctly). Step
byte 0 ends the program. So a seed spells out only what differs: how the coordinator is
created, which tool starts, the steps; after the program the harness answers everything,
reverts (or stops) and checks that the documents are the originals.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def create(encoding=0, behavior=0, results=0, completion=0, provider=0, chunk=0):
    # mask (2, inverted), all-callbacks chance, delegate size, options size, encoding,
    # behavior ((b + 1) % 5 - 1), result-options chance + bits, completion limit,
    # provider limit, stream chunk, language chance, NULL options, NULL delegate
    return bytes([0, 0, 0, 0, 0, encoding, behavior % 5, 0, results, completion, provider, chunk, 0, 0, 0])


def start(tool, scope=0, prompt=None):
    # op 24 (start; step 0 ends the program), tool, scope, prompt chance [+ index],
    # provider chance, struct size, NULL chance
    p = bytes([255, prompt]) if prompt is not None else bytes([0])
    return bytes([24, tool, scope]) + p + bytes([0, 0, 0])


def run(wait=255):
    # run_until_idle: a byte >= 200 waits up to (b - 200) * 10 ms, else b % 20 ms
    return bytes([6, wait])


DISPATCH, STOP, ACCEPT, REVERT, UNDO, REDO = bytes([3]), bytes([8]), bytes([9]), bytes([10]), bytes([11]), bytes([12])


def show_original(on):
    return bytes([13, 1 if on else 0])


def suggestion(what, index=0):
    # op 14: count (NULL chance), index (chance + byte), then the call (what % 8) and its bytes
    return bytes([14, 0, 0, index, what, 0, 0, 0, 0])


def update_range(location_byte=0):
    # op 18: context pick, (dispatch), range mode/location/length, text (chance, count 0),
    # SIZE_MAX chance, reason, NULL-text chance
    return bytes([18, 0, 255 - 60, location_byte, 0, 0, 0, 0, 0, 0, 0, 0])


SEEDS = {
    "proofread-utf8": create() + start(0, 1) + run(),
    "proofread-utf16": create(encoding=1) + start(0, 1) + run(),
    "proofread-codepoints": create(encoding=2) + start(0, 0) + run(),
    "rewrite-friendly": create() + start(1) + run(),
    "rewrite-professional-utf16": create(encoding=1) + start(2, 1) + run(),
    "rewrite-concise": create() + start(3) + run(),
    "rewrite-described-upper": create() + start(4, 1, prompt=0) + run(),
    "summary": create() + start(5, 1) + run(),
    "key-points-rich": create(results=31) + start(6, 1) + run(),
    "list-limited": create(behavior=2) + start(7, 1) + run(),
    "table-rich": create(results=8 | 2) + start(8, 1) + run(),
    "compose": create() + start(9, 0, prompt=2) + run(),
    "rewrite-then-follow-up": create() + start(1, 1) + run() + start(10, 1, prompt=0) + run(),
    "short-timeouts": create(completion=140, provider=140) + start(1, 1) + DISPATCH * 3,
    "stop-while-streaming": create(chunk=100) + start(2, 1) + DISPATCH + STOP + DISPATCH,
    "rewrite-revert": create() + start(1, 1) + run() + REVERT + run(),
    "rewrite-undo-redo-show-original": create() + start(1, 1) + run() + UNDO + run() + REDO + run()
        + show_original(True) + run() + show_original(False) + run() + ACCEPT,
    "proofread-review": create() + start(0, 1) + run() + suggestion(0) + suggestion(1, 0) + suggestion(2, 1)
        + run() + suggestion(3) + suggestion(5) + suggestion(6) + UNDO + run() + ACCEPT,
    "proofread-edit-then-revert": create(encoding=1) + start(0, 1) + run() + update_range(3) + run() + REVERT + run(),
    "summary-limited-apply": create(behavior=2) + start(5, 1) + run() + REVERT + run(),
}

if __name__ == "__main__":
    out = os.path.join(HERE, "corpus")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            # step 0 ends the program; the zeros after it are what callbacks read (from the
            # back): every callback answered at once and correctly
            f.write(data + bytes(1) + bytes(96))
    print(f"{len(SEEDS)} seeds in {out}")
