#!/usr/bin/env python3
"""A fake checker for ProcessProviderTests: speaks providers/process/PROTOCOL.md.

Without a prompt it proofreads: every "teh" inside the selection and clear of protected text
becomes "the". A prompt picks a behaviour instead:

  echo ...             one text chunk: the request as JSON (and this process's argv)
  stream:N:MS          N text chunks "w0 ", "w1 ", ... MS ms apart; stops on cancel
  ignore-cancel:N:MS   the same, deaf to cancel
  pid                  one text chunk: the process id
  argv                 one text chunk: sys.argv[1:] as JSON
  stderr               three lines on stderr, then done
  garbage              lines that are not answers, then "ok" and done
  bad-edits            edits the host must refuse, raw bytes that are not UTF-8, two good edits
  error                an error answer
  crash                a line on stderr, then exit status 3
  exit-idle            done, then exit status 0 (between requests)
  hang                 sleeps forever, reading nothing more
"""

import json
import os
import queue
import sys
import threading
import time

out = sys.stdout.buffer
cancelled = set()
lock = threading.Lock()
requests = queue.Queue()


def log(message):
    print(message, file=sys.stderr, flush=True)


def send(message):
    out.write(json.dumps(message).encode("ascii") + b"\n")
    out.flush()


def send_raw(data):
    out.write(data + b"\n")
    out.flush()


def is_cancelled(request_id):
    with lock:
        return request_id in cancelled


def read_input():
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        if "cancel" in message:
            with lock:
                cancelled.add(message["cancel"])
            log(f"fake: cancel for request {message['cancel']}")
        else:
            requests.put(message)
    requests.put(None)


def proofread(request):
    data = request["text"].encode("utf-8")
    start, end = request["selection"]
    index = data.find(b"teh", start)
    while index >= 0 and index + 3 <= end:
        if not any(index < p_end and p_start < index + 3 for p_start, p_end in request["protected"]):
            send({"id": request["id"], "edit": {"start": index, "end": index + 3, "replacement": "the",
                                                "explanation": "\"teh\" is a typo for \"the\"",
                                                "category": "spelling", "rule": "FAKE_TEH"}})
        index = data.find(b"teh", index + 3)
    send({"id": request["id"], "done": True})


def stream(request, count, delay, deaf):
    for i in range(count):
        if not deaf and is_cancelled(request["id"]):
            log(f"fake: stopped request {request['id']} after {i} chunks")
            send({"id": request["id"], "error": "cancelled"})
            return
        send({"id": request["id"], "text": f"w{i} "})
        time.sleep(delay / 1000)
    send({"id": request["id"], "done": True})


def handle(request):
    request_id = request["id"]
    prompt = request.get("prompt") or ""
    if prompt == "":
        proofread(request)
    elif prompt.startswith("echo"):
        send({"id": request_id, "text": json.dumps(request)})
        send({"id": request_id, "done": True})
    elif prompt.startswith("stream:") or prompt.startswith("ignore-cancel:"):
        _, count, delay = prompt.split(":")
        stream(request, int(count), int(delay), prompt.startswith("ignore"))
    elif prompt == "pid":
        send({"id": request_id, "text": str(os.getpid())})
        send({"id": request_id, "done": True})
    elif prompt == "argv":
        send({"id": request_id, "text": json.dumps(sys.argv[1:])})
        send({"id": request_id, "done": True})
    elif prompt == "stderr":
        log("fake: first line")
        log("fake: ünïcödé line\nfake: third line")
        send({"id": request_id, "done": True})
    elif prompt == "garbage":
        send_raw(b"this is not json")
        send_raw(b'{"no": "id"}')
        send_raw(b'{"id": 99999, "text": "for a request that is not running"}')
        send_raw(b'{"id": %d, "something": "else"}' % request_id)
        send({"id": request_id, "text": "ok"})
        send({"id": request_id, "done": True})
    elif prompt == "bad-edits":
        # The text is "héllo wörld end": héllo 0..<6, wörld 7..<13, end 14..<17.
        def edit(fields):
            return b'{"id": %d, "edit": {%s}}' % (request_id, fields)
        send_raw(edit(b'"start": 0, "end": 6, "replacement": "Hello", "rule": "GOOD"'))
        send_raw(edit(b'"start": 7, "end": 13, "replacement": "w\xffrld"'))            # not UTF-8
        send_raw(edit(b'"start": 7, "end": 13, "replacement": "w\\udc80rld"'))         # lone surrogate
        send_raw(edit(b'"start": 14, "end": 9999, "replacement": "x"'))              # out of range
        send_raw(edit(b'"start": 9, "end": 13, "replacement": "x"'))                 # splits the ö
        send_raw(edit(b'"start": 3, "end": 5, "replacement": "x"'))                  # overlaps the first
        send_raw(edit(b'"start": -1, "end": 2, "replacement": "x"'))                 # negative
        send_raw(edit(b'"start": "7", "end": 13, "replacement": "x"'))               # not a number
        send_raw(edit(b'"start": 7, "end": 13'))                                     # no replacement
        send_raw(b'{"id": %d, "text": "caf\xe9"}' % request_id)                      # text not UTF-8
        send_raw(edit(b'"start": 7, "end": 13, "replacement": "w\\u00f6rld \\ud83d\\ude00", "rule": "GOOD"'))
        send({"id": request_id, "done": True})
    elif prompt == "error":
        send({"id": request_id, "error": "the checker says no"})
    elif prompt == "crash":
        log("fake: crashing on purpose")
        os._exit(3)
    elif prompt == "exit-idle":
        send({"id": request_id, "done": True})
        log("fake: leaving between requests")
        os._exit(0)
    elif prompt == "hang":
        log("fake: hanging")
        while True:
            time.sleep(3600)
    else:
        send({"id": request_id, "error": f"unknown prompt {prompt!r}"})


def main():
    log(f"fake checker started (pid {os.getpid()})")
    threading.Thread(target=read_input, daemon=True).start()
    while True:
        request = requests.get()
        if request is None:
            log("fake: stdin closed, leaving")
            return
        handle(request)


main()
