#!/usr/bin/env python3
"""A tile server for the map tests: serves ROOT/{z}/{x}/{y}.png on 127.0.0.1 and counts what it
is asked, so a test can tell how many requests a job made, at most how many at once, with which
User-Agent, and how many were conditional. Prints its port on the first line of stdout and
rewrites STATS (JSON) after every request."""
import argparse, json, os, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--root", required=True)
parser.add_argument("--stats", required=True)
parser.add_argument("--cache-control", default="max-age=60")
parser.add_argument("--fail-first", type=int, default=0, help="answer 503 to the first N requests of each tile")
parser.add_argument("--status", type=int, default=0, help="answer every request with this status")
parser.add_argument("--delay", type=float, default=0.0, help="seconds before each answer")
args = parser.parse_args()

lock = threading.Lock()
stats = {"requests": 0, "conditional": 0, "not_modified": 0, "max_at_once": 0, "user_agents": [], "paths": {}}
at_once = 0


def save():
    with open(args.stats + ".tmp", "w") as f:
        json.dump(stats, f)
    os.replace(args.stats + ".tmp", args.stats)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as separate writes: with Nagle's algorithm on, a kept-alive
    # connection stalls ~40 ms per response on the client's delayed ACK (real tile servers set
    # TCP_NODELAY too).
    disable_nagle_algorithm = True

    def log_message(self, *a):
        pass

    def do_GET(self):
        global at_once
        with lock:
            at_once += 1
            stats["requests"] += 1
            stats["max_at_once"] = max(stats["max_at_once"], at_once)
            agent = self.headers.get("User-Agent", "")
            if agent not in stats["user_agents"]:
                stats["user_agents"].append(agent)
            seen = stats["paths"].get(self.path, 0)
            stats["paths"][self.path] = seen + 1
            if self.headers.get("If-None-Match"):
                stats["conditional"] += 1
        try:
            time.sleep(args.delay)
            file = os.path.join(args.root, self.path.lstrip("/").split("?")[0])
            etag = '"%s"' % self.path
            if args.status:
                self.answer(args.status)
            elif seen < args.fail_first:
                self.answer(503, {"Retry-After": "0"})
            elif not os.path.isfile(file):
                self.answer(404)
            elif self.headers.get("If-None-Match") == etag:
                with lock:
                    stats["not_modified"] += 1
                self.answer(304, {"ETag": etag, "Cache-Control": args.cache_control})
            else:
                with open(file, "rb") as f:
                    body = f.read()
                self.answer(200, {"ETag": etag, "Cache-Control": args.cache_control, "Content-Type": "image/png"}, body)
        finally:
            with lock:
                at_once -= 1
                save()

    def answer(self, status, headers={}, body=b""):
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
save()
print(server.server_address[1], flush=True)
server.serve_forever()
