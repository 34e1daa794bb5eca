"""`map get`: a map installed the way TripleA's own download window installs it.

TripleA lists the maps it can download in one YAML file (its "map index": a list of entries with
`mapName`, `url` of the zip, `version`, `mapCategory`, `mapType`, `description`, `img`), fetched
from the triplea-game repository; the map goes into the player's `downloadedMaps` folder, where
both engines and this tool find it. The official index gives no size or checksum; an index of
one's own may add `size` (bytes) and `sha256`, which are then checked.

Everything from the network is untrusted: the index is read as safe YAML with an alias budget,
the zip is bounded in size, entries and file count, no entry may leave the map's folder or be a
link, and nothing appears in `downloadedMaps` until the map is complete: it is downloaded and
unpacked in a hidden staging folder inside it and renamed into place at the end (a rename on
one file system), so Ctrl-C or a lost connection leaves no half map.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from generator.diagnostics import did_you_mean
from generator.installed_map import InstalledMap, normalized_map_name
from generator.spec.load import load_text

DEFAULT_INDEX = "https://raw.githubusercontent.com/triplea-game/triplea/master/triplea_maps.yaml"
INDEX_ENV = "TRIPLEA_MAP_INDEX"
MAX_INDEX_BYTES = 16 << 20  # the official index is a few hundred kB
MAX_DOWNLOAD = 2 << 30  # the biggest real maps are a few hundred MB
MAX_UNPACKED = 4 << 30
MAX_FILES = 50_000  # real maps hold a few thousand files (tiles, unit pictures)
STAGING_PREFIX = ".forge-get-"
TIMEOUT = 30.0  # seconds without a byte before the connection counts as lost
_CHUNK = 1 << 16

Progress = Callable[[int, int | None], None]  # bytes so far, total if known


class MapDownloadError(Exception):
    """Why no map was installed, in one line (exit 1)."""


@dataclass(frozen=True)
class IndexEntry:
    """One map the index offers."""

    name: str  # mapName, as TripleA shows it
    url: str
    version: str = ""
    category: str = ""
    kind: str = "MAP"  # mapType: MAP, MAP_SKIN, MAP_TOOL, MAP_MOD
    size: int | None = None
    sha256: str | None = None

    @property
    def folder_name(self) -> str:
        """The folder it is installed as: TripleA's normalised map name (world_war_ii_revised)."""
        return normalized_map_name(self.name)


def index_url(given: str | None) -> str:
    return given or os.environ.get(INDEX_ENV) or DEFAULT_INDEX


def _open(url: str) -> Any:
    request = urllib.request.Request(url, headers={"User-Agent": "triplea-forge"})
    try:
        return urllib.request.urlopen(request, timeout=TIMEOUT)
    except urllib.error.HTTPError as exc:
        raise MapDownloadError(f"{url}: the server answered {exc.code} {exc.reason}") from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise MapDownloadError(f"cannot reach {url} ({reason}); check the network connection") from exc


def _check_scheme(url: str, what: str) -> None:
    if not url.startswith(("https://", "http://", "file://")):
        raise MapDownloadError(f"{what} {url!r} is not an http(s) or file URL")


def fetch_index(url: str) -> list[IndexEntry]:
    """The maps the index at `url` offers, in its order."""
    _check_scheme(url, "map index")
    with _open(url) as response:
        try:
            data = response.read(MAX_INDEX_BYTES + 1)
        except (TimeoutError, OSError) as exc:
            raise MapDownloadError(f"cannot read {url} ({exc}); check the network connection") from exc
    if len(data) > MAX_INDEX_BYTES:
        raise MapDownloadError(f"{url}: the map index is over {MAX_INDEX_BYTES >> 20} MB; refusing it")
    tree, problems = load_text(data.decode("utf-8", "replace"), url)
    if tree is None:  # a problem that leaves a tree (a key twice...) is no reason to refuse the index
        raise MapDownloadError(f"{url}: not a readable map index ({problems[0].message if problems else 'empty'})")
    if not isinstance(tree, list):
        raise MapDownloadError(f"{url}: a map index is a YAML list of maps, this is not one")
    return [entry for item in tree if (entry := _entry(item)) is not None]


def _entry(item: object) -> IndexEntry | None:
    """An entry of the index, or None for one without a name or URL (TripleA skips those too)."""
    if not isinstance(item, dict):
        return None
    name, url = item.get("mapName"), item.get("url") or item.get("downloadUrl")
    if not isinstance(name, str) or not isinstance(url, str) or not name.strip():
        return None
    size = item.get("size")
    digest = item.get("sha256")
    return IndexEntry(
        name=name.strip(),
        url=url.strip(),
        version=str(item.get("version", "") or ""),
        category=str(item.get("mapCategory", "") or ""),
        kind=str(item.get("mapType", "MAP") or "MAP"),
        size=size if isinstance(size, int) and not isinstance(size, bool) else None,
        sha256=_hex(digest),
    )


def _hex(digest: object) -> str | None:
    """A SHA-256 as the index gives it; one of only digits reads as a YAML integer, so it is
    written back with the leading zeros the integer lost."""
    if isinstance(digest, bool):
        return None
    if isinstance(digest, int):
        return f"{digest:064d}"
    return digest.strip().lower() if isinstance(digest, str) else None


def find_entry(entries: list[IndexEntry], wanted: str) -> IndexEntry:
    """The entry named `wanted`, by its mapName or its folder name, in any case."""
    key = normalized_map_name(wanted).lower()
    for entry in entries:
        if entry.folder_name.lower() == key:
            return entry
    hint = did_you_mean(normalized_map_name(wanted), [e.folder_name for e in entries])
    raise MapDownloadError(f"no map '{wanted}' in the map index{hint}; `triplea-forge map list` lists them")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clear_abandoned(folder: Path) -> None:
    """Staging folders of a `map get` that was killed (its process gone) are removed."""
    for path in folder.glob(f"{STAGING_PREFIX}*"):
        pid = path.name[len(STAGING_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


@contextmanager
def staging(folder: Path) -> Iterator[Path]:
    """A hidden folder inside `folder` (same file system, so the final rename is atomic), removed
    at the end whatever happens, Ctrl-C included."""
    folder.mkdir(parents=True, exist_ok=True)
    clear_abandoned(folder)
    stage = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=folder))
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def download(entry: IndexEntry, target: Path, progress: Progress) -> None:
    """The entry's zip into `target`, its size and checksum checked where known."""
    _check_scheme(entry.url, "download URL")
    digest = hashlib.sha256()
    received = 0
    with _open(entry.url) as response, open(target, "wb") as out:
        length = response.headers.get("Content-Length") if hasattr(response, "headers") else None
        announced = int(length) if length and length.isdigit() else None
        total = entry.size or announced
        if total is not None and total > MAX_DOWNLOAD:
            raise MapDownloadError(
                f"{entry.url} is {total} bytes, more than any map ({MAX_DOWNLOAD} bytes); refusing it"
            )
        progress(0, total)
        while True:
            try:
                chunk = response.read(_CHUNK)
            except (TimeoutError, OSError) as exc:
                raise MapDownloadError(f"the download of {entry.url} broke off ({exc}); nothing installed") from exc
            if not chunk:
                break
            received += len(chunk)
            if received > MAX_DOWNLOAD:
                raise MapDownloadError(f"{entry.url} is more than {MAX_DOWNLOAD} bytes, more than any map; refusing it")
            digest.update(chunk)
            out.write(chunk)
            progress(received, total)
    if announced is not None and received != announced:
        raise MapDownloadError(
            f"the download of {entry.url} broke off at {received} of {announced} bytes; nothing installed"
        )
    if entry.size is not None and received != entry.size:
        raise MapDownloadError(
            f"{entry.url} is {received} bytes, the map index says {entry.size}: not the map it lists; nothing installed"
        )
    if entry.sha256 is not None and digest.hexdigest() != entry.sha256:
        raise MapDownloadError(
            f"{entry.url} has SHA-256 {digest.hexdigest()}, the map index says {entry.sha256}: not the map it lists; "
            "nothing installed"
        )


def _safe_parts(name: str) -> list[str] | None:
    """The entry's path parts, or None when it would leave the folder it is unpacked into."""
    if name.startswith("/") or "\\" in name or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    return None if ".." in parts else parts


def unpack(archive: Path, into: Path) -> Path:
    """The zip unpacked into `into`; the folder holding the map (a single top folder, as GitHub's
    `<repo>-master/`, is the map itself)."""
    try:
        with zipfile.ZipFile(archive) as zipped:
            infos = zipped.infolist()
            if len(infos) > MAX_FILES:
                raise MapDownloadError(
                    f"the zip holds {len(infos)} entries, more than any map ({MAX_FILES}); refusing it"
                )
            if sum(info.file_size for info in infos) > MAX_UNPACKED:
                raise MapDownloadError(f"the zip unpacks to more than any map ({MAX_UNPACKED} bytes); refusing it")
            planned = []
            for info in infos:
                parts = _safe_parts(info.filename)
                if parts is None:
                    raise MapDownloadError(
                        f"zip entry {info.filename!r} would leave the map's folder; refusing the zip"
                    )
                if stat.S_ISLNK(info.external_attr >> 16):
                    raise MapDownloadError(f"zip entry {info.filename!r} is a symbolic link; refusing the zip")
                if parts:
                    planned.append((info, parts))
            written = 0
            for info, parts in planned:
                target = into.joinpath(*parts)
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with zipped.open(info) as source, open(target, "xb") as out:
                    while chunk := source.read(_CHUNK):
                        written += len(chunk)
                        if written > MAX_UNPACKED:  # the sizes a zip declares may lie
                            raise MapDownloadError(f"the zip unpacks to more than any map ({MAX_UNPACKED} bytes)")
                        out.write(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise MapDownloadError(f"the download is not a readable zip ({exc}); nothing installed") from exc
    except FileExistsError as exc:
        raise MapDownloadError(f"zip entry {exc.filename} is in it twice; refusing the zip") from exc
    tops = list(into.iterdir())
    return tops[0] if len(tops) == 1 and tops[0].is_dir() else into


def install(entry: IndexEntry, maps_folder: Path, force: bool, progress: Progress) -> Path:
    """Download, check, unpack and move the map into `maps_folder`; the folder it now is."""
    final = maps_folder / entry.folder_name
    if (final.exists() or final.is_symlink()) and not force:
        raise MapDownloadError(f"{final} exists already; give --force to replace it")
    with staging(maps_folder) as stage:
        archive = stage / "download.zip"
        download(entry, archive, progress)
        root = unpack(archive, stage / "unpacked")
        if not InstalledMap(entry.name, root).valid:
            raise MapDownloadError(f"{entry.url} holds no polygons.txt: not a TripleA map; nothing installed")
        if final.exists() or final.is_symlink():
            old = stage / "replaced"
            final.rename(old)  # removed with the staging folder
        root.rename(final)
    return final
