"""The loop of a checker behind the process provider (PROTOCOL.md beside this file), written once
for the Python checkers Emend ships (providers/harper/harper_server.py,
providers/lingotweaker/lingotweaker_server.py).

Requests come as JSON lines on stdin, answers go as JSON lines to stdout, and anything on stderr
goes to Emend's log. stdin is read on a thread of its own, so that a {"cancel": N} is seen while
request N runs; requests are answered one at a time, in order, on the main thread. A checker
subclasses CheckerLoop, sets `problem` when it cannot work (every request then fails with it) and
defines answer(request_id, request), which writes the request's edits and its "done"; whatever
it raises becomes the request's "error".

The checkers run as `python3 -I`, which keeps the script's own directory off sys.path: they add
this file's directory themselves (lib/emend/ when installed, providers/process/ in the clone).
"""

import importlib
import json
import queue
import sys
import threading
import traceback

# U+FFFC, an attachment in the text: protected like the declared ranges.
OBJECT_REPLACEMENT = "\ufffc"


def log(message):
    """A line for Emend's log, written in one piece (print() writes the text and its newline
    apart: two threads logging at once, as Harper's linters of a long text do, ran together)."""
    sys.stderr.write(f"{message}\n")
    sys.stderr.flush()


def touches(start, end, protected):
    """Whether [start, end) (UTF-8 bytes) touches a protected range: overlaps one, or, when
    empty, lies strictly inside one."""
    for p_start, p_end in protected:
        if start == end:
            if p_start < start < p_end:
                return True
        elif start < p_end and p_start < end:
            return True
    return False


class CheckerLoop:
    """Reads requests, answers each through answer(), keeps the cancelled ids."""

    def __init__(self):
        self.cancelled = set()
        self.lock = threading.Lock()
        self.requests = queue.Queue()
        self.problem = None  # why every request fails (the checker's library is missing), or None

    def import_checker(self, module, deps, package, setup):
        """`module` imported from `deps`, the directory `setup` installed PyPI's `package` into
        (put first on sys.path), or None with `problem` saying so and what to run."""
        sys.path.insert(0, deps)
        try:
            return importlib.import_module(module)
        except ImportError as error:
            self.problem = f"{package} is not installed in {deps} (run {setup}): {error}"
            log(self.problem)
            return None

    def answer(self, request_id, request):
        """Writes the answer to one request (edits, then "done"); raises to answer "error"."""
        raise NotImplementedError

    def write(self, message):
        sys.stdout.buffer.write(json.dumps(message).encode("ascii") + b"\n")
        sys.stdout.buffer.flush()

    def read_input(self):
        """Reads stdin on a thread of its own, so that a cancel is seen while a request runs."""
        for raw in sys.stdin.buffer:
            try:
                message = json.loads(raw.decode("utf-8"))
            except ValueError as error:
                log(f"ignored a line that is not JSON: {error}")
                continue
            if isinstance(message, dict) and isinstance(message.get("cancel"), int):
                with self.lock:
                    self.cancelled.add(message["cancel"])
            else:
                self.requests.put(message)
        self.requests.put(None)

    def is_cancelled(self, request_id):
        with self.lock:
            return request_id in self.cancelled

    def handle(self, request):
        request_id = request.get("id") if isinstance(request, dict) else None
        if not isinstance(request_id, int):
            log(f"ignored a request without an integer id: {str(request)[:200]}")
            return
        try:
            if self.problem is not None:
                raise LookupError(self.problem)
            self.answer(request_id, request)
        except Exception as error:  # noqa: BLE001 (every failure is an answer)
            if not isinstance(error, (LookupError, ValueError)):
                log(traceback.format_exc().rstrip())
            self.write({"id": request_id, "error": str(error) or type(error).__name__})
        finally:
            with self.lock:  # ids only grow: a cancel for this request or an earlier one is spent
                self.cancelled = {spent for spent in self.cancelled if spent > request_id}

    def serve(self, ready):
        """Answers requests until stdin closes; logs `ready` first unless there is a problem."""
        threading.Thread(target=self.read_input, daemon=True).start()
        if self.problem is None:
            log(ready)
        while True:
            request = self.requests.get()
            if request is None:
                return
            self.handle(request)
