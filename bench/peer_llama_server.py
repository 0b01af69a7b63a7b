#!/usr/bin/env python3
"""The throughput peer of replay's model stage: llama.cpp's own `llama-server`, N parallel slots.

The peer a user who cares about throughput would run: llama.cpp's HTTP server
(bench/llama-server-build.sh builds it from the same llama.cpp sources and flags as libllama),
serving the same GGUF on 127.0.0.1 with N slots and continuous batching, and sent every request
at once from N client connections (`POST /completion`, one request per connection at a time).
The requests are bench/peer_llama_cpp_python.py's, rebuilt from the corpus exactly as
`replay-bench model` plans them (their keyed digests are printed and must equal replay's), and
are answered greedily (temperature 0 after top-k 1) under the same GBNF grammar, with replay's
output cap as `n_predict` and `cache_prompt` on, so that a slot keeps a prompt's prefix for the
next request that shares it. Each slot has replay's context per sequence (`-c` is that times N:
with a fixed slot count the server splits one KV buffer evenly among its slots). Attention is
matrix products, as in replay's shipped engine and llama-cpp-python: the server's `auto` would
turn flash attention on, whose other arithmetic changes some answers.

The prompt is sent as token ids, not text: the ids are the tokens whose digest equals replay's
(the chat framing's special tokens parsed as special, the instructions and the prompt as plain
text, each tokenized alone), and the server evaluates them as given. Sent as text, the server
would tokenize the framed whole once, with special tokens parsed everywhere: a screen holding
`<|im_end|>` would become a different request, and a word that merges with the framing a
different token sequence. The server's count of evaluated tokens is checked equal to ours.

With `--parallel 1,2,4,8` each N is run in turn (a server started, loaded and stopped per N;
its start-up and load are not timed) and the fastest is kept: the `output` and `summary` lines
are its, after one `sweep` line per N. Timing runs from the first request sent to the last
answer received. Like the other peer it prints keyed digests and counts only, never a word:

    prompt  INDEX  HMAC(instructions)  HMAC(prompt)  HMAC(grammar)  HMAC(token ids)  TOKENS
    sweep   SLOTS  SECONDS  ANSWERS_THAT_PARSE/REQUESTS
    output  INDEX  HMAC(output) | failure:REASON  OUTPUT_TOKENS
    summary JOB  REQUESTS  SECONDS  PROMPT_TOKENS  OUTPUT_TOKENS  -  llama-server:parallel=N

An answer that does not parse under the job's schema is `failure:unparsable` (the grammar
should make that impossible: a count above zero says the grammar was not applied). The server's
own output goes to /dev/null: its log can quote a grammar, which holds a group's member names.

usage: peer_llama_server.py --server PATH [--parallel N[,N...]] [--threads N] --job JOB [--limit N]
                            [--requests N] [--plan-only] --model PATH --digest-key FILE CORPUS
"""
import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree for the import below
import peer_llama_cpp_python as peer  # noqa: E402


def parses(job, text):
    """Whether `text` is JSON of the job's answer schema (Sources/Jobs: each job's Answer type)."""
    try:
        value = json.loads(text)
    except ValueError:
        return False
    if not isinstance(value, dict):
        return False

    def strings(items, low, high):
        return isinstance(items, list) and low <= len(items) <= high and all(isinstance(i, str) for i in items)

    if job == "chips":
        return value.keys() == {"replies"} and strings(value["replies"], 1, 3)
    if job == "route":
        return value.keys() == {"to"} and isinstance(value["to"], str)
    if job == "push":
        return value.keys() == {"line"} and isinstance(value["line"], str)
    if job == "draft":
        kind = value.get("kind")
        if kind == "checklist":
            return value.keys() == {"kind", "title", "items"} and isinstance(value["title"], str) and strings(value["items"], 1, 8)
        if kind == "timer":
            return (value.keys() == {"kind", "label", "minutes"} and isinstance(value["label"], str)
                    and isinstance(value["minutes"], int) and 1 <= value["minutes"] <= 180)
        if kind == "card":
            return value.keys() == {"kind", "title", "body"} and isinstance(value["title"], str) and isinstance(value["body"], str)
        return kind == "none" and value.keys() == {"kind"}
    return False


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`llama-server` on loopback with `slots` parallel slots, started and loaded on entry, stopped
    on exit."""

    def __init__(self, path, model, slots, threads):
        self.port = free_port()
        command = [path, "--model", model, "--host", "127.0.0.1", "--port", str(self.port),
                   "--parallel", str(slots), "--ctx-size", str(peer.CONTEXT_PER_SEQUENCE * slots), "--cont-batching",
                   "--flash-attn", "off"]
        if threads:
            command += ["--threads", str(threads), "--threads-batch", str(threads)]
        self.command = command

    def __enter__(self):
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"peer: llama-server exited with status {self.process.returncode} while loading")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                connection.request("GET", "/health")
                if connection.getresponse().status == 200:
                    connection.close()
                    return self
                connection.close()
            except OSError:
                pass
            time.sleep(0.1)
        self.__exit__(None, None, None)
        raise SystemExit("peer: llama-server did not become ready in 300 s")

    def __exit__(self, *_):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def body(request, tokens):
    return json.dumps({
        "prompt": tokens, "n_predict": request.max_tokens, "grammar": request.grammar, "cache_prompt": True,
        "temperature": 0.0, "top_k": 1, "samplers": ["top_k", "temperature"], "repeat_penalty": 1.0,
        "stream": False,
    }).encode("utf-8")


def answer(job, reply, tokens):
    """(digest or failure:REASON, output tokens) of one `/completion` reply."""
    if reply.get("tokens_evaluated") not in (None, len(tokens)):
        raise SystemExit("peer: llama-server evaluated another prompt than the one sent")
    # The server counts the end-of-generation token it sampled; replay and llama-cpp-python do not.
    count = int(reply.get("tokens_predicted", 0)) - (reply.get("stop_type") == "eos")
    if reply.get("stop_type") == "limit":
        return "failure:outputTruncated", count
    if reply.get("truncated") or reply.get("stop_type") != "eos":
        return f"failure:stopped-{reply.get('stop_type')}", count
    text = reply.get("content", "")
    return (peer.sha(text) if parses(job, text) else "failure:unparsable"), count


def serve(server, job, requests, prompts, slots):
    """Every request answered by `server` from `slots` connections at once: (seconds, outputs)."""
    outputs = [None] * len(requests)
    bodies = {}
    for index, (request, tokens) in enumerate(zip(requests, prompts)):
        if peer.fits(request, tokens):
            bodies[index] = body(request, tokens)
        else:
            outputs[index] = ("failure:contextExceeded", 0)
    pending = iter(sorted(bodies))
    lock = threading.Lock()
    failures = []
    ready = threading.Barrier(slots + 1)

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=3600)
        ready.wait()
        try:
            while True:
                with lock:
                    index = next(pending, None)
                if index is None:
                    return
                connection.request("POST", "/completion", body=bodies[index], headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                data = response.read()
                if response.status != 200:
                    raise RuntimeError(f"HTTP status {response.status}")
                outputs[index] = answer(job, json.loads(data), prompts[index])
        except BaseException as error:  # the type only: a message could quote a prompt
            failures.append(type(error).__name__)
        finally:
            connection.close()

    workers = [threading.Thread(target=client) for _ in range(slots)]
    for worker in workers:
        worker.start()
    ready.wait()
    started = time.perf_counter()
    for worker in workers:
        worker.join()
    seconds = time.perf_counter() - started
    if failures:
        raise SystemExit(f"peer: a request to llama-server failed ({failures[0]})")
    return seconds, outputs


def main():
    parser = argparse.ArgumentParser()
    peer.arguments(parser)
    parser.add_argument("--server", required=True)
    parser.add_argument("--parallel", default="1,2,4,8")
    args = parser.parse_args()
    sweep = [int(n) for n in args.parallel.split(",")]
    if not sweep or min(sweep) < 1:
        raise SystemExit("peer: --parallel takes slot counts above 0, comma-separated")

    requests, prompts = peer.plan(args, peer.Tokenizer.vocabulary_only(args.model))
    if args.plan_only:
        return
    best = None
    for slots in sweep:
        with Server(args.server, args.model, slots, args.threads or os.cpu_count()) as server:
            seconds, outputs = serve(server, args.job, requests, prompts, slots)
        parsed = sum(not a.startswith("failure:") for a, _ in outputs)
        print("sweep", slots, f"{seconds:.3f}", f"{parsed}/{len(outputs)}", sep="\t")
        sys.stdout.flush()
        if best is None or seconds < best[0]:
            best = (seconds, slots, outputs)
    seconds, slots, outputs = best
    peer.report(args.job, prompts, outputs, seconds, f"llama-server:parallel={slots}")


if __name__ == "__main__":
    peer.run(main)
