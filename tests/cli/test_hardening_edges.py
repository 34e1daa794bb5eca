"""Fourth adversarial round (issue 43), class 4: what comes from outside is checked at the edge.

Numbers (a seed the harness reads as a Java long, rounds as an int), URLs, zips and records are
refused with one located line and exit 1 or 2, never exit 3 or a game reported FAILED with the
harness's usage text; a corrupt build-cache record is ignored and rebuilt.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli import cli
from generator.diagnostics import ForgeError
from generator.emit import cache
from generator.emit.coverage import MutationScore
from generator.release.maps import download as map_download
from generator.release.maps.net import FetchError
from tests.helpers import ROOT, TINY, TINY_MAP, examples, run_cli
from tests.map_server import index_of, serving

JAVA_LONG_MAX = (1 << 63) - 1


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    return tmp_path


# ------------------------------------------------------------------------------------- URLs


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://127.0.0.1:9/my maps.yaml", "holds a space, which no URL does (write a space as %20)"),
        ("http://127.0.0.1:9/a\tb", "holds '\\t', which no URL does (write a space as %20)"),
        ("http://127.0.0.1:99999/index.yaml", "is not a URL (Port out of range 0-65535)"),
        ("http://[::1/index.yaml", "is not a URL (Invalid IPv6 URL)"),
        ("ftp://127.0.0.1/index.yaml", "is not an http(s) or file URL"),
        ("http:///index.yaml", "names no host"),
        ("index.yaml", "is not an http(s) or file URL"),
    ],
)
def test_an_index_url_is_checked_before_it_is_opened(tmp_path: Path, url: str, problem: str) -> None:
    for command in (["map", "list"], ["map", "get", "tiny_map"]):
        result = run_cli(*command, "--index", url, cwd=tmp_path, env={"TRIPLEA_MAPS": str(tmp_path / "maps")})
        assert (result.code, result.err) == (1, f"Error: --index {url!r} {problem}\n")
    from_env = run_cli("map", "list", cwd=tmp_path, env={"TRIPLEA_MAP_INDEX": url, "HOME": str(tmp_path)})
    assert (from_env.code, from_env.err) == (1, f"Error: $TRIPLEA_MAP_INDEX {url!r} {problem}\n")


_DISALLOWED_BY_HTTP_CLIENT = re.compile("[\x00-\x20\x7f]")  # http.client's check of a request's URL


@settings(max_examples=examples(400), deadline=None)
@given(st.text(max_size=40).map(lambda tail: "http://127.0.0.1" + tail) | st.text(max_size=40))
def test_a_url_that_passes_is_one_urllib_opens_without_raising_on_its_form(url: str) -> None:
    try:
        checked = map_download.index_url(url)
    except FetchError:
        return
    parts = urlsplit(checked)
    assert parts.scheme.lower() in ("http", "https", "file")
    assert parts.port is None or 0 <= parts.port <= 65535
    assert not _DISALLOWED_BY_HTTP_CLIENT.search(checked)


# --------------------------------------------------------------------------------------- zips


def _encrypted(data: bytes) -> bytes:
    """`data`, a zip, with the 'encrypted' flag set on every entry (as a zip made with a password)."""
    marked = bytearray(data)
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (start := marked.find(signature, start)) != -1:
            marked[start + flags_at] |= 0x1
            start += 4
    return bytes(marked)


def _unknown_method(data: bytes) -> bytes:
    """`data`, a stored zip, whose entries say they are compressed by a method zipfile lacks (97)."""
    marked = bytearray(data)
    for signature, method_at in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (start := marked.find(signature, start)) != -1:
            marked[start + method_at : start + method_at + 2] = (97).to_bytes(2, "little")
            start += 4
    return bytes(marked)


def _map_zip(compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for path in sorted(TINY_MAP.rglob("*")):
            if path.is_file():
                archive.write(path, "tiny_map-master/" + path.relative_to(TINY_MAP).as_posix())
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            _encrypted(_map_zip()),
            "zip entry 'tiny_map-master/README.md' is encrypted, which no map is; refusing the zip",
        ),
        (
            _unknown_method(_map_zip(zipfile.ZIP_STORED)),
            "zip entry 'tiny_map-master/README.md' cannot be read (That compression method is not supported)",
        ),
        (_map_zip()[:-30], "the download is not a readable zip (File is not a zip file); nothing installed"),
    ],
    ids=["encrypted", "unknown method", "cut short"],
)
def test_a_zip_that_cannot_be_read_is_said_in_words(tmp_path: Path, data: bytes, message: str) -> None:
    files = {"map.zip": data}
    with serving(files) as base:
        files["index.yaml"] = index_of([{"mapName": "Tiny Map", "url": f"{base}/map.zip"}])
        env = {"TRIPLEA_MAPS": str(tmp_path / "maps"), "HOME": str(tmp_path)}
        result = run_cli("map", "get", "tiny_map", "--index", f"{base}/index.yaml", cwd=tmp_path, env=env)
    assert (result.code, result.err) == (1, f"Error: tiny_map: {message}\n")
    assert list((tmp_path / "maps").iterdir()) == []
    (tmp_path / "rules").mkdir()
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    (tmp_path / "base.zip").write_bytes(data)
    packaged = run_cli("package", "tiny", "--base-map", "base.zip", cwd=tmp_path, env=env)
    assert packaged.code == 1 and "Traceback" not in packaged.err and "internal error" not in packaged.err


# ------------------------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", str(JAVA_LONG_MAX + 1)], "Invalid value for '--seed': 9223372036854775808 is not in the range"),
        (["--seed", "-9223372036854775809"], "Invalid value for '--seed': -9223372036854775809 is not in the range"),
        (["--seed", str(JAVA_LONG_MAX), "-n", "2"], "Invalid value for --seed: 9223372036854775807 with 2 games plays"),
        (
            ["--rounds", str(1 << 31)],
            "Invalid value for '--rounds' / '-r': 2147483648 is not in the range 1<=x<=2147483647",
        ),
        (
            ["--games", "10000000000"],
            "Invalid value for '--games' / '-n': 10000000000 is not in the range 1<=x<=1000000",
        ),
        (["--choice-rate", "nan"], "Invalid value for '--choice-rate': nan is not a number in the range 0<=x<=1"),
        (["--margin", "nan"], "Invalid value for '--margin': nan is not a number in the range 0<x<=1"),
        (["--workers", "100000"], "Invalid value for '--workers' / '-w': 100000 is not in the range 1<=x<=1024"),
    ],
)
def test_balance_numbers_are_checked_before_anything_is_built(project: Path, args: list[str], message: str) -> None:
    result = run_cli("balance", "tiny", *args, cwd=project)
    assert result.code == 2
    assert result.err.splitlines()[-1].startswith(f"Error: {message}"), result.err
    assert not (project / "output").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", str(JAVA_LONG_MAX), "-n", "2"], "Invalid value for --seed: 9223372036854775807 with 2 games plays"),
        (["--seed", str(JAVA_LONG_MAX + 1)], "Invalid value for '--seed': 9223372036854775808 is not in the range"),
        (["--seed", "1e3"], "Invalid value for '--seed': '1e3' is not a valid integer"),
        (["--rounds", str(1 << 31)], "Invalid value for '--rounds': 2147483648 is not in the range 0<=x<=2147483647"),
        (["--games", str(1 << 40)], "Invalid value for '--games' / '-n': 1099511627776 is not in the range"),
        (["--timeout", "nan"], "Invalid value for '--timeout': nan is not a number in the range 1<=x<="),
        (["--jobs", str(1 << 20)], "Invalid value for '--jobs' / '-j': 1048576 is not in the range 1<=x<=1024"),
    ],
)
def test_check_numbers_are_checked_before_anything_is_built(project: Path, args: list[str], message: str) -> None:
    """The harness reads a seed as a Java long and rounds as an int: past them it printed its usage,
    which `check` reported as the variant FAILED."""
    result = run_cli("check", "tiny", *args, cwd=project)
    assert result.code == 2
    assert result.err.splitlines()[-1].startswith(f"Error: {message}"), result.err
    assert not (project / "output").exists()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(-(1 << 64), 1 << 64) | st.sampled_from([JAVA_LONG_MAX, JAVA_LONG_MAX + 1, -(1 << 63)]),
    games=st.integers(1, 3),
)
def test_every_seed_a_study_would_play_is_a_java_long_or_refused(seed: int, games: int) -> None:
    result = CliRunner().invoke(cli, ["balance", "nosuch", "--seed", str(seed), "-n", str(games)])
    assert result.exit_code == 2, result.output
    in_range = seed >= -(1 << 63) and seed + games - 1 <= JAVA_LONG_MAX
    assert ("no variant 'nosuch'" in result.output) == in_range  # else the seed was refused first


# ------------------------------------------------------------------------------------ records


CONFLICT = '<<<<<<< HEAD\n{"entries": {}}\n=======\n{"entries": {"x": {}}}\n>>>>>>> theirs\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (CONFLICT, "{path}:1:1: a git merge conflict is left in the mutation record"),
        ('{"entries": {}, "fingerprint": "ab"\n', "{path}:2:1: not a mutation record: Expecting ',' delimiter"),
        ("null", "{path}: not a mutation record (a JSON object of variant, fingerprint and entries)"),
        ('{"entries": []}', "{path}: entries: is not a mapping of rule ids to results"),
        ('{"entries": {"aare-base-01": {"mutants": "6"}}}', "{path}: entries.aare-base-01.mutants: '6' is not a count"),
        ('{"entries": {"aare-base-01": {"survivors": [1]}}}', "{path}: entries.aare-base-01.survivors: is not a list"),
    ],
    ids=["conflict", "cut short", "null", "entries a list", "count a text", "survivor a number"],
)
def test_a_mutation_record_that_is_not_one_is_said_where(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "aare.json").write_text(text, encoding="utf-8")
    result = run_cli("coverage", "aare", "--mutation-results", str(tmp_path), cwd=ROOT)
    assert result.code == 1, result.err
    first, count = result.err.splitlines()
    assert first.startswith(message.format(path=tmp_path / "aare.json")), first
    assert first.endswith("; sweep again (coverage VARIANT --mutate) or take the record from git")
    assert count == "1 error found."


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _records(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Any JSON, and JSON shaped nearly as a record is (the fields a record has, any values)."""
    fields = ["files", "warnings", "maps", "reads", "boards", "entries", "fingerprint", "mutants", "survivors"]
    return strategy | st.dictionaries(st.sampled_from(fields), strategy, max_size=5)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(record=_records(_JSON), nested=_records(_JSON))
def test_any_record_is_read_or_refused_in_words(
    tmp_path_factory: pytest.TempPathFactory, record: Any, nested: Any
) -> None:
    folder = tmp_path_factory.mktemp("records")
    path = folder / "aare.json"
    for value in (record, {"entries": {"aare-base-01": nested}}):
        path.write_text(json.dumps(value), encoding="utf-8")
        try:
            MutationScore.read(path, {"aare-base-01"})
        except ForgeError as exc:
            assert len(exc.diagnostics) == 1 and "\n" not in str(exc)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(record=_records(_JSON))
def test_any_cache_record_is_taken_or_ignored(tmp_path_factory: pytest.TempPathFactory, record: Any) -> None:
    home = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(home))
        (home / "triplea-forge" / "builds").mkdir(parents=True)
        (home / "triplea-forge" / "builds" / "k.json").write_text(json.dumps(record), encoding="utf-8")
        found = cache.recall("k", home / "output", home / "rules", lambda name: "")
    if found is not None:  # what a build answered from it reads: texts where texts go
        assert all(isinstance(w, str) for w in found.get("warnings", []))
        assert all(".." not in Path(rel).parts for rel in found.get("files", {}))


@pytest.mark.parametrize("text", ["null", "[]", "3", '{"files": null}', '{"warnings": [1]}', '{"files": {"', ""])
def test_a_corrupt_cache_record_is_ignored_and_rebuilt(project: Path, text: str) -> None:
    env = {"XDG_CACHE_HOME": str(project / ".cache")}
    assert run_cli("build", cwd=project, env=env).code == 0
    (record,) = (project / ".cache" / "triplea-forge" / "builds").glob("*.json")
    record.write_text(text, encoding="utf-8")
    for _ in range(2):  # built again, then answered from the record that build wrote
        result = run_cli("build", cwd=project, env=env)
        assert result.code == 0, result.err
        assert result.out.splitlines()[-1] == "0 files written, 3 unchanged"
    assert isinstance(json.loads(record.read_text(encoding="utf-8"))["files"], dict)
