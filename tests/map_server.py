"""A map index and map zips served on 127.0.0.1, as TripleA's index serves them, for `map get`.

Tests never reach the internet: `serving_maps` zips map folders of the repository (as GitHub
zips a map repository: one `<map>-master/` top folder) and serves them with an index in TripleA's
format (a YAML list of `mapName` and `url`); point TRIPLEA_MAP_INDEX at the URL it gives.
"""

from __future__ import annotations

import io
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
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
