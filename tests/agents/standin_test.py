#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Messages API stand-in (anthropic_standin.py) speaks the protocol the
agent tests rely on: a streamed answer is a well-formed event stream in the
API's order whose pieces add up to the scripted turn, the turn follows the
tool results the request carries, a retry gets the same answer, side
requests do not move the scenario, and every request is logged.
Needs no agent: it runs everywhere."""

import gzip
import http.client
import json
import os
import sys
import tempfile

# The tests run from the source tree: leave no __pycache__ there.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import anthropic_standin  # noqa: E402

FAILED = []


def check(cond, msg, quiet=False):
    """Records a check; QUIET ones (per event) print only when they fail."""
    if not cond or not quiet:
        print(("ok: " if cond else "FAIL: ") + msg)
    if not cond:
        FAILED.append(msg)


TURNS = [
    [{"type": "text", "text": "Reading the file now, then writing."},
     {"type": "tool_use", "name": "Read",
      "input": {"file_path": "/p/notes.txt", "limit": 10,
                "quoted": "a \"b\" \\ c \u00e9"}}],
    [{"type": "text", "text": "Done."}],
]
TOOLS = [{"name": "Read", "description": "read", "input_schema": {
    "type": "object"}}]


def request(conn, method, path, body=None, headers=None):
    data = None if body is None else (
        body if isinstance(body, bytes) else json.dumps(body).encode())
    conn.request(method, path, body=data, headers=headers or {
        "Content-Type": "application/json"})
    resp = conn.getresponse()
    return resp, resp.read()


def parse_sse(raw):
    """[(event, data)] of an event stream; checks each frame's shape."""
    events = []
    for frame in raw.decode().split("\n\n"):
        if not frame:
            continue
        lines = frame.split("\n")
        check(len(lines) == 2 and lines[0].startswith("event: ")
              and lines[1].startswith("data: "),
              "frame is one event line and one data line: %r" % frame[:60],
              quiet=True)
        name = lines[0][len("event: "):]
        data = json.loads(lines[1][len("data: "):])
        check(data["type"] == name, "event %s carries type %s"
              % (name, data["type"]), quiet=True)
        events.append((name, data))
    return events


def user(text):
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def main():
    with tempfile.TemporaryDirectory(prefix="lf-standin.") as tmp:
        return check_standin(os.path.join(tmp, "log"))


def check_standin(log_path):
    server = anthropic_standin.StandIn(TURNS, log_path).start()
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1])
    first = {"model": "m", "max_tokens": 100, "stream": True,
             "tools": TOOLS, "messages": [user("go")]}

    # Turn 0, streamed.
    resp, raw = request(conn, "POST", "/v1/messages?beta=true", first)
    check(resp.status == 200, "streamed answer has status 200")
    check(resp.getheader("Content-Type", "").startswith("text/event-stream"),
          "streamed answer is an event stream")
    check(resp.getheader("Transfer-Encoding") == "chunked",
          "streamed answer is chunked (the connection stays open)")
    events = parse_sse(raw)
    names = [n for n, _ in events]
    check(names[0] == "message_start" and names[-2:] ==
          ["message_delta", "message_stop"],
          "stream opens with message_start, ends with message_delta, "
          "message_stop")
    start = events[0][1]["message"]
    check(start["role"] == "assistant" and start["content"] == [] and
          start["stop_reason"] is None and "input_tokens" in start["usage"],
          "message_start holds an empty assistant message with usage")
    blocks = {}
    open_blocks = set()
    for name, data in events:
        if name == "content_block_start":
            i = data["index"]
            check(i == len(blocks), "block %d starts in order" % i, quiet=True)
            blocks[i] = dict(data["content_block"], json="")
            open_blocks.add(i)
        elif name == "content_block_delta":
            i = data["index"]
            check(i in open_blocks, "delta for open block %d" % i, quiet=True)
            d = data["delta"]
            if d["type"] == "text_delta":
                blocks[i]["text"] += d["text"]
            else:
                check(d["type"] == "input_json_delta",
                      "delta type %s is known" % d["type"], quiet=True)
                blocks[i]["json"] += d["partial_json"]
        elif name == "content_block_stop":
            open_blocks.discard(data["index"])
    check(not open_blocks, "every block is stopped")
    check(blocks[0]["type"] == "text" and blocks[0]["text"] ==
          TURNS[0][0]["text"], "text deltas add up to the scripted text")
    tu = blocks[1]
    check(tu["type"] == "tool_use" and tu["name"] == "Read" and
          tu["input"] == {} and tu["id"].startswith("toolu_"),
          "tool_use block starts with its id, name and an empty input")
    check(json.loads(tu["json"]) == TURNS[0][1]["input"],
          "input_json_delta pieces add up to the scripted input")
    delta = events[-2][1]
    check(delta["delta"]["stop_reason"] == "tool_use" and
          delta["usage"]["output_tokens"] > 0,
          "message_delta says tool_use and counts output tokens")

    # A retry of the same request gets the same turn and tool_use id.
    _, raw2 = request(conn, "POST", "/v1/messages", first)
    ids = [d["content_block"]["id"] for n, d in parse_sse(raw2)
           if n == "content_block_start" and
           d["content_block"]["type"] == "tool_use"]
    check(ids == [tu["id"]], "a retry gets the same tool_use id")

    # A side request (no tools) gets text and does not move the scenario.
    resp, raw = request(conn, "POST", "/v1/messages",
                        {"model": "m", "max_tokens": 5,
                         "messages": [user("title?")]})
    side = json.loads(raw)
    check(side["type"] == "message" and side["content"][0]["type"] == "text"
          and side["stop_reason"] == "end_turn",
          "a side request gets a plain text message")

    # Turn 1 once the tool result is back; not streamed; gzip-encoded body.
    second = dict(first, stream=False, messages=[
        user("go"),
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": tu["id"], "name": "Read",
             "input": TURNS[0][1]["input"]}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tu["id"],
             "content": [{"type": "text", "text": "1\thello"}]}]}])
    resp, raw = request(conn, "POST", "/v1/messages",
                        gzip.compress(json.dumps(second).encode()),
                        {"Content-Type": "application/json",
                         "Content-Encoding": "gzip"})
    msg = json.loads(raw)
    check(resp.status == 200 and msg["content"] == [
        {"type": "text", "text": "Done."}] and msg["stop_reason"] == "end_turn",
        "after one tool result the next turn is played, unstreamed")

    # The other endpoints.
    resp, raw = request(conn, "POST", "/v1/messages/count_tokens", first)
    check(resp.status == 200 and json.loads(raw)["input_tokens"] > 0,
          "count_tokens answers a token count")
    resp, raw = request(conn, "GET", "/v1/models")
    check(resp.status == 200 and json.loads(raw)["data"][0]["type"] ==
          "model", "models lists a model")
    resp, raw = request(conn, "HEAD", "/api/hello")
    check(resp.status == 200, "the connectivity probe HEAD /api/hello gets 200")
    resp, raw = request(conn, "POST", "/v1/nothing", {})
    err = json.loads(raw)
    check(resp.status == 404 and err["type"] == "error" and
          err["error"]["type"] == "not_found_error",
          "an unknown path gets the API's 404 error body")

    server.shutdown()
    server.server_close()
    log = anthropic_standin.read_log(log_path)
    check([(e["kind"], e["turn"]) for e in log] ==
          [("turn", 0), ("turn", 0), ("side", None), ("turn", 1),
           ("count_tokens", None), ("models", None), ("hello", None),
           ("unknown", None)],
          "the log holds every request with its kind and turn")
    check(anthropic_standin.result_text(
        anthropic_standin.tool_results(log[3]["body"])[0]) == "1\thello",
        "the log keeps the decoded body, tool results included")
    check(log[0]["headers"].get("Content-Type") == "application/json",
          "the log keeps the headers")
    if FAILED:
        print("FAIL: %d checks failed" % len(FAILED))
        return 1
    print("PASS: the stand-in")
    return 0


if __name__ == "__main__":
    sys.exit(main())
