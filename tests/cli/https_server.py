#!/usr/bin/python3
# https_server.py - the loopback HTTPS server of the `prc setup native` tests (tests/cli/https_lib.sh).
# Serves the ruleset file given on the command line, and the misbehaviours the tests need, by path.
# Binds 127.0.0.1 only, on a free port it writes to PORT_FILE.  Never reaches anything else.
#
#   https_server.py CERT KEY RULESET PORT_FILE
import http.server
import os
import socketserver
import ssl
import sys
import time

CERT, KEY, RULESET, PORT_FILE = sys.argv[1:5]
GOOD = open(RULESET, "rb").read()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"   # one response per connection; the end of a body is the close

    def log_message(self, *args):   # quiet: the tests read prc's output, not ours
        pass

    def send(self, body, length=None, status=200, headers=()):
        self.send_response(status)
        if length is not None:
            self.send_header("Content-Length", str(length))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def do_GET(self):
        p = self.path
        port = self.server.server_address[1]
        if p == "/gitleaks.toml":
            self.send(GOOD, len(GOOD))
        elif p == "/no-credentials":        # the good body only to a client that sent no credentials
            if self.headers.get("Authorization") is None and self.headers.get("Cookie") is None:
                self.send(GOOD, len(GOOD))
            else:
                self.send(b"credentials sent\n", 17, 403)
        elif p == "/wrong":                 # the pinned size, one byte changed
            self.send(GOOD[:100] + bytes([GOOD[100] ^ 1]) + GOOD[101:], len(GOOD))
        elif p == "/short":                 # no Content-Length: the body just ends early
            self.send(GOOD[: len(GOOD) // 2])
        elif p == "/truncated":             # announces the whole body, sends half, closes
            self.send(GOOD[: len(GOOD) // 2], len(GOOD))
        elif p == "/oversized":             # announces and sends one byte more than pinned
            self.send(GOOD + b"\n", len(GOOD) + 1)
        elif p == "/oversized-stream":      # no Content-Length, far more than pinned
            self.send(GOOD * 3)
        elif p == "/redirect":              # https -> https: followed
            self.send(b"", 0, 302, [("Location", "/gitleaks.toml")])
        elif p == "/redirect-http":         # https -> plain http: refused
            self.send(b"", 0, 302, [("Location", "http://127.0.0.1:%d/gitleaks.toml" % port)])
        elif p == "/redirect-loop":
            self.send(b"", 0, 302, [("Location", "/redirect-loop")])
        elif p == "/slow":                  # headers, then a body that never completes in time
            self.send_response(200)
            self.send_header("Content-Length", str(len(GOOD)))
            self.end_headers()
            self.wfile.write(GOOD[:10])
            self.wfile.flush()
            time.sleep(20)
        else:
            self.send(b"not found\n", 10, 404)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


srv = Server(("127.0.0.1", 0), Handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(CERT, KEY)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
srv.serve_forever()
