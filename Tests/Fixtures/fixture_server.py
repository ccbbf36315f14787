#!/usr/bin/env python3
"""A scriptable HTTP server for cachegen's integration tests and demo app.

Standard library only. It listens on 127.0.0.1 on a port the OS picks (or --port),
prints `PORT <n>` as its first stdout line, and serves routes that tests configure at
run time:

  POST /__control/routes    {"method": "GET", "path": "/accounts/1", "status": 200,
                             "headers": {...}, "body": "text" | "json": <any JSON>,
                             "delay_ms": 0}
                            (or a list of such objects); replaces a route with the
                            same method and path. A path with a query matches only
                            that exact query; one without matches any query.
  GET  /__control/requests  the log of requests served so far, oldest first:
                            [{"method", "path" (with query), "headers", "body"}]
  POST /__control/reset     forgets every route and the request log.

A route whose headers hold an ETag answers 304 to a matching If-None-Match, as a real
server would. Unknown routes answer 404 with a JSON body. Control requests are not
logged. The server exits when its stdin closes or on SIGTERM, so it never outlives the
process that started it.
"""

import argparse
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class State:
    """Routes and the request log, shared by all handler threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.routes = {}  # (METHOD, path[?query]) -> route dict
        self.requests = []

    def add_route(self, spec):
        if not isinstance(spec, dict) or "path" not in spec:
            raise ValueError("a route needs at least a path")
        method = str(spec.get("method", "GET")).upper()
        if "json" in spec:
            body = json.dumps(spec["json"]).encode("utf-8")
        else:
            body = str(spec.get("body", "")).encode("utf-8")
        route = {
            "status": int(spec.get("status", 200)),
            "headers": {str(k): str(v) for k, v in (spec.get("headers") or {}).items()},
            "body": body,
            "delay_ms": int(spec.get("delay_ms", 0)),
        }
        if "json" in spec and not any(k.lower() == "content-type" for k in route["headers"]):
            route["headers"]["Content-Type"] = "application/json"
        with self.lock:
            self.routes[(method, spec["path"])] = route

    def find_route(self, method, target):
        path = urlsplit(target).path
        with self.lock:
            return self.routes.get((method, target)) or self.routes.get((method, path))

    def log(self, entry):
        with self.lock:
            self.requests.append(entry)

    def reset(self):
        with self.lock:
            self.routes.clear()
            self.requests.clear()


STATE = State()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # keep test output clean

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path.startswith("/__control/"):
            self.handle_control(body)
            return
        STATE.log({
            "method": self.command,
            "path": self.path,
            "headers": {name: value for name, value in self.headers.items()},
            "body": body.decode("utf-8", errors="replace"),
        })
        route = STATE.find_route(self.command, self.path)
        if route is None:
            self.send_json(404, {"error": "no route", "method": self.command, "path": self.path})
            return
        if route["delay_ms"] > 0:
            time.sleep(route["delay_ms"] / 1000)
        etag = next((v for k, v in route["headers"].items() if k.lower() == "etag"), None)
        if etag is not None and self.headers.get("If-None-Match") == etag:
            self.send_bytes(304, {"ETag": etag}, b"")
            return
        self.send_bytes(route["status"], route["headers"], route["body"])

    def handle_control(self, body):
        try:
            if self.command == "POST" and self.path == "/__control/routes":
                specs = json.loads(body or b"null")
                for spec in specs if isinstance(specs, list) else [specs]:
                    STATE.add_route(spec)
                self.send_json(200, {"ok": True})
            elif self.command == "GET" and self.path == "/__control/requests":
                with STATE.lock:
                    log = list(STATE.requests)
                self.send_json(200, log)
            elif self.command == "POST" and self.path == "/__control/reset":
                STATE.reset()
                self.send_json(200, {"ok": True})
            else:
                self.send_json(404, {"error": "unknown control endpoint", "path": self.path})
        except (ValueError, TypeError) as error:
            self.send_json(400, {"error": str(error)})

    def send_json(self, status, value):
        self.send_bytes(status, {"Content-Type": "application/json"}, json.dumps(value).encode("utf-8"))

    def send_bytes(self, status, headers, body):
        self.send_response(status)
        for name, value in headers.items():
            if name.lower() != "content-length":
                self.send_header(name, value)
        if status != 304 and not 100 <= status < 200 and status != 204:
            self.send_header("Content-Length", str(len(body)))
        else:
            body = b""
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = handle_any


def exit_when_stdin_closes():
    """The parent holds our stdin open; EOF means it is gone (even after a crash)."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 lets the OS pick a free port")
    parser.add_argument("--routes", help="a JSON file with a list of routes to serve from the start")
    parser.add_argument("--ignore-stdin", action="store_true",
                        help="keep running when stdin closes (for running by hand in the background)")
    args = parser.parse_args()

    if args.routes:
        with open(args.routes, encoding="utf-8") as file:
            specs = json.load(file)
        for spec in specs if isinstance(specs, list) else [specs]:
            STATE.add_route(spec)

    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    # A child inherits its parent's blocked signals, and the thread that spawns us (a
    # libdispatch worker in a Swift test) blocks them all; unblock SIGTERM to receive it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    if not args.ignore_stdin:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()

    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
