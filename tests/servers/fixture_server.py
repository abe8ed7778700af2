#!/usr/bin/env python3
"""Loopback HTTP server for the price-feed tests: serves fixture files shaped like each
provider's real responses, with the failure modes the refresh must survive.

Routes come from every routes.json under --root. Each route:
  path         exact request path, without the query ("/azure/ok/api/retail/prices")
  query        optional exact query string; query_has: list of substrings it must contain
  body_has     list of substrings the request body must contain (POST-paged APIs)
  file         body file, relative to the routes.json folder
  status       HTTP status (default 200)
  headers      extra response headers; "{REDIRECT_BASE}" in a value becomes the environment
               variable FIXTURE_REDIRECT_BASE (a second server, for cross-origin redirects)
  etag         served as ETag; a matching If-None-Match gets 304
  last_modified  served as Last-Modified; a matching If-Modified-Since gets 304
  auth         the Authorization header required (else 401)
  sequence     list of partial routes served in turn, one per request; the last repeats
  delay        seconds to wait before answering (slow servers)
  truncate     send only this many bytes of the body after a Content-Length for all of it
  size         generate a body of this many bytes (oversized responses)
  gzip         compress the body (Content-Encoding: gzip)
A request no route matches gets 404, so a wrong URL fails loudly. Every request is logged,
one JSON object a line, to --log (of the Authorization header only its scheme is logged, of
X-Amz-Security-Token only whether it came).

The port is chosen by the OS and written to --port-file once the server listens.
"""

import argparse
import gzip
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


def load_routes(root):
    routes = []
    for folder, _dirs, files in os.walk(root):
        if "routes.json" not in files:
            continue
        with open(os.path.join(folder, "routes.json"), encoding="utf-8") as f:
            for route in json.load(f)["routes"]:
                route["_dir"] = folder
                routes.append(route)
    # routes constrained on the query are more specific: try them first
    routes.sort(key=lambda r: 0 if ("query" in r or "query_has" in r or "body_has" in r) else 1)
    return routes


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fixture/1"

    def log_message(self, fmt, *args):  # quiet: the JSON log says everything
        pass

    def find_route(self, path, query, body):
        for route in self.server.routes:
            if route["path"] != path:
                continue
            if any(s not in body for s in route.get("body_has", [])):
                continue
            if "query" in route and route["query"] != query:
                continue
            if any(s not in query for s in route.get("query_has", [])):
                continue
            return route
        return None

    def pick(self, route):
        seq = route.get("sequence")
        if not seq:
            return route
        with self.server.lock:
            key = id(route)
            n = self.server.counters.get(key, 0)
            self.server.counters[key] = n + 1
        step = dict(route)
        step.pop("sequence")
        step.update(seq[min(n, len(seq) - 1)])
        return step

    def body_of(self, route):
        if "size" in route:
            chunk = b'{"padding": "' + b"x" * 1000 + b'"}\n'
            return (chunk * (route["size"] // len(chunk) + 1))[: route["size"]]
        if "file" in route:
            with open(os.path.join(route["_dir"], route["file"]), "rb") as f:
                return f.read()
        return b""

    def log_request_line(self, status):
        entry = {
            "method": self.command,
            "path": self.path,
            "status": status,
            "auth": "present" if self.headers.get("Authorization") else "absent",
            # the scheme only ("Bearer", "AWS4-HMAC-SHA256"): credentials are never logged
            "auth_scheme": (self.headers.get("Authorization") or "").split(" ")[0],
            "amz_target": self.headers.get("X-Amz-Target"),
            "session_token": "present" if self.headers.get("X-Amz-Security-Token") else "absent",
            "if_none_match": self.headers.get("If-None-Match"),
            "if_modified_since": self.headers.get("If-Modified-Since"),
            "user_agent": self.headers.get("User-Agent"),
        }
        with self.server.lock, open(self.server.log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")

    def reply(self, status, body=b"", headers=None):
        # logged before the reply: a client that has its answer finds its request in the log
        self.log_request_line(status)
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if "Content-Length" not in (headers or {}):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        parts = urlsplit(self.path)
        route = self.find_route(parts.path, parts.query, body)
        if route is None:
            self.reply(404, b'{"error": "no fixture for this URL"}\n',
                       {"Content-Type": "application/json"})
            return
        route = self.pick(route)
        if route.get("delay"):
            time.sleep(route["delay"])
        if "auth" in route and self.headers.get("Authorization") != route["auth"]:
            self.reply(401, b'{"error": "unauthorized"}\n', {"Content-Type": "application/json"})
            return
        headers = {"Content-Type": route.get("content_type", "application/json")}
        redirect_base = os.environ.get("FIXTURE_REDIRECT_BASE", "")
        headers.update({name: value.replace("{REDIRECT_BASE}", redirect_base)
                        for name, value in route.get("headers", {}).items()})
        if "etag" in route:
            headers["ETag"] = route["etag"]
            if self.headers.get("If-None-Match") == route["etag"]:
                self.reply(304, b"", {"ETag": route["etag"]})
                return
        if "last_modified" in route:
            headers["Last-Modified"] = route["last_modified"]
            if self.headers.get("If-Modified-Since") == route["last_modified"]:
                self.reply(304, b"", {"Last-Modified": route["last_modified"]})
                return
        body = self.body_of(route)
        if route.get("gzip") and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        status = route.get("status", 200)
        if "truncate" in route:
            headers["Content-Length"] = str(len(body))
            self.log_request_line(status)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body[: route["truncate"]])
            self.wfile.flush()
            self.close_connection = True
            return
        self.reply(status, body, headers)

    do_GET = handle_any
    do_POST = handle_any
    do_HEAD = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # clients that hang up early (size caps, timeouts, killed refreshes) are expected
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True, help="folder searched for routes.json files")
    ap.add_argument("--port-file", required=True, help="where to write the port")
    ap.add_argument("--log", required=True, help="request log, one JSON object a line")
    args = ap.parse_args()

    server = Server(("127.0.0.1", 0), Handler)
    server.routes = load_routes(args.root)
    server.counters = {}
    server.lock = threading.Lock()
    server.log_path = args.log
    open(args.log, "w", encoding="utf-8").close()
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
