#!/usr/bin/env python3
"""LanguageTool's rules (LingoTweaker, PyPI lingotweaker) behind the process provider's
JSON-lines protocol.

One process serves every request of a plugin instance, and the registry makes one instance
per process, so all coordinators of a process share it. It keeps one engine per language
(lt_py.Engine is immutable and thread-safe), built on the first request in that language:
English takes about 400 MiB and a second or more, German several, so nothing is built before
it is needed. The request's language picks the engine: "en-GB" -> en-GB, "de" -> de-DE,
"fr-CA" -> fr; a language whose lingotweaker-data-<lang> package is not installed is an
error naming the package.

Each match inside the selection and clear of protected text becomes an edit (LanguageTool's
offsets are UTF-8 bytes already): its first suggestion is the replacement (matches without
one are left out), its message the explanation, its rule id the rule, and the category is
"spelling" for the dictionary speller's flags, "typography" for LanguageTool's TYPOGRAPHY category (Emend keeps
those off unless [proofreading] typography = true), "style" for style, redundancy and plain
English, "punctuation" for LanguageTool's PUNCTUATION category, "grammar" for the rest; the
suggestions after the first are listed in the explanation ("Other suggestions: “a”, “b”.").
Emend maps every category to its fixed ones and cleans the message's markup (EmendProofreading's
FixedCategory and PlainExplanation). See providers/process/PROTOCOL.md.

    python3 -u -I lingotweaker_server.py [--deps DIR]

--deps names the directory setup.sh installed lingotweaker into (default: .deps/lingotweaker
at the repository root). Lines on stderr go to Emend's log.
"""

import importlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The shared loop: beside this file when installed (lib/emend/), in providers/process/ in the
# clone (python3 -I leaves this file's directory off sys.path; it goes again once imported).
sys.path[:0] = [HERE, os.path.join(HERE, "..", "process")]
from checker_loop import OBJECT_REPLACEMENT, CheckerLoop, log, touches  # noqa: E402

del sys.path[:2]

DEFAULT_DEPS = os.path.normpath(os.path.join(HERE, "..", "..", ".deps", "lingotweaker"))

# The engine tag for a bare language (LingoTweaker wants a variant for these).
DEFAULT_VARIANTS = {"en": "en-US", "de": "de-DE", "pt": "pt-PT", "ca": "ca-ES", "nl": "nl-NL"}
# Regions LingoTweaker knows per language; any other region falls back to the default variant.
KNOWN_VARIANTS = {
    "en": {"US", "GB", "AU", "CA", "NZ", "ZA"},
    "de": {"DE", "AT", "CH"},
    "pt": {"PT", "BR", "AO", "MZ"},
}
# How many further suggestions an explanation lists (a speller's list can run to hundreds).
MAX_OTHER_SUGGESTIONS = 4
STYLE_CATEGORIES = {"STYLE", "REDUNDANCY", "PLAIN_ENGLISH", "COLLOQUIALISMS", "REGISTER", "REPETITIONS_STYLE", "GENDER_NEUTRALITY"}


def engine_tag(language):
    """The LingoTweaker language for a BCP 47 tag, and the data package's language code."""
    parts = language.replace("_", "-").split("-")
    base = parts[0].lower()
    region = parts[1].upper() if len(parts) > 1 and len(parts[1]) == 2 else ""
    if base in KNOWN_VARIANTS:
        tag = f"{base}-{region}" if region in KNOWN_VARIANTS[base] else DEFAULT_VARIANTS[base]
    else:
        tag = DEFAULT_VARIANTS.get(base, base)
    return tag, base


def is_speller(rule_id):
    """LanguageTool's dictionary spellers (MORFOLOGIK_RULE_EN_US, GERMAN_SPELLER_RULE,
    HUNSPELL_RULE, ...): the only rules whose flags mean "not in the dictionary"."""
    return "MORFOLOGIK" in rule_id or "SPELLER" in rule_id or "HUNSPELL" in rule_id


def category(match):
    # Confusion rules ("than" -> "then", "Me" -> "I") are issue type misspelling too, but they
    # are grammar to Emend: only a dictionary speller's flag is a spelling flag (the combiner
    # lets the spellers vote on those).
    if is_speller(match.get("rule_id") or ""):
        return "spelling"
    category_id = match.get("category_id") or ""
    if category_id == "TYPOGRAPHY" or match.get("issue_type") == "typographical":
        return "typography"
    if category_id in STYLE_CATEGORIES or match.get("issue_type") == "style":
        return "style"
    if category_id == "PUNCTUATION":
        return "punctuation"
    return "grammar"


def explanation(match, original, suggestions):
    """The match's message, and the suggestions after the first as "Other suggestions:" (the
    list Emend's front ends offer as further replacements). Emend turns the message's
    <suggestion> markup into quotes itself, for every checker."""
    message = match.get("message") or match.get("short_message") or ""
    others = []
    for suggestion in suggestions[1:]:
        if suggestion != original and suggestion not in others:
            others.append(suggestion)
        if len(others) == MAX_OTHER_SUGGESTIONS:
            break
    if not others:
        return message
    listed = ", ".join(f"\u201c{other}\u201d" for other in others)
    spacer = " " if message.endswith((".", "?", "!")) else ". " if message else ""
    return f"{message}{spacer}Other suggestions: {listed}."


def edits(data, matches, selection, protected):
    """The edits for LanguageTool's matches, in text order, not overlapping. `data` is the
    request's text as UTF-8 bytes (the matches' offsets count those)."""
    selection_start, selection_end = selection
    last_end = -1
    for match in sorted(matches, key=lambda m: (m["offset"], m["length"])):
        start, end = match["offset"], match["offset"] + match["length"]
        if start < selection_start or end > selection_end or start < last_end:
            continue
        original = data[start:end].decode("utf-8", errors="replace")
        if touches(start, end, protected) or OBJECT_REPLACEMENT in original:
            continue
        suggestions = match.get("suggestions") or []
        if not suggestions or suggestions[0] == original:
            continue
        last_end = end
        yield {
            "start": start,
            "end": end,
            "replacement": suggestions[0],
            "explanation": explanation(match, original, suggestions),
            "category": category(match),
            "rule": match.get("rule_id") or "",
        }


class Server(CheckerLoop):
    def __init__(self, deps):
        super().__init__()
        self.engines = {}
        self.deps = deps
        self.lt_py = self.import_checker("lt_py", deps, "lingotweaker", "providers/lingotweaker/setup.sh")

    def engine(self, language):
        tag, base = engine_tag(language)
        if tag in self.engines:
            return self.engines[tag]
        try:
            data = importlib.import_module(f"lingotweaker_data_{base}")
        except ImportError:
            raise LookupError(f"LingoTweaker has no data for {language}: install lingotweaker-data-{base} "
                              f"(LINGOTWEAKER_LANGUAGES=\"... {base}\" providers/lingotweaker/setup.sh)") from None
        started = time.monotonic()
        engine = self.lt_py.Engine(tag, data_dir=data.data_dir())
        log(f"built the {tag} engine in {time.monotonic() - started:.1f} s ({engine.rule_count} rules)")
        self.engines[tag] = engine
        return engine

    def answer(self, request_id, request):
        if request.get("tool") != "proofread":
            raise ValueError(f"LingoTweaker only proofreads, it does not serve {request.get('tool')}")
        engine = self.engine(request.get("language") or "en-US")
        if self.is_cancelled(request_id):
            self.write({"id": request_id, "error": "cancelled"})
            return
        text = request["text"]
        data = text.encode("utf-8")
        selection = request.get("selection") or [0, len(data)]
        protected = request.get("protected") or []
        for edit in edits(data, engine.check(text), selection, protected):
            self.write({"id": request_id, "edit": edit})
        self.write({"id": request_id, "done": True})

    def serve(self):
        super().serve(f"lingotweaker server ready (pid {os.getpid()}); engines are built on first use")


def main(arguments):
    deps = DEFAULT_DEPS
    rest = list(arguments)
    while rest:
        option = rest.pop(0)
        if option == "--deps" and rest:
            deps = rest.pop(0)
        else:
            log(f"usage: lingotweaker_server.py [--deps DIR] (not {option!r})")
            return 2
    Server(deps).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
