"""Where Harper's CPU goes on the benchmark's 1 MB (benchmarks/cli/make_text.py 1000000): the
text cut into the server's pieces and linted by a fresh harper-py linter in this process, with
Harper's default rules, without some, with none, or with only some; CPU seconds of the lints
(time.process_time; the linter's build is said apart) and how many lints each rule found.

Why a fresh linter (run this once per choice): Harper answers text it has linted before from
its chunk cache at about a tenth of the cost, so a second choice on the same text in the same
process would read far too cheap.

Usage: python3 -I benchmarks/harper/rules.py CHOICE [--deps DIR] [--bytes N]
  CHOICE: default | none | off:NAME,NAME... | only:NAME,NAME...
Figures: providers/harper/README.md, "Where Harper's time goes"."""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main(arguments):
    if not arguments:
        print(__doc__.split("Usage: ")[1].split("Figures")[0].strip(), file=sys.stderr)
        return 2
    choice, deps, size = arguments[0], os.path.join(ROOT, ".deps", "python"), 1_000_000
    rest = arguments[1:]
    while rest:
        option = rest.pop(0)
        if option == "--deps" and rest:
            deps = rest.pop(0)
        elif option == "--bytes" and rest:
            size = int(rest.pop(0))
        else:
            print(f"rules.py: unknown option {option}", file=sys.stderr)
            return 2
    sys.path[:0] = [deps, os.path.join(ROOT, "providers", "harper"), os.path.join(ROOT, "providers", "process")]
    import harper  # noqa: PLC0415
    from harper_server import PIECE_CHARS, pieces  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "text.txt")
        subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "cli", "make_text.py"), str(size), path], check=True)
        with open(path, encoding="utf-8") as file:
            text = file.read()
    started = time.process_time()
    linter = harper.Linter(harper.Dialect.AMERICAN)
    build = time.process_time() - started
    default = linter.get_default_lint_config()
    if choice == "none":
        linter.set_lint_config({name: False for name in default})
    elif choice.startswith("off:"):
        off = set(choice[4:].split(","))
        linter.set_lint_config({name: False for name in off if name in default})
    elif choice.startswith("only:"):
        only = set(choice[5:].split(","))
        linter.set_lint_config({name: name in only for name in default})
    elif choice != "default":
        print(f"rules.py: unknown choice {choice}", file=sys.stderr)
        return 2
    config = linter.get_lint_config()
    on = sum(1 for name, value in default.items() if (value if config.get(name) is None else config[name]))
    parts = pieces(text, PIECE_CHARS)
    found = {}
    started, wall = time.process_time(), time.monotonic()
    for _, piece in parts:
        for rule, lints in linter.organized_lints(piece, language="plaintext").items():
            if lints:
                found[rule] = found.get(rule, 0) + len(lints)
    cpu = time.process_time() - started
    print(json.dumps({"choice": choice if len(choice) < 80 else choice[:77] + "...", "rules_on": on,
                      "bytes": len(text.encode("utf-8")), "pieces": len(parts), "build_cpu_s": round(build, 2),
                      "lint_cpu_s": round(cpu, 2), "lint_wall_s": round(time.monotonic() - wall, 1),
                      "load": os.getloadavg()[0], "lints": sum(found.values()),
                      "by_rule": dict(sorted(found.items(), key=lambda item: -item[1]))}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
