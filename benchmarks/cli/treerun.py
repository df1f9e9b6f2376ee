#!/usr/bin/env python3
"""Runs a command and reports its wall-clock time and the peak resident memory of its whole
process tree (the command and every process it starts, such as provider hosts and their
checkers), sampled from /proc every few milliseconds: the sum over the tree at each sample,
the highest sum kept. (GNU time's %M is the largest single process, not the tree.)

Usage: treerun.py OUT ERR LIMIT_SECONDS COMMAND...   prints "SECONDS PEAK_KB STATUS"
(STATUS 124: stopped after LIMIT_SECONDS)."""
import os
import subprocess
import sys
import time


def children(pid):
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return found


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss(root):
    total, stack, seen = 0, [root], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += rss_kb(pid)
        stack += children(pid)
    return total


def main():
    out, err, limit, command = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL)
        peak, status = 0, None
        while status is None:
            peak = max(peak, tree_rss(process.pid))
            if time.monotonic() - start > limit:
                process.kill()
                process.wait()
                status = 124
                break
            time.sleep(0.005)
            status = process.poll()
        elapsed = time.monotonic() - start
    print(f"{elapsed:.3f} {peak} {status}")


if __name__ == "__main__":
    main()
