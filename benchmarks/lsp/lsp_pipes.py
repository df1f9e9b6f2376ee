"""`emend lsp` over pipes in LSP's framing (Content-Length headers), shared by bench.py and
memory.py so that both benchmarks drive the server the same way: a thread reads every message
into a queue as (arrival time, message), (time, None) when the server's output ends; requests
from the server are answered null at once, and its window/showMessage lines go to stderr."""
import json
import queue
import subprocess
import sys
import threading
import time


class LspPipes:
    def __init__(self, cmd, env, say_prefix="server says:"):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.q, self.next_id = queue.Queue(), 0
        self.say_prefix = say_prefix
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        f = self.p.stdout
        while True:
            length, arrived = None, None
            while True:
                line = f.readline()
                if not line:
                    self.q.put((time.monotonic(), None))
                    return
                # When the header arrives the server has encoded the whole message: the
                # server's time ends here; reading and parsing the body is the client's.
                arrived = arrived or time.monotonic()
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(f.read(length))
            if "method" in message and "id" in message:   # a request from the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            if message.get("method") == "window/showMessage":
                print(self.say_prefix, message["params"]["message"], file=sys.stderr)
            self.q.put((arrived, message))

    def send(self, message):
        body = json.dumps(message).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, pred, timeout, ended):
        """The first message from now on that `pred` accepts, with its arrival time; exits with
        `ended` when the server's output ends first."""
        end = time.monotonic() + timeout
        while True:
            at, message = self.q.get(timeout=max(0.001, end - time.monotonic()))
            if message is None:
                sys.exit(ended)
            if pred(message):
                return at, message
