"""`map get` / `map list` through the real CLI, against a map index and zips served on 127.0.0.1.

Never the internet: a small index in TripleA's format (a YAML list of mapName, url, version...)
and map zips are served by an http.server of the test's own. Every refused download leaves the
maps folder as it was: no map, no staging folder.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.helpers import TINY, TINY_MAP, Result, run_cli

HALF_SENT = threading.Event()


def _map_zip(top: str = "tiny_map-master/", extra: dict[str, bytes] | None = None) -> bytes:
    """The tiny fixture's map zipped as GitHub zips a map repository: one top folder."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(TINY_MAP.rglob("*")):
            if path.is_file():
                archive.write(path, top + path.relative_to(TINY_MAP).as_posix())
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _with_symlink() -> bytes:
    buffer = io.BytesIO(_map_zip())
    with zipfile.ZipFile(buffer, "a") as archive:
        link = zipfile.ZipInfo("tiny_map-master/map/units/Reds/link.png")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    return buffer.getvalue()


def _claiming_huge_sizes() -> bytes:
    """A small zip whose directory says its two files unpack to 3.75 GiB each (a zip bomb's lie)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a/polygons.txt", "x")
        archive.writestr("a/b.txt", "y")
    data = bytearray(buffer.getvalue())
    start = 0
    while (start := data.find(b"PK\x01\x02", start)) != -1:
        data[start + 24 : start + 28] = (0xF0000000).to_bytes(4, "little")  # uncompressed size
        start += 4
    return bytes(data)


def _many_files() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(50_001):
            archive.writestr(f"m/{number}", b"")
    return buffer.getvalue()


ZIPS: dict[str, bytes] = {}


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        name = self.path.lstrip("/")
        if name in ("stall.zip", "cut.zip"):
            data = ZIPS["good.zip"]
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            HALF_SENT.set()
            if name == "stall.zip":
                time.sleep(30)  # until the test interrupts the client
            return
        if name not in ZIPS:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(ZIPS[name])))
        self.end_headers()
        self.wfile.write(ZIPS[name])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    good = _map_zip()
    ZIPS.update({
        "good.zip": good,
        "escape.zip": _map_zip(extra={"tiny_map-master/../../evil.txt": b"evil"}),
        "absolute.zip": _map_zip(extra={"/tmp/evil.txt": b"evil"}),
        "symlink.zip": _with_symlink(),
        "huge.zip": _claiming_huge_sizes(),
        "many.zip": _many_files(),
        "notamap.zip": _map_zip(top="x/").replace(b"polygons.txt", b"polygonz.txt"),
        "notazip.zip": b"<html>a login page</html>",
    })  # fmt: skip
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    sha = hashlib.sha256(good).hexdigest()
    entries = [
        ("Tiny Map", "good.zip", f"  version: 3\n  mapCategory: EXPERIMENTAL\n  sha256: {sha}\n  size: {len(good)}\n"),
        ("Big World", "good.zip", "  mapType: MAP_SKIN\n"),
        ("Wrong Sum", "good.zip", f"  sha256: {'0' * 64}\n"),
        ("Wrong Size", "good.zip", "  size: 123\n"),
        *((name.title(), f"{name}.zip", "") for name in ("escape", "absolute", "symlink", "huge", "many")),
        ("Not A Map", "notamap.zip", ""),
        ("Not A Zip", "notazip.zip", ""),
        ("Stall", "stall.zip", ""),
        ("Cut", "cut.zip", ""),
    ]
    ZIPS["index.yaml"] = "".join(
        f"- mapName: {name}\n  url: {base}/{file}\n{more}" for name, file, more in entries
    ).encode()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield base
    httpd.shutdown()


def _env(server: str, tmp_path: Path) -> dict[str, str]:
    return {"TRIPLEA_MAP_INDEX": f"{server}/index.yaml", "TRIPLEA_MAPS": str(tmp_path / "maps"), "HOME": str(tmp_path)}


def _get(server: str, tmp_path: Path, *args: str) -> Result:
    return run_cli("map", "get", *args, cwd=tmp_path, env=_env(server, tmp_path))


def _left(tmp_path: Path) -> list[str]:
    maps = tmp_path / "maps"
    return sorted(p.name for p in maps.iterdir()) if maps.is_dir() else []


def test_get_installs_the_map_where_tripleA_and_the_checks_find_it(server: str, tmp_path: Path) -> None:
    result = _get(server, tmp_path, "tiny_map")
    assert result.code == 0, result.err
    assert result.out == "tiny_map v3: installed at maps/tiny_map\n"
    installed = tmp_path / "maps" / "tiny_map"
    assert (installed / "map" / "polygons.txt").read_bytes() == (TINY_MAP / "map" / "polygons.txt").read_bytes()
    assert _left(tmp_path) == ["tiny_map"]
    # By its title too; installed already: said, nothing downloaded.
    again = _get(server, tmp_path, "Tiny Map")
    assert again.out == "tiny_map: installed already at maps/tiny_map (--force gets it again)\n"
    forced = _get(server, tmp_path, "tiny_map", "--force")
    assert forced.code == 0 and _left(tmp_path) == ["tiny_map"]
    # The checks use it: the tiny variant validates against its board.
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "tiny").symlink_to(TINY)
    checked = run_cli("validate", cwd=tmp_path, env=_env(server, tmp_path))
    assert checked.code == 0, checked.err
    assert checked.out.splitlines()[0] == f"board: map 'tiny_map' at {installed}, for tiny"


def test_list_shows_names_versions_and_what_is_installed(server: str, tmp_path: Path) -> None:
    assert _get(server, tmp_path, "tiny_map").code == 0
    result = run_cli("map", "list", cwd=tmp_path, env=_env(server, tmp_path))
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[:2] == ["tiny_map    v3    installed Tiny Map", "big_world                   Big World [MAP_SKIN]"]
    assert lines[-1] == "13 maps; `triplea-forge map get NAME` installs one into maps"
    assert max(len(line) for line in lines) <= 80


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("wrong_sum", "has SHA-256 {sha}, the map index says {zeros}: not the map it lists; nothing installed"),
        ("wrong_size", "is {size} bytes, the map index says 123: not the map it lists; nothing installed"),
        ("escape", "zip entry 'tiny_map-master/../../evil.txt' would leave the map's folder; refusing the zip"),
        ("absolute", "zip entry '/tmp/evil.txt' would leave the map's folder; refusing the zip"),
        ("symlink", "zip entry 'tiny_map-master/map/units/Reds/link.png' is a symbolic link; refusing the zip"),
        ("huge", "the zip unpacks to more than any map (4294967296 bytes); refusing it"),
        ("many", "the zip holds more than 50000 entries, more than any map; refusing it"),
        ("not_a_map", "{url} holds no polygons.txt: not a TripleA map; nothing installed"),
        ("not_a_zip", "the download is not a readable zip (File is not a zip file); nothing installed"),
        ("cut", "the download of {url} broke off at {half} of {size} bytes; nothing installed"),
    ],
)
def test_a_bad_download_installs_nothing(server: str, tmp_path: Path, name: str, message: str) -> None:
    good = ZIPS["good.zip"]
    file = {"wrong_sum": "good", "wrong_size": "good", "not_a_map": "notamap", "not_a_zip": "notazip"}.get(name, name)
    url = f"{server}/{file}.zip"
    expected = message.format(
        sha=hashlib.sha256(good).hexdigest(), zeros="0" * 64, size=len(good), url=url, half=len(good) // 2
    )
    if name in ("wrong_sum", "wrong_size"):
        expected = f"{url} {expected}"
    result = _get(server, tmp_path, name)
    assert result.code == 1
    assert result.err == f"Error: {name}: {expected}\n"
    assert _left(tmp_path) == []
    assert not (tmp_path / "evil.txt").exists()


def test_an_unknown_name_says_the_nearest(server: str, tmp_path: Path) -> None:
    result = _get(server, tmp_path, "tiny-map")
    assert result.code == 1
    assert result.err == (
        "Error: no map 'tiny-map' in the map index (did you mean 'tiny_map'?); `triplea-forge map list` lists them\n"
    )


def test_offline_is_one_clear_line(tmp_path: Path) -> None:
    env = {"TRIPLEA_MAP_INDEX": "http://127.0.0.1:9/index.yaml", "TRIPLEA_MAPS": str(tmp_path / "maps")}
    for command in (["map", "get", "world_war_ii_revised"], ["map", "list"]):
        result = run_cli(*command, cwd=tmp_path, env=env)
        assert result.code == 1
        assert result.err == (
            "Error: cannot reach http://127.0.0.1:9/index.yaml ([Errno 111] Connection refused); check the network "
            "connection\n"
        )
    assert _left(tmp_path) == []


def test_the_index_option_wins_over_the_environment(server: str, tmp_path: Path) -> None:
    env = {**_env(server, tmp_path), "TRIPLEA_MAP_INDEX": "http://127.0.0.1:9/none.yaml"}
    result = run_cli("map", "get", "tiny_map", "--index", f"{server}/index.yaml", cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    assert _left(tmp_path) == ["tiny_map"]


def test_ctrl_c_mid_download_leaves_no_half_map(server: str, tmp_path: Path) -> None:
    HALF_SENT.clear()
    # `python -m generator`, with Ctrl-C handled as Python does when it starts with SIGINT not
    # ignored: a suite started in the background (nohup, `cmd &` in a script) passes SIGINT on ignored.
    main = (
        "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "runpy.run_module('generator', run_name='__main__', alter_sys=True)"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", main, "map", "get", "stall"],
        cwd=tmp_path, env={**os.environ, **_env(server, tmp_path)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert HALF_SENT.wait(60)
        time.sleep(0.5)  # the client has read what was sent
        staged = [p.name for p in (tmp_path / "maps").iterdir()]
        assert len(staged) == 1 and staged[0].startswith(".forge-get-")  # the download goes to a staging folder
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == "stall: interrupted; nothing installed"
    assert _left(tmp_path) == []


def test_a_map_installed_already_needs_no_network(tmp_path: Path) -> None:
    """A CI run whose maps folder is cached, or a laptop offline: `map get` is a no-op, exit 0."""
    shutil.copytree(TINY_MAP, tmp_path / "maps" / "tiny_map")
    env = {"TRIPLEA_MAP_INDEX": "http://127.0.0.1:9/index.yaml", "TRIPLEA_MAPS": str(tmp_path / "maps")}
    result = run_cli("map", "get", "Tiny Map", cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    assert result.out == "tiny_map: installed already at maps/tiny_map (--force gets it again)\n"


def test_the_official_index_format_is_read(server: str, tmp_path: Path) -> None:
    """An entry as TripleA's triplea_maps.yaml writes it (category, picture, an HTML description
    block), from a file:// index; a page that is not an index is said to be one."""
    index = tmp_path / "triplea_maps.yaml"
    index.write_text(
        "# comments, as in TripleA's file\n"
        "- mapName: World War II Revised\n  mapCategory: BEST\n"
        f"  url: {server}/good.zip\n  version: 1\n  img: {server}/preview.png\n"
        "  description: |\n    <br>A revised edition of World War II.\n    <br>Includes: LHTR\n",
        encoding="utf-8",
    )
    env = {"TRIPLEA_MAPS": str(tmp_path / "maps")}
    result = run_cli("map", "get", "world_war_ii_revised", "--index", index.as_uri(), cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    assert result.out == "world_war_ii_revised v1: installed at maps/world_war_ii_revised\n"
    page = tmp_path / "page.yaml"
    page.write_text("<html>a login page</html>\n", encoding="utf-8")
    refused = run_cli("map", "list", "--index", page.as_uri(), cwd=tmp_path, env=env)
    assert refused.code == 1
    assert refused.err == f"Error: {page.as_uri()}: a map index is a YAML list of maps, this is not one\n"
