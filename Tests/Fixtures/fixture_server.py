#!/usr/bin/env python3
"""A scriptable HTTP server for cachegen's integration tests and demo app.

Standard library only. It listens on 127.0.0.1 on a port the OS picks (or --port),
prints `PORT <n>` as its first stdout line, and serves routes that tests configure at
run time:

  POST /__control/routes    {"method": "GET", "path": "/accounts/1", "status": 200,
                             "headers": {...}, "body": "text" | "json": <any JSON>,
                             "delay_ms": 0, "times": N}
                            (or a list of such objects); replaces a route with the
                            same method and path. A path with a query matches only
                            that exact query; one without matches any query. With
                            "times", the route goes in front of the ones already
                            there and answers N requests, then steps aside: a test
                            can script "first a 304, then a 200".
  GET  /__control/requests  the log of requests served so far, oldest first:
                            [{"method", "path" (with query), "headers", "body",
                              "status", "response_bytes"}]; response_bytes counts
                            the status line, header fields and body as sent.
  POST /__control/reset     forgets every route and the request log.

Modes for retries, authentication and paging, as route fields:
  "times": N in front of a 200   fail N times (503, 429 with "Retry-After", …), then succeed.
  "bearer": "t2"                 401 unless the request sends `Authorization: Bearer t2`
                                 (a test changes the accepted token by setting the route again:
                                 "401 until refreshed").
  "paging": "link" | "cursor" | "page", "items": [...], "per_page": N
                                 the items in pages: "link" reads ?page=N and sends
                                 `Link: <…?page=N+1>; rel="next"` while pages remain; "cursor"
                                 reads ?after=C and answers {"items": [...], "pageInfo":
                                 {"endCursor": C or null, "hasNextPage": bool}}; "page" reads
                                 ?page=N and answers the bare array (empty past the end).

Bodies that are not text, and streams:
  "body_base64": "…"             the body's bytes in base64 (for bytes that are not UTF-8).
  "stream": ["chunk", …]         a body sent chunk by chunk as it is written (no Content-Length,
                                 the connection closes after it): an event stream. With
                                 "hold": true the server then waits for the client to close the
                                 connection and counts it.
  "stream_end": "cut"            (with "stream") the chunks go in chunked framing and the connection
                                 then closes without the last chunk: a connection lost mid-stream,
                                 which a client tells from a body that ended (see send_cut_stream).
  GET /__control/closed?path=/p&count=N
                                 waits (up to 10 s) until N connections to /p were closed by the
                                 client while held, and answers {"closed": n}; no test sleeps.
  GET /__control/connections?open=N
                                 waits (up to 10 s) until at most N connections that sent a request
                                 other than a control one are still open, and answers {"open": n,
                                 "accepted": m}: whether a client closed every connection it left.
Idempotency keys, for queued mutations:
  "idempotency": "Idempotency-Key"
                                 the route applies a request once per value of that header: the
                                 first request with a key is applied (its log entry says
                                 "applied": true) and answered; a repeat is not applied
                                 ("applied": false) and gets the same answer with
                                 `Idempotent-Replayed: true`, as Stripe-style servers do. A key
                                 counts as applied when the request arrives, before any
                                 "delay_ms", so a client killed while waiting finds it applied.
A collection the server keeps, for optimistic updates:
  "collection": "notes"          a GET answers the collection's items as a JSON array; a POST
                                 adds its JSON object body with an "id" of the server's own
                                 ("s1", "s2", …) and answers the item with the route's status.
                                 With "idempotency", a repeated key adds nothing and gets the
                                 first answer again.
Request bodies are checked byte for byte with an "expect" field:
  "expect": {"content_type": "application/x-www-form-urlencoded",
             "body": "exact text" | "body_base64": "…"}
  "expect": {"multipart": [{"headers": ["Content-Disposition: form-data; name=\"a\"", …],
                            "body": "text" | "body_base64": "…"}, …]}
                                 a multipart body must take its boundary from the request's
                                 Content-Type (multipart/form-data; boundary=…) and be exactly
                                 `--b CRLF headers CRLF CRLF body CRLF` per part, then `--b-- CRLF`
                                 (RFC 7578, RFC 2046 §5.1.1).
The route then answers what it saw, {"matched": bool, "reason": …, "content_type": …,
"body_base64": …, "parts": [{"headers": [...], "body_base64": …}]}, with the route's
status when everything matched and 422 otherwise.

Multipart responses (issue 37), read and written by an independent reader:
  "multipart_echo": true         the request's multipart body is read with Python's email parser
                                 and its parts sent back, in order, as a multipart/form-data
                                 answer with a boundary of the server's: each part's header
                                 fields as received, then its bytes (see send_multipart_echo).

Network faults, as a route's "fault" object (see send_fault):
  "fault": {"mode": "cut_short" | "cut_short_chunked" | "lying_length" | "reset" | "stall"
                    | "trickle" | "extra_bytes", …}
                                 the route's status, headers and body, sent wrong on purpose:
                                 cut short and closed, under a Content-Length that lies, reset
                                 (RST) after the headers, stalled or trickled, or followed by
                                 bytes after a valid body. A stalled connection the client closes
                                 is counted as for "hold" (GET /__control/closed).

A header value may be a list, sent as one field line per item (as a server that sends
Cache-Control twice). A route's Date header replaces the automatic one.

Revalidation works as on a real server: a route whose headers hold an ETag answers 304
to an If-None-Match that matches it (weak comparison, lists and "*" included); one with
a Last-Modified answers 304 to an identical If-Modified-Since when no If-None-Match was
sent. A 304 repeats the route's ETag, Last-Modified, Cache-Control, Expires, Age, Date
and Vary, as RFC 9110 asks. Unknown routes answer 404 with a JSON body. Control
requests are not logged. The server exits when its stdin closes or on SIGTERM, so it never outlives the
process that started it.
"""

import argparse
import base64
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
        self.routes = {}  # (METHOD, path[?query]) -> [route dict], the first one answers
        self.requests = []
        self.closed = {}  # path -> held streams the client closed
        self.closed_changed = threading.Condition(self.lock)
        self.applied_keys = set()  # idempotency keys of requests applied
        self.collections = {}  # name -> [item]
        self.answers = {}  # idempotency key -> the body first answered for it (collections)

    def add_route(self, spec):
        if not isinstance(spec, dict) or "path" not in spec:
            raise ValueError("a route needs at least a path")
        method = str(spec.get("method", "GET")).upper()
        if "json" in spec:
            body = json.dumps(spec["json"]).encode("utf-8")
        elif "body_base64" in spec:
            body = base64.b64decode(spec["body_base64"])
        else:
            body = str(spec.get("body", "")).encode("utf-8")
        route = {
            "status": int(spec.get("status", 200)),
            "headers": {str(k): [str(i) for i in v] if isinstance(v, list) else str(v)
                        for k, v in (spec.get("headers") or {}).items()},
            "body": body,
            "delay_ms": int(spec.get("delay_ms", 0)),
            "times": int(spec["times"]) if spec.get("times") is not None else None,
            "bearer": spec.get("bearer"),
            "paging": spec.get("paging"),
            "items": spec.get("items") or [],
            "per_page": int(spec.get("per_page", 2)),
            "stream": [str(chunk).encode("utf-8") for chunk in spec["stream"]] if spec.get("stream") is not None else None,
            "hold": bool(spec.get("hold", False)),
            "stream_end": spec.get("stream_end"),
            "expect": spec.get("expect"),
            "idempotency": spec.get("idempotency"),
            "collection": spec.get("collection"),
            "fault": spec.get("fault"),  # network faults: see send_fault below
            "multipart_echo": bool(spec.get("multipart_echo", False)),  # see send_multipart_echo
        }
        if "json" in spec and not any(k.lower() == "content-type" for k in route["headers"]):
            route["headers"]["Content-Type"] = "application/json"
        with self.lock:
            if route["times"] is None:
                self.routes[(method, spec["path"])] = [route]
            else:
                self.routes.setdefault((method, spec["path"]), []).insert(0, route)

    def find_route(self, method, target):
        path = urlsplit(target).path
        with self.lock:
            for key in ((method, target), (method, path)):
                routes = self.routes.get(key)
                if routes:
                    route = routes[0]
                    if route["times"] is not None:
                        route["times"] -= 1
                        if route["times"] <= 0:
                            routes.pop(0)
                    return route
            return None

    def log(self, entry):
        with self.lock:
            self.requests.append(entry)

    def reset(self):
        with self.lock:
            self.routes.clear()
            self.requests.clear()
            self.closed.clear()
            self.applied_keys.clear()
            self.collections.clear()
            self.answers.clear()

    def count_closed(self, path):
        with self.lock:
            self.closed[path] = self.closed.get(path, 0) + 1
            self.closed_changed.notify_all()

    def wait_closed(self, path, count, timeout=10):
        with self.lock:
            self.closed_changed.wait_for(lambda: self.closed.get(path, 0) >= count, timeout)
            return self.closed.get(path, 0)


STATE = State()


# --- Connections (issue 36's cancellation stress): how many connections that sent a request
# other than a control one were accepted and are still open, so a test can see that a client
# closed every connection its cancelled calls left.
class Connections:
    def __init__(self):
        self.changed = threading.Condition()
        self.open = 0
        self.accepted = 0

    def opened(self):
        with self.changed:
            self.open += 1
            self.accepted += 1

    def closed(self):
        with self.changed:
            self.open -= 1
            self.changed.notify_all()

    def wait_open_at_most(self, count, timeout=10):
        with self.changed:
            self.changed.wait_for(lambda: self.open <= count, timeout)
            return {"open": self.open, "accepted": self.accepted}


CONNECTIONS = Connections()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The head and the body are two writes: with Nagle's algorithm the body waits for the
    # client's delayed ACK (40 ms on Linux) on a kept-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # keep test output clean

    def setup(self):
        super().setup()
        self.counted = False  # whether CONNECTIONS counts this connection

    def finish(self):
        try:
            super().finish()
        finally:
            if self.counted:
                CONNECTIONS.closed()

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path.startswith("/__control/"):
            self.handle_control(body)
            return
        if not self.counted:
            self.counted = True
            CONNECTIONS.opened()
        entry = {
            "method": self.command,
            "path": self.path,
            "headers": {name: value for name, value in self.headers.items()},
            "body": body.decode("utf-8", errors="replace"),
        }
        STATE.log(entry)
        route = STATE.find_route(self.command, self.path)
        if route is None:
            self.send_json(404, {"error": "no route", "method": self.command, "path": self.path}, entry)
            return
        replayed = False
        key = None
        if route["idempotency"]:
            key = self.headers.get(route["idempotency"])
            with STATE.lock:
                replayed = key is not None and key in STATE.applied_keys
                if key is not None:
                    STATE.applied_keys.add(key)
                entry["applied"] = not replayed
        if route["delay_ms"] > 0:
            time.sleep(route["delay_ms"] / 1000)
        if replayed and key in STATE.answers:
            self.send_bytes(route["status"], dict(route["headers"], **{"Idempotent-Replayed": "true"}), STATE.answers[key], entry)
            return
        if replayed:
            self.send_bytes(route["status"], dict(route["headers"], **{"Idempotent-Replayed": "true"}), route["body"], entry)
            return
        if route["bearer"] is not None and self.headers.get("Authorization") != "Bearer " + str(route["bearer"]):
            self.send_json(401, {"error": "unauthorized"}, entry)
            return
        if route["fault"]:
            send_fault(self, route, entry)  # network faults: see send_fault below
            return
        if route["multipart_echo"]:
            send_multipart_echo(self, route, body, entry)  # multipart responses: see below
            return
        if route["paging"]:
            self.send_page(route, entry)
            return
        if route["collection"]:
            self.send_collection(route, body, key, entry)
            return
        if route["stream"] is not None and route["stream_end"] == "cut":
            send_cut_stream(self, route, entry)
            return
        if route["stream"] is not None:
            self.send_stream(route, entry)
            return
        if route["expect"] is not None:
            saw = check_body(route["expect"], self.headers.get("Content-Type", ""), body)
            self.send_json(route["status"] if saw["matched"] else 422, saw, entry)
            return
        if self.is_not_modified(route["headers"]):
            kept = ("etag", "last-modified", "cache-control", "expires", "age", "date", "vary")
            self.send_bytes(304, {k: v for k, v in route["headers"].items() if k.lower() in kept}, b"", entry)
            return
        self.send_bytes(route["status"], route["headers"], route["body"], entry)

    def send_collection(self, route, body, key, entry):
        """The collection's items (GET), or the item a POST adds to it."""
        name = route["collection"]
        headers = dict(route["headers"], **{"Content-Type": "application/json"})
        with STATE.lock:
            items = STATE.collections.setdefault(name, [])
            if self.command == "GET":
                answer = json.dumps(items).encode("utf-8")
            else:
                item = dict(json.loads(body or b"{}"), id="s%d" % (len(items) + 1))
                items.append(item)
                answer = json.dumps(item).encode("utf-8")
                if key is not None:
                    STATE.answers[key] = answer
        self.send_bytes(route["status"], headers, answer, entry)

    def send_page(self, route, entry):
        """One page of the route's items, in the route's paging style."""
        from urllib.parse import parse_qs
        split = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(split.query).items()}
        items, size = route["items"], max(1, route["per_page"])
        headers = dict(route["headers"])
        headers.setdefault("Content-Type", "application/json")
        if route["paging"] == "cursor":
            start = int(query.get("after", "0") or 0)
            page = items[start:start + size]
            more = start + size < len(items)
            value = {"items": page, "pageInfo": {"endCursor": str(start + size) if more else None, "hasNextPage": more}}
        else:
            number = max(1, int(query.get("page", "1") or 1))
            page = items[(number - 1) * size:number * size]
            value = page
            if route["paging"] == "link" and number * size < len(items):
                others = "".join(f"&{k}={v}" for k, v in sorted(query.items()) if k != "page")
                host = self.headers.get("Host", "127.0.0.1")
                headers["Link"] = f'<http://{host}{split.path}?page={number + 1}{others}>; rel="next"'
        self.send_bytes(route["status"], headers, json.dumps(value).encode("utf-8"), entry)

    def send_stream_head(self, route, entry, framing):
        """A stream's status line and header fields, `framing` last; the connection closes after it."""
        self.close_connection = True
        self.send_response_only(route["status"])
        self.send_header("Date", self.date_time_string())
        for name, value in route["headers"].items():
            for line in value if isinstance(value, list) else [value]:
                self.send_header(name, line)
        self.send_header(*framing)
        with STATE.lock:
            entry["status"] = route["status"]
        self.end_headers()

    def send_stream(self, route, entry):
        """The route's chunks as they are written, then (with "hold") waits for the client to close."""
        self.send_stream_head(route, entry, ("Connection", "close"))
        try:
            for chunk in route["stream"]:
                self.wfile.write(chunk)
                self.wfile.flush()
            if route["hold"]:
                self.connection.settimeout(30)
                while self.connection.recv(4096):
                    pass
                STATE.count_closed(urlsplit(self.path).path)
        except OSError:
            if route["hold"]:
                STATE.count_closed(urlsplit(self.path).path)

    def is_not_modified(self, headers):
        """RFC 9110 §13.1.2 and §13.1.3, for GET and HEAD."""
        if self.command not in ("GET", "HEAD"):
            return False
        def field(name):
            return next((v for k, v in headers.items() if k.lower() == name and isinstance(v, str)), None)
        etag, last_modified = field("etag"), field("last-modified")
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            if etag is None:
                return False
            candidates = [item.strip() for item in if_none_match.split(",")]
            weak = lambda tag: tag[2:] if tag.startswith("W/") else tag  # noqa: E731
            return "*" in candidates or any(weak(item) == weak(etag) for item in candidates)
        if_modified_since = self.headers.get("If-Modified-Since")
        return last_modified is not None and if_modified_since == last_modified

    def handle_control(self, body):
        try:
            if self.command == "POST" and self.path == "/__control/routes":
                specs = json.loads(body or b"null")
                for spec in specs if isinstance(specs, list) else [specs]:
                    STATE.add_route(spec)
                self.send_json(200, {"ok": True})
            elif self.command == "GET" and self.path == "/__control/requests":
                with STATE.lock:  # Serialised under the lock: entries gain fields as they are answered.
                    log = json.dumps(STATE.requests).encode("utf-8")
                self.send_bytes(200, {"Content-Type": "application/json"}, log)
            elif self.command == "GET" and self.path.startswith("/__control/closed"):
                from urllib.parse import parse_qs
                query = {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}
                closed = STATE.wait_closed(query.get("path", ""), int(query.get("count", "1")))
                self.send_json(200, {"closed": closed})
            elif self.command == "GET" and self.path.startswith("/__control/connections"):
                from urllib.parse import parse_qs
                query = {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}
                self.send_json(200, CONNECTIONS.wait_open_at_most(int(query.get("open", "0"))))
            elif self.command == "POST" and self.path == "/__control/reset":
                STATE.reset()
                self.send_json(200, {"ok": True})
            else:
                self.send_json(404, {"error": "unknown control endpoint", "path": self.path})
        except (ValueError, TypeError) as error:
            self.send_json(400, {"error": str(error)})

    def send_json(self, status, value, entry=None):
        self.send_bytes(status, {"Content-Type": "application/json"}, json.dumps(value).encode("utf-8"), entry)

    def send_bytes(self, status, headers, body, entry=None):
        self.send_response_only(status)
        self.send_header("Server", self.version_string())
        if not any(name.lower() == "date" for name in headers):
            self.send_header("Date", self.date_time_string())
        for name, value in headers.items():
            if name.lower() != "content-length":
                for line in value if isinstance(value, list) else [value]:
                    self.send_header(name, line)
        if status != 304 and not 100 <= status < 200 and status != 204:
            self.send_header("Content-Length", str(len(body)))
        else:
            body = b""
        if entry is not None:
            # Counted before anything is sent, so a client that reads the log after its
            # response always finds the figure. end_headers adds the blank line.
            head = sum(len(line) for line in getattr(self, "_headers_buffer", []))
            with STATE.lock:
                entry["status"] = status
                entry["response_bytes"] = head + 2 + (len(body) if self.command != "HEAD" else 0)
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = handle_any
    # OpenAPI 3.2's QUERY method, and LINK as an additional operation's method.
    do_QUERY = do_LINK = handle_any


# MARK: - Network faults ----------------------------------------------------------------
# A route with a "fault" object sends its status, headers and body wrong on purpose, as
# broken servers, proxies and networks do. Fields of "fault":
#   "mode": "cut_short"          Content-Length is the whole body's (or "length"), "send"
#                                bytes of the body are sent (default half), then the
#                                connection is closed (FIN).
#           "cut_short_chunked"  chunked encoding: "send" bytes in one chunk, then the
#                                connection closes without the last (zero) chunk.
#           "lying_length"       Content-Length says "length" (less than the body), the whole
#                                body follows; the connection is kept open.
#           "reset"              the head (Content-Length of the whole body) and "send" bytes
#                                (default 0), then "after_ms" (default 50) later a reset:
#                                SO_LINGER 0 and close, so the kernel sends RST.
#           "stall"              the head and "send" bytes (default 0), then nothing until the
#                                client closes the connection (counted as for "hold"), at most
#                                "hold_s" seconds (default 30).
#           "trickle"            the head, then the body one byte at a time, "interval_ms"
#                                (default 20) apart.
#           "extra_bytes"        the body under its true Content-Length, then the bytes of
#                                "extra" (text) in the same write (or "extra_after_ms" later, in
#                                a write of its own): a second response a client must never
#                                read as the answer to its next request.

def send_fault_head(handler, route, entry, length=None, chunked=False):
    """The status line and header fields of a faulty answer (Content-Length as given)."""
    handler.send_response_only(route["status"])
    handler.send_header("Date", handler.date_time_string())
    for name, value in route["headers"].items():
        if name.lower() not in ("content-length", "transfer-encoding"):
            for line in value if isinstance(value, list) else [value]:
                handler.send_header(name, line)
    if chunked:
        handler.send_header("Transfer-Encoding", "chunked")
    elif length is not None:
        handler.send_header("Content-Length", str(length))
    with STATE.lock:
        entry["status"] = route["status"]
    handler.end_headers()


def send_fault(handler, route, entry):
    """Answers with the route's fault (see the block comment above)."""
    import socket
    import struct
    fault = route["fault"]
    mode = fault.get("mode")
    body = route["body"]
    send = int(fault.get("send", len(body) // 2))
    path = urlsplit(handler.path).path
    try:
        if mode == "cut_short":
            handler.close_connection = True
            send_fault_head(handler, route, entry, length=int(fault.get("length", len(body))))
            handler.wfile.write(body[:send])
        elif mode == "cut_short_chunked":
            handler.close_connection = True
            send_fault_head(handler, route, entry, chunked=True)
            handler.wfile.write(b"%x\r\n%s\r\n" % (send, body[:send]))
        elif mode == "lying_length":
            send_fault_head(handler, route, entry, length=int(fault["length"]))
            handler.wfile.write(body)
        elif mode == "reset":
            handler.close_connection = True
            send_fault_head(handler, route, entry, length=len(body))
            handler.wfile.write(body[:int(fault.get("send", 0))])
            time.sleep(int(fault.get("after_ms", 50)) / 1000)
            handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            handler.rfile.close()  # its reference would keep the socket open past close()
            handler.connection.close()
        elif mode == "stall":
            handler.close_connection = True
            send_fault_head(handler, route, entry, length=len(body))
            handler.wfile.write(body[:int(fault.get("send", 0))])
            handler.connection.settimeout(int(fault.get("hold_s", 30)))
            try:
                while handler.connection.recv(4096):
                    pass
            except TimeoutError:
                return  # the client never closed it: not counted
            STATE.count_closed(path)
        elif mode == "trickle":
            send_fault_head(handler, route, entry, length=len(body))
            for index in range(len(body)):
                time.sleep(int(fault.get("interval_ms", 20)) / 1000)
                handler.wfile.write(body[index:index + 1])
        elif mode == "extra_bytes":
            send_fault_head(handler, route, entry, length=len(body))
            extra = str(fault.get("extra", "")).encode("utf-8")
            if int(fault.get("extra_after_ms", 0)) > 0:  # in a write (a packet) of their own, later
                handler.wfile.write(body)
                time.sleep(int(fault["extra_after_ms"]) / 1000)
                handler.wfile.write(extra)
            else:
                handler.wfile.write(body + extra)
        else:
            handler.close_connection = True
            handler.send_error(400, "unknown fault mode %r" % mode)
    except OSError:
        handler.close_connection = True
        if mode == "stall":
            STATE.count_closed(path)

# End of network faults -------------------------------------------------------------------


# --- Multipart responses (issue 37, item 3: multipart responses typed) -----------------------
# The client's multipart body is read by Python's own MIME parser (email.parser, not the strict
# reader above), and its parts are written back as a multipart/form-data answer: each part's
# header fields as the parser read them, a blank line, its bytes. So a round trip crosses an
# independent reader and writer both ways.
ECHO_BOUNDARY = "echo-7f3a9c-boundary"


def send_multipart_echo(handler, route, body, entry):
    import email.parser
    import email.policy
    content_type = handler.headers.get("Content-Type", "")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    if not message.is_multipart():
        handler.send_json(422, {"error": "not multipart", "content_type": content_type}, entry)
        return
    out = bytearray()
    for part in message.iter_parts():
        out += b"--" + ECHO_BOUNDARY.encode("ascii") + b"\r\n"
        for name, value in part.raw_items():
            out += name.encode("utf-8") + b": " + str(value).encode("utf-8") + b"\r\n"
        out += b"\r\n" + (part.get_payload(decode=True) or b"") + b"\r\n"
    out += b"--" + ECHO_BOUNDARY.encode("ascii") + b"--\r\n"
    headers = {"Content-Type": "multipart/form-data; boundary=" + ECHO_BOUNDARY}
    handler.send_bytes(route["status"], headers, bytes(out), entry)
# --- end of multipart responses -----------------------------------------------------------


# --- Streams cut short (issue 36, item 2: a finished stream ends) ---------------------------
# A stream whose connection is lost mid-stream must be told from one whose response ended. A
# close-delimited body cannot say which, so a cut stream is sent in chunked framing (RFC 9112
# section 7.1) and the connection closed without the last, empty chunk: the client has every byte
# sent and then an error, never a body that ended.
def send_cut_stream(handler, route, entry):
    """The route's chunks in chunked framing, then the connection closed without the last chunk."""
    handler.send_stream_head(route, entry, ("Transfer-Encoding", "chunked"))
    try:
        for chunk in route["stream"]:
            if chunk:  # an empty chunk would be the last one
                handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                handler.wfile.flush()
    except OSError:
        pass
# --- end of streams cut short ----------------------------------------------------------------


def multipart_parts(content_type, body):
    """The parts of a multipart body, strictly: (parts, None) or (None, why not)."""
    import re
    match = re.fullmatch(r'multipart/form-data; boundary=([0-9A-Za-z\'()+_,./:=?-]{1,70})', content_type)
    if not match:
        return None, f"Content-Type {content_type!r} is not multipart/form-data with a boundary"
    delimiter = b"--" + match.group(1).encode("ascii")
    if not body.endswith(delimiter + b"--\r\n"):
        return None, "the body does not end with the close delimiter and CRLF"
    inner = body[:-len(delimiter + b"--\r\n")]
    if not inner.startswith(delimiter + b"\r\n"):
        return None, "the body does not start with the delimiter and CRLF"
    if not inner.endswith(b"\r\n"):
        return None, "the last part does not end with CRLF before the close delimiter"
    parts = []
    # Each delimiter after the first is preceded by a CRLF that belongs to it (RFC 2046).
    for chunk in inner[len(delimiter) + 2:-2].split(b"\r\n" + delimiter + b"\r\n"):
        head, separator, content = chunk.partition(b"\r\n\r\n")
        if not separator:
            return None, "a part has no blank line after its headers"
        parts.append({"headers": head.decode("utf-8").split("\r\n"), "body": content})
    return parts, None


def check_body(expect, content_type, body):
    """Compares a request body with a route's "expect"; answers what was seen."""
    import base64
    saw = {"matched": True, "reason": None, "content_type": content_type,
           "body_base64": base64.b64encode(body).decode("ascii")}

    def expected_bytes(item):
        if "body_base64" in item:
            return base64.b64decode(item["body_base64"])
        return str(item.get("body", "")).encode("utf-8")

    def fail(reason):
        saw["matched"] = False
        saw["reason"] = saw["reason"] or reason

    if "content_type" in expect and content_type != expect["content_type"]:
        fail(f"Content-Type {content_type!r}, expected {expect['content_type']!r}")
    if "body" in expect or "body_base64" in expect:
        if body != expected_bytes(expect):
            fail("the body differs")
    if "multipart" in expect:
        parts, reason = multipart_parts(content_type, body)
        if parts is None:
            fail(reason)
        else:
            saw["parts"] = [{"headers": p["headers"], "body_base64": base64.b64encode(p["body"]).decode("ascii")}
                            for p in parts]
            wanted = expect["multipart"]
            if len(parts) != len(wanted):
                fail(f"{len(parts)} parts, expected {len(wanted)}")
            for index, (part, want) in enumerate(zip(parts, wanted)):
                if part["headers"] != want.get("headers", []):
                    fail(f"part {index} has headers {part['headers']}")
                elif part["body"] != expected_bytes(want):
                    fail(f"part {index} has another body")
    return saw


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A client that left mid-answer (a cancelled call) is expected, not an error to print."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


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

    server = Server((args.host, args.port), Handler)
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
