#!/usr/bin/env python3
"""Harper (harper-py) behind the process provider's JSON-lines protocol.

One process serves many requests: it builds Harper's linter for a dialect the first time a
request asks for it (about a second quiet, 140 MB; tens of seconds on a loaded machine) and keeps
it, so that a process started for other languages, or only to be probed, pays nothing for it.
A text of up to 48,000 code points is linted whole (the context helps Harper, and reaches far: a
leading `---` changes which repeated words it flags thousands of characters later); a longer one
is cut at paragraph breaks into pieces of 16,000 code points or more (`pieces`: the cuts depend
on the text only), linted here and, from four pieces on, in helper processes beside it (one
linter per free core, at most four: `default_workers`, `Helper`; harper-py 0.2.0 runs two linters of
one process in turn), each taking the next piece when done with one. The lints of the last texts are remembered
piece by piece (`LintMemory`): a piece linted before is not linted again (the next `emend
proofread` of an unchanged file, an editor opening a document again, another front end of the
same checker service; in a long file only the pieces that changed), and the lints of pieces of
16,000 code points or more are also kept on disk (`DiskCache`, in $EMEND_PROVIDER_CACHE_DIR, the
private cache directory Emend's sandbox lets this provider write, or outside Emend
$XDG_CACHE_HOME/emend/harper; 64 MB at most, or --cache-dir DIR), so that a checker started again
(the checker service exits when idle) does not lint an unchanged long file again. Why: Harper costs 27-31 s of CPU per MB of new prose (about
7 s parsing and tagging, the rest spread evenly over its 905 default rules; --rules-off and
--rules-only choose them, see README).
Only lints inside the selection and clear of protected text are
sent, as edits in UTF-8 byte offsets (Harper's spans count code points). The first suggestion
is the replacement; lints without one, or whose replacement is the original text, are left
out. The rule's message is the explanation, the rule's name the rule id, and Harper's lint kind
gives the category (spelling, grammar, punctuation or style); further replacements are listed
in the explanation ("Other suggestions: “a”, “b”."). See providers/process/PROTOCOL.md.

    python3 -u -I harper_server.py [--deps DIR] [--markup plaintext|markdown] [--dictionary FILE]
                                   [--workers N] [--piece-chars N] [--cache-dir DIR]
                                   [--helper-idle-seconds N] [--rules-off NAMES] [--rules-only NAMES]

--rules-off NAMES / --rules-only NAMES: Harper's rules (comma-separated names, as in the edits'
rule ids: SpellCheck, LongSentences, ...) turned off, or the only ones on; Harper's defaults
otherwise (`RuleChoice`).

--workers N: linters for a long text's pieces, this process and N - 1 helper processes (default:
one per free core, at most 4, decided for each long text); a helper exits after --helper-idle-seconds without a piece (60).

--deps names the directory harper-py was installed into by setup.sh (default: .deps/python at
the repository root, found from this file's place). Lines on stderr go to Emend's log.

The user's words ($XDG_CONFIG_HOME/emend/dictionary.txt, or ~/.config/emend/, or --dictionary
FILE; one a line, # comment lines) are imported into Harper's dictionary, read again when the
file changes: Emend drops suggestions on them anyway, but Harper then also suggests them and
reads the sentence around them better.
"""

import contextlib
import hashlib
import json
import os
import re
import select
import subprocess
import tempfile
import sys
import threading
import time
import zlib
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
# The shared loop: beside this file when installed (lib/emend/), in providers/process/ in the
# clone (python3 -I leaves this file's directory off sys.path; it goes again once imported).
sys.path[:0] = [HERE, os.path.join(HERE, "..", "process")]
from checker_loop import OBJECT_REPLACEMENT, CheckerLoop, log, touches  # noqa: E402

del sys.path[:2]

USAGE = ("harper_server.py [--deps DIR] [--markup plaintext|markdown] [--dictionary FILE] [--workers N] "
         "[--piece-chars N] [--cache-dir DIR] [--helper-idle-seconds N] [--rules-off NAMES] [--rules-only NAMES]")
DEFAULT_DEPS = os.path.normpath(os.path.join(HERE, "..", "..", ".deps", "python"))

# Harper's lint kinds (harper-core's LintKind); anything else counts as grammar.
SPELLING_KINDS = {"Spelling", "Typo"}
STYLE_KINDS = {"Style", "Readability", "Redundancy", "Enhancement", "Formatting", "Regionalism"}

SUGGESTION_REPLACE, SUGGESTION_REMOVE, SUGGESTION_INSERT_AFTER = 0, 1, 2


def dialect_name(dialect):
    """`Dialect.AMERICAN` → "American" (for the log)."""
    return getattr(dialect, "name", str(dialect)).capitalize()


def category(lint_kind):
    if lint_kind in SPELLING_KINDS:
        return "spelling"
    if lint_kind in STYLE_KINDS:
        return "style"
    if lint_kind == "Punctuation":
        return "punctuation"
    return "grammar"


# How many further replacements an explanation lists.
MAX_OTHER_SUGGESTIONS = 4


class LintRecord:
    """One Harper lint as plain data (span in code points of the request's text): what the
    edits need of it, kept so that a remembered text needs no Harper object."""

    __slots__ = ("start", "end", "rule", "problem_text", "message", "lint_kind", "suggestions")

    def __init__(self, start, end, rule, problem_text, message, lint_kind, suggestions):
        self.start, self.end, self.rule = start, end, rule
        self.problem_text, self.message, self.lint_kind = problem_text, message, lint_kind
        self.suggestions = suggestions  # [(kind, replacement_text)] in Harper's order

    @staticmethod
    def of(lint, rule):
        return LintRecord(lint.span.start, lint.span.end, rule, lint.problem_text, lint.message, lint.lint_kind,
                          [(int(s.kind), s.replacement_text) for s in lint.suggestions])


def suggestions_of(record):
    """The lint's suggestions in an order that is the same in every process. Why: Harper's
    RegularIrregulars lists its forms from a hash set, whose order changes with the process
    ("She runned" gave "ran, run" in one run and "run, ran" in the next), so the same text got
    a different first suggestion from run to run. Its forms are put in a fixed order, the past
    form first: a regular ending on an irregular verb ("runned", "teached", "sleeped") means the
    past, and the base form is the one the typed word starts with. Every other rule's order is
    Harper's ranking ("It's" before "It has"), the same in every run."""
    suggestions = list(record.suggestions)
    if record.rule == "RegularIrregulars":
        typed = record.problem_text.lower()
        suggestions.sort(key=lambda s: (typed.startswith(s[1].lower()), s[1]))
    return suggestions


def explanation(record, replacement, original, suggestions):
    """The lint's message, and its other replacements as "Other suggestions:" (the list Emend's
    front ends offer as further replacements; Emend turns the message's `backticks` into quotes)."""
    others = []
    for kind, text in suggestions[1:]:
        if kind != SUGGESTION_REPLACE:
            continue
        if text and text not in (replacement, original) and text not in others:
            others.append(text)
        if len(others) == MAX_OTHER_SUGGESTIONS:
            break
    message = record.message
    if not others:
        return message
    listed = ", ".join(f"\u201c{other}\u201d" for other in others)
    spacer = " " if message.endswith((".", "?", "!")) else ". " if message else ""
    return f"{message}{spacer}Other suggestions: {listed}."


def byte_offsets(text, code_points):
    """A map from each code point offset in `code_points` to its UTF-8 byte offset."""
    if text.isascii():
        return {cp: cp for cp in code_points}
    result, byte, previous = {}, 0, 0
    for cp in sorted(set(code_points)):
        byte += len(text[previous:cp].encode("utf-8"))
        result[cp] = byte
        previous = cp
    return result


def replacement_of(record, suggestions):
    for kind, text in suggestions:
        if kind == SUGGESTION_REPLACE:
            return text
        if kind == SUGGESTION_REMOVE:
            return ""
        if kind == SUGGESTION_INSERT_AFTER:
            return record.problem_text + text
    return None


def edits(text, records, selection, protected):
    """The edits for `records` (LintRecords in code points of `text`), in text order, not overlapping."""
    found = sorted(records, key=lambda record: (record.start, record.end))
    offsets = byte_offsets(text, [cp for record in found for cp in (record.start, record.end)])
    selection_start, selection_end = selection
    last_end = -1
    for record in found:
        start, end = record.start, record.end
        byte_start, byte_end = offsets[start], offsets[end]
        if byte_start < selection_start or byte_end > selection_end or byte_start < last_end:
            continue
        original = text[start:end]
        if touches(byte_start, byte_end, protected) or OBJECT_REPLACEMENT in original:
            continue
        suggestions = suggestions_of(record)
        replacement = replacement_of(record, suggestions)
        if replacement is None or replacement == original:
            continue
        last_end = byte_end
        yield {
            "start": byte_start,
            "end": byte_end,
            "replacement": replacement,
            "explanation": explanation(record, replacement, original, suggestions),
            "category": category(record.lint_kind),
            "rule": record.rule,
        }


# Long texts are linted in pieces (`pieces`) of at least this many code points.
PIECE_CHARS = 16_000
# A paragraph break: a line with nothing but blanks on it.
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def pieces(text, piece_chars):
    """`text` cut into [(start, piece)] (start in code points) at paragraph breaks, each piece at
    least `piece_chars` long but the last; a text up to three times that is one piece. Why:
    Harper costs 27-31 s of CPU per MB of new prose, and a piece once linted is remembered
    on its own (an edit relints its piece, not the file; a request cancelled when its time ran
    out keeps the pieces done). A cut follows a paragraph whose CRC is 0 mod 4, or one that makes the piece 4×
    `piece_chars` long: the cuts depend on the text only (the same pieces on any machine, under
    any load), and mostly on the paragraphs near them, so an edit moves few cuts. Lints across a
    cut are lost or gained (a sentence's context stops at its paragraph in most rules; the
    few that read the whole document, such as OrthographicConsistency, see the piece)."""
    if len(text) <= 3 * piece_chars:
        return [(0, text)]
    cuts, start, paragraph = [], 0, 0
    for found in PARAGRAPH_BREAK.finditer(text):
        end = found.end()
        size = end - start
        if size >= piece_chars and len(text) - end >= piece_chars and (
                size >= 4 * piece_chars or zlib.crc32(text[paragraph:found.start()].encode("utf-8", "surrogatepass")) % 4 == 0):
            cuts.append(end)
            start = end
        paragraph = end
    bounds = [0] + cuts + [len(text)]
    return [(bounds[i], text[bounds[i]:bounds[i + 1]]) for i in range(len(bounds) - 1)]


def shifted(records, offset):
    """`records` of a piece moved to the text's code points (the remembered ones stay the piece's)."""
    if offset == 0:
        return records
    return [LintRecord(r.start + offset, r.end + offset, r.rule, r.problem_text, r.message, r.lint_kind, r.suggestions)
            for r in records]


def rows_of(records):
    """`records` as JSON rows (the disk cache's and a helper process's answer)."""
    return [[r.start, r.end, r.rule, r.problem_text, r.message, r.lint_kind, r.suggestions] for r in records]


def records_of(rows, length):
    """The LintRecords of JSON `rows` for a piece of `length` code points; ValueError or
    TypeError when they are malformed or a span lies outside the piece."""
    records = [LintRecord(int(start), int(end), str(rule), str(problem), str(message), str(kind),
                          [(int(s_kind), str(text)) for s_kind, text in suggestions])
               for start, end, rule, problem, message, kind, suggestions in rows]
    if any(not 0 <= r.start <= r.end <= length for r in records):
        raise ValueError("a span outside its piece")
    return records


# A remembered text at least this long is said in the log (a line per keystroke would be noise).
REMEMBERED_LOG_CHARS = 4096


class LintMemory:
    """The lints of whole texts by (dialect, personal words' generation, text), the least
    recently used forgotten first once they hold more than `limit` code points of text."""

    def __init__(self, limit=4_000_000):
        self.limit = limit
        self.entries = OrderedDict()
        self.size = 0

    def get(self, key):
        records = self.entries.get(key)
        if records is not None:
            self.entries.move_to_end(key)
        return records

    def put(self, key, records):
        if key in self.entries:
            return
        self.entries[key] = records
        self.size += len(key[-1])
        while self.size > self.limit and self.entries:
            old, _ = self.entries.popitem(last=False)
            self.size -= len(old[-1])


def xdg_path(variable, fallback, *parts):
    """`parts` under the XDG directory `variable` names (when absolute), else under
    $HOME/`fallback`; None without either."""
    base = os.environ.get(variable, "")
    if not base.startswith("/"):
        home = os.environ.get("HOME", "")
        if not home:
            return None
        base = os.path.join(home, fallback)
    return os.path.join(base, *parts)


def default_cache_directory():
    """$EMEND_PROVIDER_CACHE_DIR (the provider's private cache directory, the one Emend's
    sandbox lets it write: the process provider passes its environment on), else (run outside
    Emend) $XDG_CACHE_HOME/emend/harper, or ~/.cache/emend/harper; None without any."""
    own = os.environ.get("EMEND_PROVIDER_CACHE_DIR", "")
    if own.startswith("/"):
        return own
    return xdg_path("XDG_CACHE_HOME", ".cache", "emend", "harper")


class DiskCache:
    """The lints of long pieces (at least `min_chars` code points: what costs seconds to lint
    again, never a paragraph typed in an editor) in files named by a SHA-256 of everything they
    depend on (this format, harper-py's version, dialect, the user's words, markup, the piece),
    so that a checker started again (the service exits when idle) does not lint an unchanged
    long file again. At most `limit` bytes: the least recently used files go first. A file that
    cannot be read or does not parse is a miss (and is removed); one that cannot be written is
    skipped: the cache only ever saves time."""

    FORMAT = "emend-harper-lints-1"

    def __init__(self, directory, version, min_chars, limit=64 * 1024 * 1024):
        self.directory, self.version, self.min_chars, self.limit = directory, version, min_chars, limit
        # The first write checks the whole cache (files of earlier checkers count, and a
        # checker that exits when idle rarely writes a tenth of `limit` itself).
        self.written = limit

    def path(self, key, piece):
        digest = hashlib.sha256()
        for part in (self.FORMAT, self.version) + tuple(key) + (piece,):
            data = str(part).encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "little") + data)
        name = digest.hexdigest()
        return os.path.join(self.directory, name[:2], name + ".json")

    def get(self, key, piece):
        if self.directory is None or len(piece) < self.min_chars:
            return None
        path = self.path(key, piece)
        try:
            with open(path, encoding="utf-8") as file:
                rows = json.load(file)
            records = records_of(rows, len(piece))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError) as error:
            log(f"ignored the cached lints in {path}: {error}")
            with contextlib.suppress(OSError):
                os.remove(path)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used
        return records

    def put(self, key, piece, records):
        if self.directory is None or len(piece) < self.min_chars:
            return
        path = self.path(key, piece)
        temporary = None
        rows = rows_of(records)
        try:
            # Only the user reads it: lints quote the text.
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            # A name of its own (mode 0600): two checkers may write the same piece at once, and
            # in their hosts' pid namespaces their pids may be the same.
            descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
            with open(descriptor, "w", encoding="utf-8") as file:
                json.dump(rows, file, ensure_ascii=False)
            os.replace(temporary, path)
            temporary = None
            self.written += os.path.getsize(path)
        except FileNotFoundError:
            # Another checker's trim took the folder meanwhile: this piece is not kept, the
            # cache goes on.
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.remove(temporary)
        except (OSError, ValueError) as error:
            # Said once, and no more tried: Emend's sandbox lets a checker write only its own
            # cache directory (EMEND_PROVIDER_CACHE_DIR) and where the user allows it
            # (sandbox_write_paths), so another --cache-dir is refused there.
            log(f"cannot keep lints on disk in {self.directory} ({error}); long texts are linted again by a new "
                f"checker (allow it in config.toml: sandbox_write_paths = [\"{self.directory}\"])")
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.remove(temporary)
            self.directory = None

    def trim(self):
        """Removes the least recently used files while the cache holds more than `limit` bytes
        (checked once a tenth of `limit` was written since the last check)."""
        if self.directory is None or self.written < self.limit // 10:
            return
        self.written = 0
        files = []
        stale = time.time() - 3600
        for folder, _, names in os.walk(self.directory):
            for name in names:
                path = os.path.join(folder, name)
                if name.endswith(".tmp"):
                    # Left by a checker killed while writing (an hour old: not being written).
                    with contextlib.suppress(OSError):
                        if os.stat(path).st_mtime < stale:
                            os.remove(path)
                    continue
                with contextlib.suppress(OSError):
                    info = os.stat(path)
                    files.append((info.st_mtime_ns, info.st_size, path))
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= self.limit * 3 // 4:
                break
            with contextlib.suppress(OSError):
                os.remove(path)
                total -= size


def personal_dictionary_path():
    """Where Emend keeps the user's words (PersonalDictionary in EmendProviders)."""
    return xdg_path("XDG_CONFIG_HOME", ".config", "emend", "dictionary.txt")


class PersonalWords:
    """The user's words, read again when the file's modification time or size changes."""

    def __init__(self, path):
        self.path = path
        self.stamp = None
        self.words = []
        self.generation = 0

    def refresh(self):
        if not self.path:
            return self.generation
        try:
            info = os.stat(self.path)
            stamp = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = None
        if stamp != self.stamp:
            self.stamp = stamp
            words = []
            if stamp is not None:
                try:
                    with open(self.path, encoding="utf-8", errors="replace") as file:
                        words = [line.strip() for line in file if line.strip() and not line.strip().startswith("#")]
                except OSError as error:
                    log(f"cannot read {self.path}: {error}")
            if words != self.words:
                self.words = words
                self.generation += 1
        return self.generation


def default_workers():
    """Linters for the pieces of one long text, decided for each such text: one per free core
    (the cores this process may run on less the 1-minute load average, rounded), at least
    one, at most MAX_WORKERS (each but the first is a helper process of about 150 MB). Why not
    one per core: with no core free a helper only adds its start (about 1.5 s of CPU) to the
    queue (120 KB through a fresh checker service at load 23 on 2 cores: 44-46 s with one
    linter, 50-56 s with two). The edits are the same with any number."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    return max(1, min(MAX_WORKERS, cores, int(cores - load + 0.5)))


# Why processes: harper-py 0.2.0 says it releases the GIL while linting, but two linters on two
# threads of one process take turns (on 100 KB each thread got 1.6 s of CPU in 4.4 s, one thread
# alone did the whole in 2.3 s); two processes lint at once.
MAX_WORKERS = 4
# A text with fewer pieces to lint than this is linted here alone: a helper costs about 1.5 s of
# CPU to start (Python, Harper's dictionary), about what one piece of 16,000 code points costs.
HELPER_MIN_PIECES = 4
# A helper process that got no piece for this long exits (its memory goes back); the next long
# text starts another.
HELPER_IDLE_SECONDS = 60
# A helper that has not answered a piece for this long is taken for hung: it is killed and the
# piece linted here (a piece of 16,000+ code points takes about a second on a free core; this
# leaves room for a machine loaded many times over).
HELPER_PIECE_SECONDS = 300


class Helper:
    """A helper process: this script run again with `--helper`, which builds its own linters and
    lints the pieces it is sent (one at a time: a JSON line {"dialect", "generation", "words",
    "piece"} in, {"rows": [...]} or {"error": ...} out). It inherits stderr (its lines go to
    Emend's log) and the sandbox of the checker (the same pid namespace, Landlock rules, seccomp
    filter and memory bound over all the sandbox's processes), exits when its input closes (this
    checker ended) or after `idle_seconds` without a piece, and is reaped by a thread of its own."""

    def __init__(self, deps, markup, dialect, idle_seconds, rules):
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-I", "-B", os.path.abspath(__file__), "--helper", str(int(dialect)), "--deps", deps,
             "--markup", markup, "--helper-idle-seconds", str(idle_seconds)] + rules.arguments(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True)
        self.pid = self.process.pid
        self.ready = False
        self.ended = threading.Event()
        # Its answers are read from the descriptor with a deadline, never with a blocking
        # readline: a helper that hangs (inside Harper, stopped, half a line written) must not
        # hang the request or its cancel.
        self.unread = b""
        try:
            threading.Thread(target=self.reap, daemon=True).start()
        except RuntimeError:
            self.kill()
            raise OSError("no thread to reap it") from None

    def reap(self):
        self.process.wait()
        self.ended.set()

    def kill(self):
        """Ends the helper at once (it hung or answered nonsense: it is not asked again)."""
        self.ended.set()
        with contextlib.suppress(OSError, ValueError):
            self.process.stdin.close()
        with contextlib.suppress(OSError):
            self.process.kill()

    def read_line(self, seconds, cancelled=lambda: False):
        """The helper's next line (without its end), waiting at most `seconds`; None when the
        time ran out with no whole line yet; raises OSError when it ended and Cancelled when
        `cancelled()` became true meanwhile (looked at ten times a second)."""
        deadline = time.monotonic() + seconds
        descriptor = self.process.stdout.fileno()
        while b"\n" not in self.unread:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if cancelled():
                raise Cancelled()
            readable, _, _ = select.select([descriptor], [], [], min(left, 0.1))
            if readable:
                chunk = os.read(descriptor, 1 << 16)
                if not chunk:
                    raise OSError("it ended")
                self.unread += chunk
        line, _, self.unread = self.unread.partition(b"\n")
        return line

    def wait_ready(self, timeout):
        """Whether the helper said it is ready (its first linter built) within `timeout`
        seconds; raises OSError when it ended or said something else."""
        if self.ready:
            return True
        line = self.read_line(timeout)
        if line is None:
            return False
        answer = json.loads(line)
        if not isinstance(answer, dict) or answer.get("ready") is not True:
            raise OSError(f"it said {line[:200]!r} instead of being ready")
        self.ready = True
        return True

    def lint(self, dialect, generation, words, piece, cancelled):
        """The LintRecords of `piece`, linted by the helper; OSError or ValueError when it
        ended, answered nonsense or took longer than HELPER_PIECE_SECONDS (the caller lints
        the piece itself), Cancelled when the request was cancelled meanwhile."""
        message = {"dialect": int(dialect), "generation": generation, "words": words, "piece": piece}
        self.process.stdin.write(json.dumps(message).encode("utf-8", "surrogatepass") + b"\n")
        self.process.stdin.flush()
        line = self.read_line(HELPER_PIECE_SECONDS, cancelled)
        if line is None:
            raise OSError(f"it did not answer a piece within {HELPER_PIECE_SECONDS} s")
        answer = json.loads(line)
        if not isinstance(answer, dict):
            raise ValueError(f"it answered {line[:200]!r}")
        if "error" in answer:
            raise ValueError(str(answer["error"]))
        return records_of(answer["rows"], len(piece))

    def stop(self):
        with contextlib.suppress(OSError, ValueError):
            self.process.stdin.close()


class Cancelled(Exception):
    """The request a helper's piece was for was cancelled while the helper linted it."""


class RuleChoice:
    """Which of Harper's rules lint: Harper's defaults, less the rules named `off`, or only the
    rules named `only` (less `off`). Why a choice: Harper's cost is mostly its rules (on the
    benchmark's prose 27-31 s of CPU per MB with its 905 default rules, 7 s with none: parsing
    and tagging), spread evenly over them (about 0.02 s per MB each), so a user who wants long
    files checked faster can keep only the rules they care for. The default is Harper's own
    set (README: keeping only the 62 rules that fired on the quality development set makes
    Harper 3.5x cheaper but loses catches on the held-out sets; SpellCheck off saves 3-10% and
    loses misspellings, Harper's silence counting as a speller's vote against)."""

    def __init__(self, off=(), only=None):
        self.off = frozenset(off)
        self.only = None if only is None else frozenset(only)

    @staticmethod
    def names(argument):
        """The rule names of a comma-separated option value."""
        return [name.strip() for name in argument.split(",") if name.strip()]

    def is_default(self):
        return not self.off and self.only is None

    def key(self):
        """What the lints depend on, for the caches' keys ("" for Harper's defaults)."""
        if self.is_default():
            return ""
        only = "*" if self.only is None else ",".join(sorted(self.only))
        return f"only={only};off={','.join(sorted(self.off))}"

    def arguments(self):
        """The options that make a helper process lint with the same rules."""
        result = []
        if self.only is not None:
            result += ["--rules-only", ",".join(sorted(self.only)) or ","]
        if self.off:
            result += ["--rules-off", ",".join(sorted(self.off))]
        return result

    def apply(self, linter):
        """Sets `linter`'s configuration (nothing for Harper's defaults); says in the log which
        names Harper does not know (they change nothing: a typo must not pass unnoticed)."""
        if self.is_default():
            return
        default = linter.get_default_lint_config()
        unknown = sorted((self.off | (self.only or frozenset())) - set(default))
        if unknown:
            log(f"Harper has no rule named {', '.join(unknown)} (see --rules-off / --rules-only); ignored")
        if self.only is None:
            config = {name: False for name in self.off if name in default}
        else:
            config = {name: name in self.only and name not in self.off for name in default}
        linter.set_lint_config(config)
        on = sum(1 for name, value in default.items() if config.get(name, value))
        log(f"Harper lints with {on} of its {len(default)} rules ({sum(default.values())} on by default)")


class Linters:
    """The Harper linters of one process (the checker's, or a helper's) by dialect, each built
    on first use and holding the user's words of the generation it last imported."""

    def __init__(self, harper, where="", rules=None):
        self.harper = harper
        self.where = where  # said after "built ... linter in N s" in the log
        self.rules = rules or RuleChoice()
        self.built = {}

    def get(self, dialect, generation, words):
        """The linter of `dialect`, with the user's `words` of `generation` imported."""
        if dialect not in self.built:
            started = time.monotonic()
            self.built[dialect] = [self.harper.Linter(dialect), 0]
            self.rules.apply(self.built[dialect][0])
            log(f"built Harper's {dialect_name(dialect)} linter in {time.monotonic() - started:.1f} s{self.where}")
        entry = self.built[dialect]
        if entry[1] != generation:
            entry[0].clear_words()
            if words:
                entry[0].import_words(words)
            entry[1] = generation
        return entry[0]


def lint_records(linter, text, markup):
    """The LintRecords of `text` as `linter` finds them (`markup`: Harper's language name)."""
    organized = linter.organized_lints(text, language=markup)
    return [LintRecord.of(lint, rule) for rule, lints in organized.items() for lint in lints]


def serve_helper(deps, markup, dialect, idle_seconds, rules):
    """A helper process's loop (see Helper): its linters by dialect, built on first use (the
    first one at once, so that it is ready when the pieces come)."""
    sys.path.insert(0, deps)
    import harper  # noqa: PLC0415

    linters = Linters(harper, f" (helper process {os.getpid()}, for long texts)", rules)

    def linter(dialect_number, generation, words):
        return linters.get(harper.Dialect(dialect_number), generation, words)

    def write(message):
        sys.stdout.buffer.write(json.dumps(message).encode("ascii") + b"\n")
        sys.stdout.buffer.flush()

    try:
        linter(dialect, 0, [])
        write({"ready": True})
        helper_loop(linter, write, markup, idle_seconds)
    except BrokenPipeError:
        return  # the checker ended


def helper_loop(linter, write, markup, idle_seconds):
    """Lints the pieces that come on stdin until it closes or none came for `idle_seconds`."""
    stdin = sys.stdin.buffer
    while True:
        readable, _, _ = select.select([stdin], [], [], idle_seconds)
        if not readable:
            log(f"helper process {os.getpid()} exits: no piece to lint for {idle_seconds} s")
            return
        line = stdin.readline()
        if not line:
            return
        try:
            message = json.loads(line.decode("utf-8", "surrogatepass"))
            piece = message["piece"]
            linted = lint_records(linter(int(message["dialect"]), message["generation"], message["words"]), piece, markup)
            write({"rows": rows_of(linted)})
        except Exception as error:  # noqa: BLE001 (every failure is an answer)
            write({"error": str(error) or type(error).__name__})


class Server(CheckerLoop):
    def __init__(self, deps, markup, dictionary=None, workers=None, piece_chars=PIECE_CHARS, cache_directory=None,
                 helper_idle_seconds=HELPER_IDLE_SECONDS, rules=None):
        super().__init__()
        self.rules = rules or RuleChoice()
        self.deps = deps
        self.markup = markup
        self.personal = PersonalWords(dictionary if dictionary is not None else personal_dictionary_path())
        self.memory = LintMemory()
        # None: one per free core, decided for each long text (`default_workers`).
        self.workers = workers
        self.piece_chars = piece_chars
        self.helper_idle_seconds = helper_idle_seconds
        # The helper processes started for long texts (`helpers_for`), those that ended left out.
        self.helpers = []
        self.harper = self.import_checker("harper", deps, "harper-py", "providers/harper/setup.sh")
        self.linters = Linters(self.harper, rules=self.rules)
        if self.harper is None:
            return
        try:
            from importlib.metadata import version  # noqa: PLC0415

            self.version = version("harper-py")
        except Exception:  # noqa: BLE001 (only for the log line)
            self.version = "unknown"
        self.disk = DiskCache(cache_directory or default_cache_directory(), self.version, piece_chars)
        # No linter yet: each dialect's is built on its first request (`linter`).

    def dialect(self, language):
        harper = self.harper
        parts = language.replace("_", "-").split("-")
        region = parts[1].upper() if len(parts) > 1 else ""
        return {
            "GB": harper.Dialect.BRITISH, "UK": harper.Dialect.BRITISH, "AU": harper.Dialect.AUSTRALIAN,
            "CA": harper.Dialect.CANADIAN, "IN": harper.Dialect.INDIAN,
        }.get(region, harper.Dialect.AMERICAN)

    def linter(self, dialect, generation, words):
        """This process's linter for `dialect` (see Linters)."""
        return self.linters.get(dialect, generation, words)

    def lint(self, linter, text):
        return lint_records(linter, text, self.markup)

    def helpers_for(self, dialect, count):
        """`count` helper processes: those still running, and new ones
        started (building `dialect`'s linter at once) for the rest; fewer when one cannot be
        started (said in the log; this process lints alone)."""
        self.helpers = [helper for helper in self.helpers if not helper.ended.is_set()]
        while len(self.helpers) < count:
            try:
                helper = Helper(self.deps, self.markup, dialect, self.helper_idle_seconds, self.rules)
            except (OSError, RuntimeError) as error:
                log(f"cannot start a helper process for long texts ({error}); linting them here alone")
                break
            log(f"started helper process {helper.pid} for the pieces of long texts")
            self.helpers.append(helper)
        return self.helpers[:count]

    def lint_pieces(self, request_id, dialect, generation, words, todo):
        """{index: records} of the pieces `todo` ([(index, piece)]), linted here and, when there
        are HELPER_MIN_PIECES or more, in helper processes beside (a thread here feeds each one
        piece at a time, once it is ready), each taking the next piece when it is done with one;
        none is taken once the request is cancelled (the caller sees it). A piece whose helper
        ended or failed is linted here. The result depends on the pieces only, not on which
        process linted which. Returns (results, pieces linted by helpers)."""
        lock = threading.Lock()
        waiting = list(reversed(todo))
        results = {}
        by_helpers = [0]

        def take():
            with lock:
                if not waiting or self.is_cancelled(request_id):
                    return None
                return waiting.pop()

        def feed(helper):
            item = None
            try:
                while not helper.wait_ready(0.05):
                    with lock:
                        if not waiting or self.is_cancelled(request_id):
                            return
                while (item := take()) is not None:
                    records = helper.lint(dialect, generation, words, item[1], lambda: self.is_cancelled(request_id))
                    with lock:
                        results[item[0]] = records
                        by_helpers[0] += 1
                    item = None
            except Cancelled:
                # Its piece is not linted (the request's caller sees it missing); the helper
                # would answer it late, out of step with the next piece: it goes.
                helper.kill()
            except Exception as error:  # noqa: BLE001 - any nonsense from a helper (KeyError, TypeError, ...)
                log(f"helper process {helper.pid} failed ({type(error).__name__}: {error})"
                    + ("; its piece is linted here" if item else ""))
                helper.kill()  # not given pieces again (the reaper sees to the process)
                if item is not None:
                    with lock:
                        waiting.append(item)

        feeders = []
        workers = self.workers or (default_workers() if len(todo) >= HELPER_MIN_PIECES else 1)
        if workers > 1 and len(todo) >= HELPER_MIN_PIECES:
            for helper in self.helpers_for(dialect, min(workers - 1, len(todo) - 1)):
                feeder = threading.Thread(target=feed, args=(helper,), daemon=True)
                try:
                    feeder.start()
                except RuntimeError as error:
                    log(f"cannot start a thread to feed helper process {helper.pid} ({error}); linting here")
                    break
                feeders.append(feeder)
        while True:
            while (item := take()) is not None:
                records = self.lint(self.linter(dialect, generation, words), item[1])
                with lock:
                    results[item[0]] = records
            for feeder in feeders:
                feeder.join()  # waits for its piece
            feeders = []
            with lock:
                if not waiting or self.is_cancelled(request_id):
                    return results, by_helpers[0]

    def records(self, request_id, language, text):
        """The LintRecords of `text` (code points), each piece's remembered or linted now; None
        when the request was cancelled first."""
        dialect = self.dialect(language)
        generation = self.personal.refresh()
        memory_key = (dialect_name(dialect), generation, self.markup, self.rules.key())
        words = hashlib.sha256("\n".join(self.personal.words).encode("utf-8", "surrogatepass")).hexdigest()
        # Harper's default rules add nothing to the key: the files written before the choice
        # existed stay valid.
        disk_key = (dialect_name(dialect), words, self.markup) + ((self.rules.key(),) if not self.rules.is_default() else ())
        parts = pieces(text, self.piece_chars)
        found, todo, from_disk = {}, [], 0
        for index, (_, piece) in enumerate(parts):
            remembered = self.memory.get(memory_key + (piece,))
            if remembered is None:
                remembered = self.disk.get(disk_key, piece)
                if remembered is not None:
                    from_disk += 1
                    self.memory.put(memory_key + (piece,), remembered)
            if remembered is None:
                todo.append((index, piece))
            else:
                found[index] = remembered
        if from_disk:
            log(f"read the lints of {from_disk} of the {len(parts)} pieces of this text ({len(text)} characters) "
                f"from {self.disk.directory}")
        if todo:
            started = time.monotonic()
            linted, by_helpers = self.lint_pieces(request_id, dialect, generation, self.personal.words, todo)
            # Kept even when the request was cancelled (its time ran out on a loaded machine):
            # the next request for the text lints only the pieces left.
            for index, records in linted.items():
                self.memory.put(memory_key + (parts[index][1],), records)
                self.disk.put(disk_key, parts[index][1], records)
                found[index] = records
            self.disk.trim()
            if len(linted) < len(todo):
                log(f"cancelled after {len(linted)} of the {len(todo)} pieces to lint of this text ({len(text)} characters); "
                    "those are kept for the next request")
                return None
            if len(parts) > 1:
                log(f"linted {len(todo)} of the {len(parts)} pieces of this text ({len(text)} characters) in "
                    f"{time.monotonic() - started:.1f} s, {by_helpers} of them in helper processes")
        elif len(text) >= REMEMBERED_LOG_CHARS and not from_disk:
            log(f"the lints of this text ({len(text)} characters) were remembered: not linted again")
        return [record for index, (start, _) in enumerate(parts) for record in shifted(found[index], start)]

    def answer(self, request_id, request):
        if self.is_cancelled(request_id):
            self.write({"id": request_id, "error": "cancelled"})
            return
        if request.get("tool") != "proofread":
            raise ValueError(f"Harper only proofreads, it does not serve {request.get('tool')}")
        language = request.get("language") or "en-US"
        if not language.lower().startswith("en"):
            raise ValueError(f"Harper checks English only, not {language}")
        text = request["text"]
        selection = request.get("selection") or [0, len(text.encode("utf-8"))]
        protected = request.get("protected") or []
        records = self.records(request_id, language, text)
        if records is None:
            self.write({"id": request_id, "error": "cancelled"})
            return
        for edit in edits(text, records, selection, protected):
            if self.is_cancelled(request_id):
                self.write({"id": request_id, "error": "cancelled"})
                return
            self.write({"id": request_id, "edit": edit})
        self.write({"id": request_id, "done": True})

    def serve(self):
        ready = "" if self.problem is not None else f"harper server ready (pid {os.getpid()}, harper-py {self.version})"
        super().serve(ready)


def main(arguments):
    deps, markup, dictionary, workers, piece_chars, cache = DEFAULT_DEPS, "plaintext", None, None, PIECE_CHARS, None
    helper_dialect, idle, off, only = None, HELPER_IDLE_SECONDS, [], None
    rest = list(arguments)
    while rest:
        option = rest.pop(0)
        if option == "--deps" and rest:
            deps = rest.pop(0)
        elif option == "--markup" and rest and rest[0] in ("plaintext", "markdown"):
            markup = rest.pop(0)
        elif option == "--dictionary" and rest:
            dictionary = rest.pop(0)
        elif option == "--cache-dir" and rest:
            cache = rest.pop(0)
        elif option == "--rules-off" and rest:
            off += RuleChoice.names(rest.pop(0))
        elif option == "--rules-only" and rest:
            only = (only or []) + RuleChoice.names(rest.pop(0))
        elif option == "--helper" and rest and rest[0].isdigit():
            helper_dialect = int(rest.pop(0))
        elif option in ("--workers", "--piece-chars", "--helper-idle-seconds") and rest and rest[0].isdigit() and int(rest[0]) > 0:
            value = int(rest.pop(0))
            if option == "--workers":
                workers = value
            elif option == "--piece-chars":
                piece_chars = value
            else:
                idle = value
        else:
            log(f"usage: {USAGE} (not {option!r})")
            return 2
    rules = RuleChoice(off, only)
    if helper_dialect is not None:
        serve_helper(deps, markup, helper_dialect, idle, rules)
        return 0
    Server(deps, markup, dictionary, workers, piece_chars, cache, idle, rules).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
