#!/usr/bin/env python3
"""Memory of N language servers and the CLI with the checkers held once, in the per-user
checker service, beside one language server that runs its own checkers (EMEND_SERVICE=off,
how each `emend lsp` ran before the service): the proportional set size (PSS, from
/proc/PID/smaps_rollup: a page shared by k processes counts 1/k in each, so shared libraries
and the service's checkers are not counted twice) of every process involved, summed, after
each server has published the diagnostics of a document of English prose (every checker has
checked it, Harper's linter built), with the per-user caches written by an earlier run. The CLI's figure is the highest sum seen while an
`emend proofread` of the same text runs beside the servers (sampled every 5 ms).

Usage: memory.py --emend EMEND_CLI --providers DIR [--servers N (2)] [--bytes B (20000)]
Prints one line per setup and the ratio the issue's goal is about (N servers + the CLI
<= 1.1 x one server)."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from lsp_pipes import LspPipes

MAKE_TEXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli", "make_text.py")


def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Rss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def anon_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss_Anon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(root):
    """`root` and every process under it."""
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        if pid in found:
            continue
        found.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    stack += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return found


def pss_of(roots):
    pids = {pid for root in roots for pid in tree(root)}
    return sum(pss_kb(pid) for pid in pids), len(pids)


class Server(LspPipes):
    """`emend lsp` over pipes: initialize, open one document, wait for its diagnostics."""

    def __init__(self, emend, env):
        super().__init__([emend, "lsp"], env, say_prefix="   server says:")

    def wait(self, pred, timeout=900):
        return super().wait(pred, timeout, "memory: a server ended")[1]

    def check(self, uri, text):
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        self.wait(lambda m: m.get("id") == 1)
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                   "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}})
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri and m["params"]["diagnostics"])
        return len(message["params"]["diagnostics"])

    def stop(self):
        try:
            self.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
            self.send({"jsonrpc": "2.0", "method": "exit", "params": None})
            self.p.wait(timeout=30)
        except Exception:  # noqa: BLE001
            self.p.kill()


def service_pid(emend, env):
    status = subprocess.run([emend, "service", "status"], env=env, capture_output=True, text=True)
    for line in status.stdout.splitlines():
        if line.startswith("pid "):
            return int(line.split()[1].rstrip(","))
    return None


def cli_peak(emend, env, path, others):
    """The highest PSS sum of `others` and the running `emend proofread PATH` tree."""
    process = subprocess.Popen([emend, "proofread", path], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak, cli = 0, 0
    while process.poll() is None:
        own, _ = pss_of([process.pid])
        rest, _ = pss_of(others)
        if own > 0 and own + rest > peak:
            peak, cli = own + rest, own
        time.sleep(0.005)
    return peak, cli, process.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emend", required=True)
    ap.add_argument("--providers", required=True)
    ap.add_argument("--servers", type=int, default=2)
    ap.add_argument("--bytes", type=int, default=20000)
    args = ap.parse_args()

    work = tempfile.mkdtemp()
    os.makedirs(work + "/run", mode=0o700)
    path = os.path.join(work, "text.md")
    subprocess.run([sys.executable, MAKE_TEXT, str(args.bytes), path], check=True)
    with open(path) as f:
        text = f.read()
    uri = "file://" + path
    env = dict(os.environ, XDG_CONFIG_HOME=work + "/config", XDG_CACHE_HOME=work + "/cache", XDG_DATA_HOME=work + "/data",
               XDG_STATE_HOME=work + "/state", EMEND_PROVIDER_PATH=args.providers, XDG_RUNTIME_DIR=work + "/run")
    print(f"   {len(text.encode())} bytes of English Markdown; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")

    # The per-user caches (the machine's system names, the English dictionaries' stems file
    # every front end maps) written by an earlier run, as on any machine after its first run:
    # the process that writes one also holds what it read, once.
    subprocess.run([args.emend, "proofread", path], env=dict(env, EMEND_SERVICE="off"),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    # One server with its own checkers.
    alone = Server(args.emend, dict(env, EMEND_SERVICE="off"))
    found = alone.check(uri, text)
    one, count = pss_of([alone.p.pid])
    print(f"   1 emend lsp, its own checkers (EMEND_SERVICE=off)      {one / 1024:8.1f} MB PSS ({count} processes, {found} diagnostics)")
    alone.stop()

    # N servers and the CLI on one service.
    shared_env = dict(env, EMEND_SERVICE="on")
    servers = []
    for _ in range(args.servers):
        server = Server(args.emend, shared_env)
        server.check(uri, text)
        servers.append(server)
        if len(servers) == 1:
            service = service_pid(args.emend, shared_env)
            if service is None:
                sys.exit("memory: no checker service after the first server's check")
            first, count = pss_of([server.p.pid, service])
            print(f"   1 emend lsp + the checker service                       {first / 1024:8.1f} MB PSS ({count} processes)")
    roots = [s.p.pid for s in servers] + [service]
    for server in servers:
        print(f"   one emend lsp's own: {pss_kb(server.p.pid) / 1024:.1f} MB PSS, of which {anon_kb(server.p.pid) / 1024:.1f} MB "
              f"anonymous (its heap: what it read and built); {rss_kb(server.p.pid) / 1024:.1f} MB RSS")
    many, count = pss_of(roots)
    print(f"   {args.servers} emend lsp + the checker service                       {many / 1024:8.1f} MB PSS ({count} processes)")
    peak, cli, status = cli_peak(args.emend, shared_env, path, roots)
    print(f"   {args.servers} emend lsp + emend proofread + the service (peak)       {peak / 1024:8.1f} MB PSS "
          f"(the CLI's own tree {cli / 1024:.1f} MB; exit status {status})")
    print(f"   ratio: {args.servers} servers + the CLI / 1 server with its own checkers = {peak / one:.2f} (goal <= 1.1); "
          f"/ 1 server + the service = {peak / first:.2f}")
    for server in servers:
        server.stop()
    subprocess.run([args.emend, "service", "stop"], env=shared_env, capture_output=True)


if __name__ == "__main__":
    main()
