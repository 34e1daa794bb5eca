"""Reading a URL from elsewhere (a map index, a map's zip) within bounds of time and form.

A URL is checked before it is opened: printable, without spaces, of an allowed scheme, with a
host and a port in range (http.client would raise on a space, urlsplit on a bad port: not
messages a user can act on). Redirects are followed to http(s) only (urllib follows ftp too).

Time is bounded three ways, since a socket timeout alone only bounds a silence: a server that
sends one byte every five seconds never trips it. So every connection is watched by a thread
that shuts its socket at a deadline: TIMEOUT for the answer's headers (the TLS handshake
included: the watch holds the connection from before it connects), the fetch's overall limit
for the rest; and the body must keep up a minimal rate, MIN_PROGRESS bytes in every WINDOW
seconds. A local file (file://) is read only when it is a regular file: a FIFO or /dev/stdin
would be waited on forever.
"""

from __future__ import annotations

import http.client
import os
import socket
import stat
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.client import HTTPMessage
from typing import IO, Any
from urllib.parse import urlsplit

from generator.errors import TripleaForgeError
from generator.paths import file_kind

TIMEOUT = 30.0  # seconds of silence (connecting, or between two reads) before the connection counts as lost
WINDOW = 30.0  # the progress rule: at least MIN_PROGRESS bytes arrive in every WINDOW seconds
MIN_PROGRESS = 4 << 10
MAX_URL = 4096
CHUNK = 1 << 16
WEB = ("http", "https")


class FetchError(TripleaForgeError):
    """Why nothing was fetched, in one line (exit 1)."""


def url_problem(url: str, schemes: tuple[str, ...]) -> str | None:
    """Why `url` cannot be fetched, in words that follow the URL, or None when it can."""
    if len(url) > MAX_URL:
        return f"is over {MAX_URL} characters long"
    bad = next((c for c in url if c.isspace() or not c.isprintable()), None)
    if bad is not None:
        return f"holds {'a space' if bad == ' ' else repr(bad)}, which no URL does (write a space as %20)"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - read for its check: a port out of range raises
    except ValueError as exc:
        return f"is not a URL ({exc})"
    if parts.scheme.lower() not in schemes:
        return f"is not an {' or '.join(_names(schemes))} URL"
    if parts.scheme.lower() in WEB and not parts.hostname:
        return "names no host"
    if parts.scheme.lower() == "file" and parts.netloc not in ("", "localhost"):
        return "is a file URL of another machine"
    return None


def _names(schemes: tuple[str, ...]) -> list[str]:
    return ["http(s)" if s == "http" else s for s in schemes if s != "https"]


def check_url(url: str, what: str, schemes: tuple[str, ...]) -> None:
    problem = url_problem(url, schemes)
    if problem:
        raise FetchError(f"{what} {url!r} {problem}")


class _Watch:
    """Shuts every connection of one fetch at its deadline (a thread, gone when the fetch ends)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = time.monotonic()
        # The answer's headers come within TIMEOUT (a server that trickles them is no server of
        # maps); then the body has what is left of the whole fetch's time.
        self.until = self.started + min(seconds, TIMEOUT)
        self.fired = False
        self._connections: list[http.client.HTTPConnection] = []
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="triplea-forge fetch deadline", daemon=True)
        self._thread.start()

    def watch(self, connection: http.client.HTTPConnection) -> None:
        with self._lock:
            self._connections.append(connection)

    def hold(self, sock: socket.socket | None) -> None:
        # urllib lets go of the connection's socket once the headers are read; the response reads on.
        if sock is not None:
            with self._lock:
                self._sockets.append(sock)

    def _run(self) -> None:
        while not self._done.wait(max(0.0, min(self.until - time.monotonic(), 0.5))):
            if time.monotonic() >= self.until:
                with self._lock:
                    self.fired = True
                    for sock in [*self._sockets, *(c.sock for c in self._connections if c.sock is not None)]:
                        with suppress(OSError):
                            sock.shutdown(socket.SHUT_RDWR)  # a blocked read returns at once
                return

    def answered(self) -> None:
        self.until = self.started + self.seconds

    def stop(self) -> None:
        self._done.set()
        self._thread.join()


def _handlers(watch: _Watch) -> list[urllib.request.BaseHandler]:
    """urllib's http and https handlers with connections the watch holds, and redirects to http(s) only."""

    class Http(http.client.HTTPConnection):
        def connect(self) -> None:
            watch.watch(self)
            super().connect()
            watch.hold(self.sock)

    class Https(http.client.HTTPSConnection):
        def connect(self) -> None:
            watch.watch(self)  # its raw socket is `sock` while the TLS handshake runs
            super().connect()
            watch.hold(self.sock)

    class HttpHandler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(Http, req)

    class HttpsHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(Https, req)

    class Redirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(
            self,
            req: urllib.request.Request,
            fp: IO[bytes],
            code: int,
            msg: str,
            headers: HTTPMessage,
            newurl: str,
        ) -> urllib.request.Request | None:
            if urlsplit(newurl).scheme.lower() not in WEB:
                raise FetchError(f"{req.full_url} redirects to {newurl!r}: only http(s) is followed")
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return [HttpHandler(), HttpsHandler(), Redirects()]


class Response:
    """An open URL: its announced length, and its body chunk by chunk within the rules above."""

    def __init__(self, url: str, body: Any, length: int | None, watch: _Watch | None) -> None:
        self.url = url
        self.length = length
        self._body = body
        self._watch = watch

    def chunks(self) -> Iterator[bytes]:
        window_start, window_bytes = time.monotonic(), 0
        read = getattr(self._body, "read1", self._body.read)
        while True:
            try:
                chunk = read(CHUNK)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                self._late()
                raise FetchError(f"{self.url}: the connection broke off ({exc})") from exc
            self._late()
            if not chunk:
                return
            yield chunk
            window_bytes += len(chunk)
            now = time.monotonic()
            if now - window_start >= WINDOW:
                if window_bytes < MIN_PROGRESS:
                    raise FetchError(
                        f"{self.url}: the server sent {window_bytes} bytes in {now - window_start:.0f} s, too slow "
                        f"to go on (at least {MIN_PROGRESS} bytes every {WINDOW:g} s)"
                    )
                window_start, window_bytes = now, 0

    def _late(self) -> None:
        if self._watch is not None and self._watch.fired:
            raise FetchError(f"{self.url}: not received within {self._watch.seconds:g} s; giving up")


@contextmanager
def opened(url: str, seconds: float) -> Iterator[Response]:
    """`url` (checked already: http, https or file) opened for at most `seconds` in all."""
    if urlsplit(url).scheme.lower() == "file":
        with _local(url) as response:
            yield response
        return
    watch = _Watch(seconds)
    try:
        opener = urllib.request.build_opener(*_handlers(watch))
        request = urllib.request.Request(url, headers={"User-Agent": "triplea-forge"})
        try:
            answer = opener.open(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as exc:
            raise FetchError(f"{url}: the server answered {exc.code} {exc.reason}") from exc
        except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as exc:
            if watch.fired:
                raise FetchError(f"{url}: no answer within {min(seconds, TIMEOUT):g} s; giving up") from exc
            reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
            raise FetchError(f"cannot reach {url} ({reason}); check the network connection") from exc
        watch.answered()
        with answer:
            header = answer.headers.get("Content-Length")
            length = int(header) if header and header.isdigit() and len(header) < 20 else None
            yield Response(url, answer, length, watch)
    finally:
        watch.stop()


@contextmanager
def _local(url: str) -> Iterator[Response]:
    """A file:// URL: a regular file only, opened without blocking (a FIFO is refused, not waited on)."""
    path = urllib.request.url2pathname(urlsplit(url).path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise FetchError(f"cannot read {url} ({getattr(exc, 'strerror', None) or exc})") from exc
    with os.fdopen(fd, "rb", buffering=0) as body:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise FetchError(f"{url}: it is {file_kind(status.st_mode)}, not a file; refusing it")
        yield Response(url, body, status.st_size, None)


def read_all(url: str, max_bytes: int, seconds: float, what: str) -> bytes:
    """The whole body of `url`, refused past `max_bytes` (said as `what`, "the map index")."""
    data = bytearray()
    with opened(url, seconds) as response:
        for chunk in response.chunks():
            data += chunk
            if len(data) > max_bytes:
                raise FetchError(f"{url}: {what} is over {max_bytes >> 20} MB; refusing it")
    return bytes(data)
