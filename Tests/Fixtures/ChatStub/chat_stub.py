#!/usr/bin/env python3
"""A scripted Chat Completions server for the tests of `replay suite run --endpoint`.

usage: chat_stub.py SCRIPT.json LOG.jsonl

Binds 127.0.0.1 on a free port and prints the port on stdout (one line, flushed). Each POST gets
the next response of SCRIPT (a JSON array; the last is repeated once the script runs out):

  {"content": TEXT, "finish_reason": "stop", "refusal": null}  a 200 answer of that message
  {"status": 429, "error": {"code": ..., "type": ...}}         a status with an OpenAI error body
  {"status": 200, "raw": TEXT}                                 a body of exactly TEXT
  {"stall": true}                                              headers promising a body that never comes
  any of them with "chunked": true (Transfer-Encoding: chunked) or "close": true (Connection: close)

Every request is logged to LOG as one JSON line of its shape only (path, connection number,
temperature, max_tokens, response_format's type and schema name, strict, the message roles,
whether a model is named): never the messages' words.
"""
import json
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

script = json.load(open(sys.argv[1]))
log = open(sys.argv[2], "a", buffering=1)
state = {"next": 0, "connections": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        state["connections"] += 1
        self.connection_number = state["connections"]

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        request = json.loads(self.rfile.read(length))
        form = request.get("response_format") or {}
        schema = form.get("json_schema") or {}
        log.write(json.dumps({
            "path": self.path, "connection": self.connection_number,
            "temperature": request.get("temperature"), "max_tokens": request.get("max_tokens"),
            "stream": request.get("stream"), "format": form.get("type"), "schema_name": schema.get("name"),
            "strict": schema.get("strict"), "schema_type": (schema.get("schema") or {}).get("type"),
            "roles": [m.get("role") for m in request.get("messages", [])], "model": request.get("model"),
            "choices_sent": "choices" in request,
        }) + "\n")
        step = script[min(state["next"], len(script) - 1)]
        state["next"] += 1
        status = step.get("status", 200)
        if step.get("stall"):
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"{")
            self.wfile.flush()
            time.sleep(30)
            return
        if "raw" in step:
            body = step["raw"].encode()
        elif "error" in step:
            body = json.dumps({"error": dict({"message": "scripted"}, **step["error"])}).encode()
        else:
            message = {"role": "assistant", "content": step.get("content"), "refusal": step.get("refusal")}
            body = json.dumps({"id": "stub", "object": "chat.completion", "model": "stub",
                               "choices": [{"index": 0, "message": message,
                                            "finish_reason": step.get("finish_reason", "stop")}],
                               "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if step.get("close"):
            self.send_header("Connection", "close")
            self.close_connection = True
        if step.get("chunked"):
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(body), 7):
                piece = body[start:start + 7]
                self.wfile.write(b"%x;ext=1\r\n" % len(piece) + piece + b"\r\n")
            self.wfile.write(b"0\r\nX-Trailer: 1\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        self.wfile.flush()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
