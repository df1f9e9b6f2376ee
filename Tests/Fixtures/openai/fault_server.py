#!/usr/bin/env python3
"""A tiny OpenAI-compatible chat completions server that misbehaves on purpose, for the tests of
providers/openai.

    fault_server.py --script 429:0,503,200 --log requests.jsonl

Prints "PORT <n>" on its first line once it listens on 127.0.0.1. Every POST answers with the next
entry of the script (the last one repeats) and appends one JSON line to the log first:
{"n": 1, "path": ..., "authorization": ..., "body": <the parsed request body>, "answer": entry}.

Script entries:
    STATUS[:SECONDS]  an error status with a JSON error body; SECONDS becomes Retry-After
    200[@NAME]        a streamed answer (server-sent events) of the canned answer NAME (default
                      "text"); "text" splits "é" and "😀" between events as raw bytes
    json              a whole answer as application/json, not streamed
    401echo           401 with the Authorization header it got in the error message
    error             a 200 stream whose second event is an error
    break             a chunked stream cut off after two events (no closing chunk)
    drop              the connection closed without an answer
    stall             headers never sent: the connection stays open for 60 s
    slow              200 events, 50 ms apart
"""
import argparse
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CANNED = {
    "text": [b"Hel", b"lo, ", b"caf\xc3", b"\xa9 ", b"\xf0\x9f", b"\x98\x80", b" world."],
    "proof": [b'{"edits":[{"original":"tomo', b'row","replacement":"tomorrow",',
              b'"explanation":"spelling"}]}'],
    "bullets": [b"Key points:\n", b"1. First ", b"point\n\n", b"* Second point\n", b"- Third", b" point"],
    "table": [b"Here is the table:\n\n", b"| Name | Age |\n", b"|:--|--:|\n", b"| Ann | 31 | extra |\n",
              b"| Bob |\n", b"\nThat is all."],
}


def event(content: bytes) -> bytes:
    # Raw bytes inside the JSON string: a server may cut a character between events.
    return b'data: {"choices":[{"index":0,"delta":{"content":"' + content + b'"}}]}\n\n'


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def next_entry(self):
        with self.server.lock:
            self.server.count += 1
            n = self.server.count
        script = self.server.script
        return n, script[min(n, len(script)) - 1]

    def record(self, n, entry, body):
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = body.decode("utf-8", "replace")
        line = {"n": n, "path": self.path, "authorization": self.headers.get("Authorization"),
                "body": parsed, "answer": entry}
        with self.server.lock:
            with open(self.server.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")

    def send_json(self, status, payload, headers=()):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def start_events(self, chunked=False):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        n, entry = self.next_entry()
        self.record(n, entry, body)
        self.close_connection = True
        if entry == "drop":
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if entry == "stall":
            time.sleep(60)
            return
        if entry == "json":
            self.send_json(200, {"choices": [{"index": 0, "message": {"role": "assistant",
                                                                      "content": "A whole answer."},
                                              "finish_reason": "stop"}]})
            return
        if entry == "401echo":
            self.send_json(401, {"error": {"message": "invalid key in " + str(self.headers.get("Authorization"))}})
            return
        if entry == "error":
            self.start_events()
            self.wfile.write(event(b"Partial"))
            self.wfile.write(b'error: {"code":500,"message":"the model crashed","type":"server_error"}\n\n')
            return
        if entry == "break":
            self.start_events(chunked=True)
            for piece in (event(b"Half an "), event(b"answer")):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                time.sleep(0.05)
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if entry == "slow":
            self.start_events()
            try:
                for i in range(200):
                    self.wfile.write(event(b"word%d " % i))
                    self.wfile.flush()
                    time.sleep(0.05)
                self.wfile.write(b"data: [DONE]\n\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if entry.startswith("200"):
            name = entry.partition("@")[2] or "text"
            self.start_events()
            self.wfile.write(b": keep-alive comment\n\n")
            for piece in CANNED[name]:
                self.wfile.write(event(piece.replace(b"\n", b"\\n").replace(b'"', b'\\"')))
                self.wfile.flush()
            self.wfile.write(b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n')
            self.wfile.write(b"data: [DONE]\n\n")
            return
        status, _, retry_after = entry.partition(":")
        headers = [("Retry-After", retry_after)] if retry_after else []
        message = {"429": "too many requests", "503": "the model is loading"}.get(status, "fault " + status)
        self.send_json(int(status), {"error": {"message": message, "type": "fault"}}, headers)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", default="200")
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.script = args.script.split(",")
    server.log = args.log
    server.count = 0
    server.lock = threading.Lock()
    print("PORT %d" % server.server_address[1], flush=True)
    # Stop when the test process closes our stdin (or dies).
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
