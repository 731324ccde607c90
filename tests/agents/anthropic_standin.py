#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback stand-in of the Anthropic Messages API, for offline agent tests.

It serves what an agent such as Claude Code calls with ANTHROPIC_BASE_URL
pointing here:

  POST /v1/messages               streamed (server-sent events, in the order
                                  and shapes the real API sends them) or not
  POST /v1/messages/count_tokens  {"input_tokens": N}, N estimated from size
  GET  /v1/models[/ID]            one model
  HEAD /api/hello                 200 (Claude Code's connectivity probe)
  anything else                   404 with the API's error body

and plays a scripted scenario. A scenario is a list of assistant turns, each
a list of content blocks ({"type": "text", "text": …} or {"type":
"tool_use", "name": …, "input": {…}}). Which turn answers a request is
decided by the conversation state, not by a counter: the number of
tool_result blocks the request carries back. Turn k answers when the tool
calls of turns 0..k-1 have all come back, so a client that retries a
request gets the same answer again. Requests without tools (the client's
side requests: titles, topic and quota checks) get a short text answer and
do not move the scenario.

Every request is appended to a log, one JSON object per line:
{"seq", "method", "path", "headers", "body_text", "body" (parsed JSON or
null), "kind" ("turn", "side", "count_tokens", "models", "hello",
"unknown"),
"turn" (the scenario turn answered, or null)}. The test reads the log to
assert on what the client sent back (tool results, errors) and on what it
never sent (a secret).

Python 3 standard library only. Run it by hand with
  python3 anthropic_standin.py SCENARIO.json LOG.jsonl
which prints the base URL it listens on.
"""

import gzip
import http.server
import json
import sys
import threading
import zlib

MODEL = "claude-sonnet-4-5-20250929"


def tool_results(body):
    """The tool_result blocks of a Messages request, in order."""
    found = []
    for msg in body.get("messages", []) if isinstance(body, dict) else []:
        content = msg.get("content") if isinstance(msg, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                found.append(block)
    return found


def result_text(block):
    """The text of a tool_result block, whether a string or a block list."""
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    parts = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, dict) and part.get("type") == "text":
            parts.append(part.get("text", ""))
    return "\n".join(parts)


class Scenario:
    """Chooses the next assistant turn from the conversation state."""

    def __init__(self, turns):
        self.turns = turns
        # Tool calls that must have come back before turn k is played.
        self.before = []
        calls = 0
        for turn in turns:
            self.before.append(calls)
            calls += sum(1 for b in turn if b.get("type") == "tool_use")

    def choose(self, body):
        """The index of the turn answering BODY, or None when past the end."""
        done = len(tool_results(body))
        for k, calls in enumerate(self.before):
            if calls == done:
                return k
        return None

    def tool_use_id(self, turn, index):
        # Deterministic, so that a retried request gets the same ids.
        return "toolu_standin_%02d_%02d" % (turn, index)


def estimate_tokens(body_text):
    return max(1, len(body_text) // 4)


def message_object(msg_id, content, stop_reason, usage):
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage,
    }


def build_content(scenario, turn_index, blocks):
    content = []
    for i, block in enumerate(blocks):
        if block.get("type") == "tool_use":
            content.append({
                "type": "tool_use",
                "id": scenario.tool_use_id(turn_index, i),
                "name": block["name"],
                "input": block["input"],
            })
        else:
            content.append({"type": "text", "text": block["text"]})
    return content


def sse_events(msg_id, content, stop_reason, input_tokens):
    """The events of one streamed message, as the API sends them."""
    usage = {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 1,
    }
    yield "message_start", {
        "type": "message_start",
        "message": message_object(msg_id, [], None, usage),
    }
    yield "ping", {"type": "ping"}
    output_tokens = 1
    for index, block in enumerate(content):
        if block["type"] == "text":
            yield "content_block_start", {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            }
            text = block["text"]
            # Several deltas, as a model streams words.
            pieces = [text[i:i + 16] for i in range(0, len(text), 16)] or [""]
            for piece in pieces:
                yield "content_block_delta", {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": piece},
                }
            output_tokens += max(1, len(text) // 4)
        else:
            yield "content_block_start", {
                "type": "content_block_start",
                "index": index,
                "content_block": {
                    "type": "tool_use",
                    "id": block["id"],
                    "name": block["name"],
                    "input": {},
                },
            }
            # The input arrives as partial JSON strings: an empty first
            # delta, then the serialised object in pieces.
            js = json.dumps(block["input"])
            yield "content_block_delta", {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "input_json_delta", "partial_json": ""},
            }
            for i in range(0, len(js), 24):
                yield "content_block_delta", {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta",
                              "partial_json": js[i:i + 24]},
                }
            output_tokens += max(1, len(js) // 4)
        yield "content_block_stop", {
            "type": "content_block_stop",
            "index": index,
        }
    yield "message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": stop_reason, "stop_sequence": None},
        "usage": {"output_tokens": output_tokens},
    }
    yield "message_stop", {"type": "message_stop"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "standin"
    sys_version = ""

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("standin: " + (fmt % args) + "\n")

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
        else:
            data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        encoding = self.headers.get("Content-Encoding", "").lower()
        if encoding == "gzip":
            data = gzip.decompress(data)
        elif encoding == "deflate":
            data = zlib.decompress(data)
        return data.decode("utf-8", "replace")

    def record(self, body_text, body, kind, turn):
        with self.server.lock:
            self.server.seq += 1
            entry = {
                "seq": self.server.seq,
                "method": self.command,
                "path": self.path,
                "headers": dict(self.headers.items()),
                "body_text": body_text,
                "body": body,
                "kind": kind,
                "turn": turn,
            }
            with open(self.server.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(entry) + "\n")

    def send_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_standin_%d" % self.server.seq)
        self.end_headers()
        self.wfile.write(data)

    def send_error_body(self, status, kind, message):
        self.send_json(status, {
            "type": "error",
            "error": {"type": kind, "message": message},
        })

    def do_GET(self):
        self.read_body()
        path = self.path.split("?")[0]
        if path == "/v1/models" or path.startswith("/v1/models/"):
            self.record("", None, "models", None)
            model = {
                "type": "model",
                "id": MODEL,
                "display_name": "Stand-in",
                "created_at": "2025-09-29T00:00:00Z",
            }
            if path == "/v1/models":
                self.send_json(200, {"data": [model], "has_more": False,
                                     "first_id": MODEL, "last_id": MODEL})
            else:
                self.send_json(200, model)
            return
        self.record("", None, "unknown", None)
        self.send_error_body(404, "not_found_error", "Not found: " + path)

    def do_HEAD(self):
        # Claude Code's connectivity probe, sent unless nonessential
        # traffic is disabled.
        known = self.path.split("?")[0] == "/api/hello"
        self.record("", None, "hello" if known else "unknown", None)
        self.send_response(200 if known else 404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        body_text = self.read_body()
        try:
            body = json.loads(body_text)
        except ValueError:
            body = None
        path = self.path.split("?")[0]
        if path == "/v1/messages/count_tokens":
            self.record(body_text, body, "count_tokens", None)
            self.send_json(200, {"input_tokens": estimate_tokens(body_text)})
            return
        if path != "/v1/messages":
            self.record(body_text, body, "unknown", None)
            self.send_error_body(404, "not_found_error", "Not found: " + path)
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self.record(body_text, body, "unknown", None)
            self.send_error_body(400, "invalid_request_error",
                                 "messages: field required")
            return
        scenario = self.server.scenario
        if body.get("tools"):
            turn = scenario.choose(body)
            if turn is None:
                blocks = [{"type": "text", "text": "The scenario is over."}]
                kind = "turn"
            else:
                blocks = scenario.turns[turn]
                kind = "turn"
        else:
            turn = None
            blocks = [{"type": "text", "text": "Stand-in"}]
            kind = "side"
        self.record(body_text, body, kind, turn)
        with self.server.lock:
            msg_id = "msg_standin_%04d" % self.server.seq
        content = build_content(scenario, turn if turn is not None else 99, blocks)
        stop = "tool_use" if any(b["type"] == "tool_use" for b in content) \
            else "end_turn"
        input_tokens = estimate_tokens(body_text)
        if not body.get("stream"):
            usage = {"input_tokens": input_tokens, "output_tokens": 10,
                     "cache_creation_input_tokens": 0,
                     "cache_read_input_tokens": 0}
            self.send_json(200, message_object(msg_id, content, stop, usage))
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("request-id", "req_standin_%d" % self.server.seq)
        self.end_headers()
        for event, data in sse_events(msg_id, content, stop, input_tokens):
            chunk = ("event: %s\ndata: %s\n\n" % (event, json.dumps(data))).encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


class StandIn(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, turns, log_path, verbose=False):
        super().__init__(("127.0.0.1", 0), Handler)
        self.scenario = Scenario(turns)
        self.log_path = log_path
        self.verbose = verbose
        self.lock = threading.Lock()
        self.seq = 0
        open(log_path, "w").close()

    @property
    def base_url(self):
        return "http://127.0.0.1:%d" % self.server_address[1]

    def start(self):
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return self


def read_log(path):
    with open(path, encoding="utf-8") as log:
        return [json.loads(line) for line in log if line.strip()]


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: anthropic_standin.py SCENARIO.json LOG.jsonl\n")
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        turns = json.load(f)
    server = StandIn(turns, sys.argv[2], verbose=True)
    print(server.base_url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
