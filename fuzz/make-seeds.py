#!/usr/bin/env python3
"""Writes the hand-written seeds of fuzz/corpus/ (run from anywhere: python3 fuzz/make-seeds.py).

An input is read by fuzz/abi_fuzzer.c as a program; a zero byte (and the end of the input)
always takes the ordinary path: every callback, default options, answers given at once and
correctly. So a seed only spells out what differs: how the coordinator is created, which tool
starts, a few steps; after the input ends the harness answers everything, reverts (or stops)
and checks that the documents are the originals.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def create(encoding=0, behavior=0, results=0, completion=0, provider=0, chunk=0):
    # mask (2, inverted), all-callbacks chance, delegate size, options size, encoding,
    # behavior ((b + 1) % 5 - 1), result-options chance + bits, completion limit,
    # provider limit, stream chunk, language chance, NULL options, NULL delegate
    return bytes([0, 0, 0, 0, 0, encoding, behavior % 5, 0, results, completion, provider, chunk, 0, 0, 0])


def start(tool, scope=0, prompt=None):
    # op 0, tool, scope, prompt chance [+ index], provider chance, struct size, NULL chance
    p = bytes([255, prompt]) if prompt is not None else bytes([0])
    return bytes([0, tool, scope]) + p + bytes([0, 0, 0])


def run(ms=19):
    return bytes([6, ms])


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
    "short-timeouts": create(completion=140, provider=140) + start(1, 1) + bytes([3, 3, 3]),
    "stop-while-streaming": create(chunk=100) + start(2, 1) + bytes([3, 8, 3]),
}

if __name__ == "__main__":
    out = os.path.join(HERE, "corpus")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(SEEDS)} seeds in {out}")
