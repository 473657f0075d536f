#!/usr/bin/python3
# aur_server.py - a loopback HTTPS stand-in for the AUR's cgit snapshots (tests/cli/test_aur.sh).
# Serves DIR/NAME.tar.gz at /cgit/aur.git/snapshot/NAME.tar.gz, an 11 MiB body at .../huge.tar.gz,
# nothing for 30 s and then a 404 at .../stall.tar.gz (a client caught mid-request), 404 for anything else, and appends every request path to LOG (so a test can show that a refused
# name never became a request).  Binds 127.0.0.1 only, on a free port it writes to PORT_FILE.
#
#   aur_server.py CERT KEY DIR LOG PORT_FILE
import http.server
import os
import socketserver
import ssl
import sys
import time

CERT, KEY, DIR, LOG, PORT_FILE = sys.argv[1:6]
PREFIX = "/cgit/aur.git/snapshot/"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def send(self, body, status=200):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with open(LOG, "a") as f:
            f.write(self.path + "\n")
        name = self.path[len(PREFIX):] if self.path.startswith(PREFIX) else ""
        if name == "huge.tar.gz":
            self.send(b"\0" * (11 << 20))
            return
        if name == "stall.tar.gz":
            time.sleep(30)
        p = os.path.join(DIR, name)
        if name and "/" not in name and os.path.isfile(p):
            self.send(open(p, "rb").read())
        else:
            self.send(b"not found\n", 404)


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
