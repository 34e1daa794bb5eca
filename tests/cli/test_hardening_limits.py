"""Fourth adversarial round (issue 43), class 3: memory and time are bounded while reading, not after.

A zip's directory is counted from its end record before zipfile lists it (every reader of zips:
`map get`, a base map, a previous release, a map in the maps folder); every fetch has an
overall deadline and a progress rule; a remote index can point at http(s) only; a local file is
read only when it is a regular file. Network tests use servers on 127.0.0.1 of their own, with
the time limits made short, and end in seconds.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import struct
import tempfile
import time
import tracemalloc
import zipfile
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.release.maps import download as map_download
from generator.release.maps import net
from generator.safe_zip import ZipRefused, open_zip, read_entry
from tests.helpers import TINY, TINY_MAP, Result, examples, run_cli
from tests.map_server import index_of, map_zip, serving

ENTRIES = 120_000  # listed by a 6 MB zip: ~60 MB of ZipInfo objects had zipfile listed them


def _crowded_zip(entries: int = ENTRIES) -> bytes:
    """A zip whose directory lists `entries` empty files and nothing else: small, and huge to list."""
    records = bytearray()
    for number in range(entries):
        name = b"m/%d" % number
        fields = (20, 3, 20, 0, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0, 0)  # versions, sizes 0, name length
        records += struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", *fields) + name
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, len(records), 0, 0)
    return bytes(records) + end


def _peak_mb(*args: str, cwd: Path, env: dict[str, str]) -> tuple[Result, float]:
    """The command's result, and the most memory Python held while it ran (MB)."""
    tracemalloc.start()
    try:
        result = run_cli(*args, cwd=cwd, env=env)
        peak = tracemalloc.get_traced_memory()[1] / (1 << 20)
    finally:
        tracemalloc.stop()
    return result, peak


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    shutil.copytree(TINY_MAP, tmp_path / "base")
    (tmp_path / "crowded.zip").write_bytes(_crowded_zip())
    return tmp_path


# ------------------------------------------------------------------------------ zips, counted


def test_map_get_counts_a_zips_entries_before_they_are_listed(tmp_path: Path) -> None:
    files = {"crowded.zip": _crowded_zip()}
    with serving(files) as base:
        files["index.yaml"] = index_of([{"mapName": "Crowded", "url": f"{base}/crowded.zip"}])
        env = {"TRIPLEA_MAPS": str(tmp_path / "maps"), "HOME": str(tmp_path)}
        result, peak = _peak_mb("map", "get", "crowded", "--index", f"{base}/index.yaml", cwd=tmp_path, env=env)
    assert result.code == 1
    assert result.err == "Error: crowded: the zip holds more than 50000 entries, more than any map; refusing it\n"
    assert peak < 30, f"{peak:.0f} MB"  # zipfile listing it: ~50 MB
    assert list((tmp_path / "maps").iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--base-map", "crowded.zip"), "crowded.zip: the zip holds more than 50000 entries"),
        (("--base-map", "base", "--previous", "crowded.zip"), "crowded.zip: the zip holds more than 100000 entries"),
    ],
    ids=["base map", "previous release"],
)
def test_every_zip_a_package_reads_is_counted_first(project: Path, args: tuple[str, ...], message: str) -> None:
    result, peak = _peak_mb("package", "tiny", *args, cwd=project, env={})
    assert result.code == 1, result.err
    assert message in result.err and "Traceback" not in result.err
    assert peak < 30, f"{peak:.0f} MB"  # zipfile listing it: ~50 MB
    assert not (project / "dist").exists()


def test_a_crowded_zip_in_the_maps_folder_is_no_map(project: Path) -> None:
    maps = project / "maps"
    maps.mkdir()
    shutil.move(project / "crowded.zip", maps / "tiny_map-master.zip")
    result, peak = _peak_mb("validate", "tiny", cwd=project, env={"TRIPLEA_MAPS": str(maps)})
    assert result.code == 0, result.err
    assert "map 'tiny_map' not found" in result.err
    assert peak < 30, f"{peak:.0f} MB"  # zipfile listing it: ~50 MB


def _zip_of(names: list[str], comment: bytes, before: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            archive.writestr(name, name.encode() * 3)
        archive.comment = comment
    return before + buffer.getvalue()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    names=st.lists(st.text("abc/é.", min_size=1, max_size=8), max_size=40, unique=True),
    cap=st.integers(0, 45),
    comment=st.binary(max_size=30).filter(lambda b: b"PK" not in b),
    before=st.sampled_from([b"", b"#!/bin/sh\nexit 0\n" * 3]),
    flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=3),
)
def test_a_zip_is_opened_iff_its_directory_fits_and_is_read_or_refused_in_words(
    names: list[str], cap: int, comment: bytes, before: bytes, flips: list[tuple[int, int]]
) -> None:
    data = bytearray(_zip_of(names, comment, before))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "a.zip"
        path.write_bytes(bytes(data))
        if len(names) > cap:
            with pytest.raises(ZipRefused, match=f"more than {cap} entries"):
                open_zip(path, cap)
        else:
            with open_zip(path, cap) as opened, zipfile.ZipFile(path) as plain:
                assert opened.namelist() == plain.namelist()
        for at, value in flips:  # any damage: read whole, or refused in words, never another error
            data[at % len(data)] = value
        path.write_bytes(bytes(data))
        try:
            with open_zip(path, 45) as opened:
                for info in opened.infolist():
                    read_entry(opened, info, 1 << 20)
        except ZipRefused:
            pass


# ------------------------------------------------------------------------------ time, bounded


def _trickle(head: bytes, body: bytes, pause: float) -> object:
    """An answer that sends `head` at once, then `body` a byte at a time, `pause` s apart."""

    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.wfile.write(head)
        handler.wfile.flush()
        for byte in body[:200]:
            time.sleep(pause)
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()

    return answer


@pytest.fixture
def short_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits of every read, made short: a hang shows in seconds, not in minutes."""
    monkeypatch.setattr(net, "TIMEOUT", 1.5)
    monkeypatch.setattr(net, "WINDOW", 1.0)
    monkeypatch.setattr(map_download, "INDEX_SECONDS", 3.0)
    monkeypatch.setattr(map_download, "DOWNLOAD_SECONDS", 3.0)


INDEX = b"- mapName: Tiny Map\n  url: http://127.0.0.1:9/tiny.zip\n"


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (_trickle(b"", b"HTTP/1.0 200 OK\r\n\r\n" + INDEX, 0.2), "{url}: no answer within 1.5 s; giving up"),
        (
            _trickle(b"HTTP/1.0 200 OK\r\n\r\n", INDEX, 0.2),
            # How many bytes a window saw depends on the machine's load: any few is the same verdict.
            "{url}: the server sent N bytes in 1 s, too slow to go on (at least 4096 bytes every 1 s)",
        ),
        (_trickle(b"HTTP/1.0 200 OK\r\n\r\n", b"x" * 200, 0.5), "{url}: the server sent N bytes in 1 s, too slow"),
    ],
    ids=["headers a byte at a time", "index a byte at a time", "a byte every half second"],
)
def test_a_slow_index_ends_in_seconds(tmp_path: Path, short_limits: None, answer: object, message: str) -> None:
    with serving({"index.yaml": answer}) as base:  # type: ignore[dict-item]
        url = f"{base}/index.yaml"
        started = time.monotonic()
        result = run_cli("map", "list", "--index", url, cwd=tmp_path, env={"TRIPLEA_MAPS": str(tmp_path)})
    assert time.monotonic() - started < 6
    assert result.code == 1
    said = re.sub(r"sent [0-9] bytes", "sent N bytes", result.err)
    assert said.startswith("Error: " + message.format(url=url)), result.err


def test_a_slow_download_ends_at_its_deadline_and_installs_nothing(tmp_path: Path, short_limits: None) -> None:
    data = map_zip(TINY_MAP) + bytes(100_000)  # at 8 kB every half second: 8 s
    head = b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(data)

    def steady(handler: BaseHTTPRequestHandler) -> None:  # fast enough for the progress rule, never done
        handler.wfile.write(head)
        for start in range(0, len(data), 8192):
            handler.wfile.write(data[start : start + 8192])
            handler.wfile.flush()
            time.sleep(0.5)

    files: dict[str, object] = {"tiny.zip": steady}
    with serving(files) as base:  # type: ignore[arg-type]
        files["index.yaml"] = index_of([{"mapName": "Tiny Map", "url": f"{base}/tiny.zip"}])
        env = {"TRIPLEA_MAPS": str(tmp_path / "maps"), "HOME": str(tmp_path)}
        started = time.monotonic()
        result = run_cli("map", "get", "tiny_map", "--index", f"{base}/index.yaml", cwd=tmp_path, env=env)
    assert time.monotonic() - started < 8
    assert result.code == 1
    assert result.err == f"Error: tiny_map: {base}/tiny.zip: not received within 3 s; giving up; nothing installed\n"
    assert list((tmp_path / "maps").iterdir()) == []


# ------------------------------------------------------------------- where an index may point


def test_a_remote_index_cannot_point_at_a_local_file(tmp_path: Path) -> None:
    files: dict[str, bytes] = {}
    with serving(files) as base:
        files["index.yaml"] = index_of(
            [{"mapName": "Stdin", "url": "file:///dev/stdin"}, {"mapName": "Passwd", "url": "file:///etc/passwd"}]
        )
        url = f"{base}/index.yaml"
        result = run_cli("map", "get", "stdin", "--index", url, cwd=tmp_path, env={"TRIPLEA_MAPS": str(tmp_path / "m")})
    assert result.code == 1
    assert result.err.splitlines() == [
        f"warning: {url}: map 1 (stdin): its url is not an http(s) URL (an index from the network may point at "
        "http(s) only); skipped",
        f"warning: {url}: map 2 (passwd): its url is not an http(s) URL (an index from the network may point at "
        "http(s) only); skipped",
        "Error: no map 'stdin' in the map index; `triplea-forge map list` lists them",
    ]


def test_a_local_index_or_zip_that_is_no_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    env = {"TRIPLEA_MAPS": str(tmp_path / "maps"), "HOME": str(tmp_path)}
    listed = run_cli("map", "list", "--index", fifo.as_uri(), cwd=tmp_path, env=env)
    assert (listed.code, listed.err) == (1, f"Error: {fifo.as_uri()}: it is a FIFO, not a file; refusing it\n")
    index = tmp_path / "index.yaml"
    index.write_bytes(index_of([{"mapName": "Fifo", "url": fifo.as_uri()}]))
    got = run_cli("map", "get", "fifo", "--index", index.as_uri(), cwd=tmp_path, env=env)
    assert (got.code, got.err) == (1, f"Error: fifo: {fifo.as_uri()}: it is a FIFO, not a file; refusing it\n")
    assert list((tmp_path / "maps").iterdir()) == []
