#!/usr/bin/env python3
"""Runs a command and reports its wall-clock time, the peak resident memory of its whole
process tree (the command and every process it starts, such as provider hosts and their
checkers), sampled from /proc every few milliseconds: the sum over the tree at each sample,
the highest sum kept (GNU time's %M is the largest single process, not the tree), and the CPU
time (user + system) of the command and the children it waited for.

The end is taken when the command is reaped (wait4 on a thread of its own), not at the next
sample: a 5 ms sampling sleep, which a loaded machine stretches, added up to its length to
every wall-clock figure.

Usage: treerun.py OUT ERR LIMIT_SECONDS COMMAND...   prints "SECONDS PEAK_KB STATUS CPU_SECONDS"
(STATUS 124: stopped after LIMIT_SECONDS)."""
import os
import subprocess
import sys
import threading
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
        ended = {}
        reaped = threading.Event()

        def reap():
            _, wait_status, usage = os.wait4(process.pid, 0)
            ended["time"] = time.monotonic()
            ended["status"] = os.waitstatus_to_exitcode(wait_status)
            ended["cpu"] = usage.ru_utime + usage.ru_stime
            reaped.set()

        threading.Thread(target=reap, daemon=True).start()
        peak, stopped = 0, False
        while True:
            peak = max(peak, tree_rss(process.pid))
            if reaped.wait(0.005):
                break
            if time.monotonic() - start > limit:
                process.kill()
                reaped.wait()
                stopped = True
                break
        # Reaped here, not by Popen.
        process.returncode = ended["status"]
        elapsed = ended["time"] - start
    print(f"{elapsed:.3f} {peak} {124 if stopped else ended['status']} {ended['cpu']:.3f}")


if __name__ == "__main__":
    main()
