#!/usr/bin/env python3
"""Runs `emend` with the llama provider over the 50 notes in notes.jsonl and judges each
result twice: by Emend's fact guard (the command's exit status: 0 applied, 5 caught, 3 failed or timed out) and by
the human-written list beside each note ("keep": facts a rewrite must keep, alternatives
split by '|'; "neg": clauses that must stay negated). The human list is the referee: it is
written by a person from the notes alone, not derived from the guard.

Usage: check.py EMEND CONFIG_DIR[,CONFIG_DIR...] [--tools t1,t2] [--notes N] [--out FILE]
       check.py --rejudge RESULTS.jsonl   (an earlier run's results, judged again)
Each CONFIG_DIR is an XDG_CONFIG_HOME whose emend/config.toml sets a prompt style; its
basename names the column. Prints, per style: applied, caught (with the guard's reasons),
failed, and how many applied results still changed a fact by the human list.
"""
import json, os, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = {
    "friendly": ["rewrite", "--tone", "friendly"],
    "concise": ["rewrite", "--tone", "concise"],
    "key-points": ["summarize", "--format", "key-points"],
    "summary": ["summarize", "--format", "summary"],
}
REWRITES = {"friendly", "concise"}
NEGATION = re.compile(r"\b(not|never|no|none|nobody|nothing|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|"
                      r"wasn't|weren't|shouldn't|couldn't|wouldn't|unable|without|refuse[sd]?|declined?)\b|n't\b")
WEEKDAYS_MONTHS = ("monday tuesday wednesday thursday friday saturday sunday january february march april may june "
                   "july august september october november december").split()
# ("one" is left out: "the largest one" states no number.)
NUMBER_WORDS = {"zero": "0", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                "seven": "7", "eight": "8", "nine": "9", "ten": "10", "twelve": "12", "fourteen": "14",
                "thirty": "30", "ninety": "90", "twice": "2"}


def norm(text):
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    return re.sub(r"\s+", " ", text)


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def has(result, alternatives):
    r = norm(result)
    for alt in alternatives.split("|"):
        a = norm(alt)
        # "$49" states 49, "April 15th" states April 15.
        if re.search(r"(?<!\w)" + re.escape(a) + r"(?:st|nd|rd|th)?(?!\w)", r):
            return True
        # "5" and "five" are the same fact.
        for word, digits in NUMBER_WORDS.items():
            if a == digits and re.search(r"\b" + word + r"\b", r):
                return True
    return False


def numbers(text):
    found = set(re.findall(r"\d+(?:[.,:]\d+)*", text))
    r = norm(text)
    for word, digits in NUMBER_WORDS.items():
        if re.search(r"\b" + word + r"\b", r):
            found.add(digits)
    return {n.replace(",", "") for n in found}


def judge(note, tool, result):
    """The changed facts of an applied result by the human list: [] when it keeps them."""
    problems = []
    if tool in REWRITES:
        problems += ["drops '%s'" % k.split("|")[0] for k in note["keep"] if not has(result, k)]
    source_numbers = numbers(note["text"])
    for n in sorted(numbers(result) - source_numbers):
        # "4B" -> 4 and "Q3" -> 3 are parts of names the source has.
        if not re.search(r"\b\w*" + re.escape(n) + r"\w*\b", note["text"]):
            problems.append("adds number %s" % n)
    source = norm(note["text"])
    for name in WEEKDAYS_MONTHS:
        if re.search(r"\b" + name + r"\b", norm(result)) and name not in source:
            problems.append("adds '%s'" % name)
    for item in note["neg"]:
        topics = item["topic"].split("|")
        mentioned = [s for s in sentences(result) if any(norm(t) in norm(s) for t in topics)]
        if tool in REWRITES and not mentioned:
            problems.append("drops '%s'" % topics[0])
        for s in mentioned:
            if item["negated"] and not NEGATION.search(norm(s)):
                problems.append("negation of '%s' lost" % topics[0])
                break
    return problems


def run(emend, config, note, tool, timeout):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(note["text"] + "\n")
        path = f.name
    env = dict(os.environ, XDG_CONFIG_HOME=config)
    command = [emend] + TOOLS[tool] + ["--provider", "org.emend.llama", "--json", path]
    started = time.monotonic()
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.unlink(path)
        return {"outcome": "failed", "why": "timed out", "seconds": timeout}
    os.unlink(path)
    seconds = time.monotonic() - started
    if done.returncode in (0, 1):
        try:
            result = json.loads(done.stdout)["result"]
        except (ValueError, KeyError):
            return {"outcome": "failed", "why": "unreadable output", "seconds": seconds}
        return {"outcome": "applied", "result": result, "seconds": seconds}
    message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    # 5: a poor result, not applied (3 is a provider that failed or timed out: no result).
    if done.returncode == 5 and ("changes" in message or "drops" in message or "adds" in message or "negation" in message):
        return {"outcome": "caught", "why": message, "seconds": seconds}
    return {"outcome": "failed", "why": message or "exit %d" % done.returncode, "seconds": seconds}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    emend, configs = args[0], args[1].split(",")
    tools = ["friendly", "concise", "key-points"]
    limit, out, timeout = None, None, int(os.environ.get("EMEND_FACTS_TIMEOUT", "300"))
    rest = args[2:]
    while rest:
        flag, value, rest = rest[0], rest[1], rest[2:]
        if flag == "--tools": tools = value.split(",")
        elif flag == "--notes": limit = int(value)
        elif flag == "--out": out = value
        else: sys.exit("unknown option " + flag)
    notes = [json.loads(line) for line in open(os.path.join(HERE, "notes.jsonl"))][:limit]
    if emend == "--rejudge":
        # Judge the results of an earlier run (its --out file) again, by the current list.
        by_id = {note["id"]: note for note in notes}
        records = [json.loads(line) for line in open(configs[0])]
        for record in records:
            if record["outcome"] == "applied":
                record["changed"] = judge(by_id[record["note"]], record["tool"], record["result"])
        styles = sorted({r["style"] for r in records}, key=["plain", "keep-facts", "example", "default"].index)
        report(records, styles, sorted({r["tool"] for r in records}, reverse=True))
        return
    records = []
    for config in configs:
        style = os.path.basename(config.rstrip("/"))
        for note in notes:
            for tool in tools:
                record = run(emend, config, note, tool, timeout)
                record.update(style=style, note=note["id"], tool=tool)
                if record["outcome"] == "applied":
                    record["changed"] = judge(note, tool, record["result"])
                records.append(record)
                print("%-10s %-9s %-10s %-7s %s" % (style, note["id"], tool, record["outcome"],
                      "; ".join(record.get("changed") or []) or record.get("why", "")), file=sys.stderr, flush=True)
    if out:
        with open(out, "w") as f:
            for record in records:
                f.write(json.dumps(record) + "\n")
    report(records, configs, tools)


def report(records, configs, tools):
    styles = [os.path.basename(c.rstrip("/")) for c in configs]
    print("%-34s" % ("%d notes x %s" % (len({r['note'] for r in records}), ", ".join(tools))) +
          "".join("%14s" % s for s in styles))
    def row(label, count):
        print("%-34s" % label + "".join("%14s" % count(s) for s in styles))
    def of(style, **match):
        return [r for r in records if r["style"] == style and all(r.get(k) == v for k, v in match.items())]
    row("results", lambda s: len(of(s)))
    row("applied (guard passed)", lambda s: len(of(s, outcome="applied")))
    row("  of which changed a fact (human)", lambda s: sum(1 for r in of(s, outcome="applied") if r["changed"]))
    row("  applied and faithful", lambda s: sum(1 for r in of(s, outcome="applied") if not r["changed"]))
    row("caught by the guard (exit 5)", lambda s: len(of(s, outcome="caught")))
    row("failed otherwise", lambda s: len(of(s, outcome="failed")))
    row("mean seconds per result", lambda s: "%.1f" % (sum(r["seconds"] for r in of(s)) / max(1, len(of(s)))))
    for tool in tools:
        row("faithful applied, %s" % tool,
            lambda s, t=tool: "%d/%d" % (sum(1 for r in of(s, outcome="applied", tool=t) if not r["changed"]), len(of(s, tool=t))))
    kinds = {}
    for r in records:
        if r["outcome"] == "applied":
            for problem in r["changed"]:
                kind = problem.split(" '")[0].split(" number")[0].replace("negation of", "negation lost")
                kinds.setdefault(kind, {}).setdefault(r["style"], 0)
                kinds[kind][r["style"]] += 1
    for kind in sorted(kinds):
        row("  missed by the guard: %s" % kind, lambda s, k=kind: kinds[k].get(s, 0))


if __name__ == "__main__":
    main()
