"""`serve`'s web server: the site's pages from memory on 127.0.0.1, each told when a save changed it.

The pages are the last good build of each variant; a build that found mistakes keeps them and puts
the mistakes at the top of every page, each at its file:line. Every page served gets a few lines of
script that ask the server for its version and reload when a build has changed it (a save, a
mistake made or mended). The files `site` writes are left without either.
"""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

from generator.errors import TripleaForgeError
from generator.paths import template_dir

VERSION = "/_forge/version"
LIVE = "/_forge/live.js"
HOST = "127.0.0.1"


@dataclass
class LiveSite:
    """What the server serves; changed by the build loop, read by the request threads."""

    files: dict[str, bytes] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # the last build's mistakes, each at its file:line
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def update(self, files: Mapping[str, bytes] | None, problems: list[str]) -> None:
        """A build's result: its files (None: keep the last good ones) and its mistakes."""
        with self.lock:
            if files is not None:
                self.files = dict(files)
            self.problems = list(problems)
            self.version += 1

    def page(self, path: str) -> tuple[int, str, bytes]:
        """(status, content type, body) for the URL path `path`."""
        with self.lock:
            files, problems, version = self.files, self.problems, self.version
        if path == VERSION:
            return 200, "text/plain; charset=utf-8", str(version).encode()
        if path == LIVE:
            return 200, "text/javascript; charset=utf-8", (template_dir() / "site" / "live.js").read_bytes()
        rel = unquote(path).lstrip("/")
        rel = rel + "index.html" if rel == "" or rel.endswith("/") else rel
        data = files.get(rel)
        if data is None and not rel.endswith(".html"):
            return 404, "text/plain; charset=utf-8", b"not found"
        kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        if not rel.endswith(".html"):
            return 200, kind, data or b""
        missing = "<!DOCTYPE html><title>not built</title><body><p>No page here (yet).</p></body>"
        body = (data or missing.encode()).decode("utf-8", "replace")
        return (200 if data is not None else 404), "text/html; charset=utf-8", _live(body, problems, version)


def _live(body: str, problems: list[str], version: int) -> bytes:
    """The page with the build's mistakes at its top and the script that reloads it after a build."""
    banner = ""
    if problems:
        said = "".join(f"<pre>{escape(p)}</pre>" for p in problems)
        count = f"{len(problems)} mistake{'s' if len(problems) != 1 else ''}"
        lead = f"<p><b>{count}</b>: the pages are those of the last good build.</p>"
        banner = f'<div id="forge-problems" role="alert">{lead}{said}</div>'
    script = f'<script src="{LIVE}" data-version="{version}"></script>'
    head, found, rest = body.partition("<body>")
    body = f"{head}<body>{banner}{rest}" if found else banner + body
    at = body.rfind("</body>")
    return (body[:at] + script + body[at:] if at >= 0 else body + script).encode("utf-8")


class _Handler(BaseHTTPRequestHandler):
    site: LiveSite

    def do_GET(self) -> None:  # the name http.server calls
        status, kind, body = self.site.page(urlsplit(self.path).path)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a reload shows the new build, pictures too
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # the terminal shows the builds, not every request


def start_server(site: LiveSite, port: int) -> ThreadingHTTPServer:
    """The server on 127.0.0.1:`port` (0: a free one), answering in a thread of its own."""
    handler = type("Handler", (_Handler,), {"site": site})
    try:
        server = ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:  # the port is taken, or not ours to take
        raise TripleaForgeError(f"cannot serve on {HOST}:{port}: {exc.strerror or exc}") from exc
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="triplea-forge serve", daemon=True).start()
    return server
