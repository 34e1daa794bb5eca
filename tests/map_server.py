"""A map index and map zips served on 127.0.0.1, as TripleA's index serves them, for `map get`.

Tests never reach the internet: `serving_maps` zips map folders of the repository (as GitHub
zips a map repository: one `<map>-master/` top folder) and serves them with an index in TripleA's
format (a YAML list of `mapName` and `url`); point TRIPLEA_MAP_INDEX at the URL it gives.
"""

from __future__ import annotations

import io
import json
import threading
import zipfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@cache
def map_zip(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{folder.name}-master/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()


Answer = bytes | Callable[[BaseHTTPRequestHandler], None]  # a file's bytes, or how to answer the request


@contextmanager
def serving(files: Mapping[str, Answer]) -> Iterator[str]:
    """Serve `files` (path under / -> its bytes, or a function that answers the request itself:
    a slow or hostile server) on 127.0.0.1; yields the base URL. Others are 404."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            answer = files.get(self.path.lstrip("/"))
            if answer is None:
                self.send_error(404)
            elif isinstance(answer, bytes):
                self.send_response(200)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            else:
                with suppress(OSError):  # the client gave up: as it should
                    answer(self)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def index_of(entries: list[dict[str, object]]) -> bytes:
    """A map index in TripleA's format (a YAML list of mappings), every value quoted as JSON quotes it."""
    lines = []
    for entry in entries:
        for number, (key, value) in enumerate(entry.items()):
            lines.append(f"{'- ' if number == 0 else '  '}{key}: {json.dumps(value)}")
    return ("\n".join(lines) + "\n").encode("utf-8")


@contextmanager
def serving_maps(maps: dict[str, Path]) -> Iterator[str]:
    """Serve `maps` (mapName -> map folder) and their index; yields the index's URL."""
    files: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            data = files.get(self.path.lstrip("/"))
            if data is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    index = []
    for name, folder in maps.items():
        files[f"{folder.name}.zip"] = map_zip(folder)
        index.append(f"- mapName: {name}\n  url: {base}/{folder.name}.zip\n  version: 1\n")
    files["index.yaml"] = "".join(index).encode()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{base}/index.yaml"
    finally:
        httpd.shutdown()
        httpd.server_close()
