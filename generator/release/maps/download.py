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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from generator.diagnostics import did_you_mean, one_line
from generator.installed_map import InstalledMap, normalized_map_name
from generator.release.maps import net
from generator.safe_zip import NotAZip, ZipRefused, copy_entry, entry_parts, open_zip
from generator.spec.load import load_text

DEFAULT_INDEX = "https://raw.githubusercontent.com/triplea-game/triplea/master/triplea_maps.yaml"
INDEX_ENV = "TRIPLEA_MAP_INDEX"
MAX_INDEX_BYTES = 16 << 20  # the official index is a few hundred kB
MAX_DOWNLOAD = 2 << 30  # the biggest real maps are a few hundred MB
MAX_UNPACKED = 4 << 30
MAX_FILES = 50_000  # real maps hold a few thousand files (tiles, unit pictures)
MAX_NAME = 100  # characters of a map's folder name; real ones have a few dozen
STAGING_PREFIX = ".forge-get-"
INDEX_SECONDS = 120.0  # the whole index, however slowly it comes (net.py: the rules of every read)
DOWNLOAD_SECONDS = 2 * 3600.0  # a map of a few hundred MB on a slow line
_MAX_PID = 1 << 22  # Linux's highest pid_max: a staging folder's number above it is no process of ours

Progress = Callable[[int, int | None], None]  # bytes so far, total if known

# What everything here raises, the network's problems (net.py) as the index's and the zip's.
MapDownloadError = net.FetchError


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


@dataclass
class MapIndex:
    """What an index offers, in its order, and the entries it holds that cannot be installed (one
    line each: which, and why), skipped as TripleA skips entries without a name."""

    entries: list[IndexEntry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def index_url(given: str | None) -> str:
    """The index to read: --index, else $TRIPLEA_MAP_INDEX, else TripleA's; checked to be a URL."""
    url = given or os.environ.get(INDEX_ENV) or DEFAULT_INDEX
    what = "--index" if given else f"${INDEX_ENV}" if os.environ.get(INDEX_ENV) else "the map index"
    net.check_url(url, what, (*net.WEB, "file"))
    return url


def map_name_problem(name: str) -> str | None:
    """Why `name` (a mapName, or a name given to `map get`) cannot be a map's folder in the maps
    folder, or None when it can: one plain part of a path, never '..', a link's worth or too long."""
    folder = normalized_map_name(name)
    if folder.startswith(".") or "/" in folder or "\\" in folder or not folder.isprintable():
        return "cannot be a folder's name (no '/', '\\' or control characters, no '.' first)"
    if not folder or len(folder) > MAX_NAME or len(folder.encode("utf-8")) > 255:  # 255: a file system's name limit
        return f"is not 1 to {MAX_NAME} characters long (255 bytes in UTF-8)"
    return None


def fetch_index(url: str) -> MapIndex:
    """The maps the index at `url` offers. An index from the network may point at http(s) only; a
    local one (file://, the user's own) at local zips too."""
    data = net.read_all(url, MAX_INDEX_BYTES, INDEX_SECONDS, "the map index")
    tree, problems = load_text(data.decode("utf-8", "replace"), url)
    if tree is None:  # a problem that leaves a tree (a key twice...) is no reason to refuse the index
        raise MapDownloadError(f"{url}: not a readable map index ({problems[0].message if problems else 'empty'})")
    if not isinstance(tree, list):
        raise MapDownloadError(f"{url}: a map index is a YAML list of maps, this is not one")
    schemes = net.WEB if urlsplit(url).scheme.lower() in net.WEB else (*net.WEB, "file")
    index = MapIndex()
    for number, item in enumerate(tree, 1):
        entry = _entry(item)
        if entry is None:
            continue
        problem = map_name_problem(entry.name)
        shown = repr(entry.name) if len(entry.name) <= 60 else repr(entry.name[:60]) + "..."
        if problem is not None:
            index.skipped.append(f"{url}: map {number}: mapName {one_line(shown)} {problem}; skipped")
            continue
        problem = net.url_problem(entry.url, schemes)
        if problem is not None:
            remote = "" if "file" in schemes else " (an index from the network may point at http(s) only)"
            index.skipped.append(f"{url}: map {number} ({entry.folder_name}): its url {problem}{remote}; skipped")
            continue
        index.entries.append(entry)
    return index


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
        version=one_line(str(item.get("version", "") or ""))[:40],  # shown in a column of `map list`
        category=one_line(str(item.get("mapCategory", "") or ""))[:40],
        kind=one_line(str(item.get("mapType", "MAP") or "MAP"))[:40],
        size=size if isinstance(size, int) and not isinstance(size, bool) and size >= 0 else None,
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
        if pid.isdigit() and len(pid) < 10 and 0 < int(pid) < _MAX_PID and not _pid_alive(int(pid)):
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
    digest = hashlib.sha256()
    received = 0
    with net.opened(entry.url, DOWNLOAD_SECONDS) as response, open(target, "wb") as out:
        announced = response.length
        total = entry.size or announced
        if total is not None and total > MAX_DOWNLOAD:
            raise MapDownloadError(
                f"{entry.url} is {total} bytes, more than any map ({MAX_DOWNLOAD} bytes); refusing it"
            )
        progress(0, total)
        try:
            for chunk in response.chunks():
                received += len(chunk)
                if received > MAX_DOWNLOAD:
                    raise MapDownloadError(
                        f"{entry.url} is more than {MAX_DOWNLOAD} bytes, more than any map; refusing it"
                    )
                digest.update(chunk)
                out.write(chunk)
                progress(received, total)
        except MapDownloadError as exc:
            raise MapDownloadError(f"{exc}; nothing installed") from exc
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


def unpack(archive: Path, into: Path) -> Path:
    """The zip unpacked into `into`; the folder holding the map (a single top folder, as GitHub's
    `<repo>-master/`, is the map itself). Its directory is counted before it is read (safe_zip)."""
    try:
        with open_zip(archive, MAX_FILES) as zipped:
            infos = zipped.infolist()
            if sum(info.file_size for info in infos) > MAX_UNPACKED:
                raise MapDownloadError(f"the zip unpacks to more than any map ({MAX_UNPACKED} bytes); refusing it")
            planned = []
            for info in infos:
                parts = entry_parts(info.filename)
                if parts is None:
                    raise MapDownloadError(
                        f"zip entry {one_line(repr(info.filename))} would leave the map's folder; refusing the zip"
                    )
                if stat.S_ISLNK(info.external_attr >> 16):
                    raise MapDownloadError(f"zip entry {info.filename!r} is a symbolic link; refusing the zip")
                if parts:
                    planned.append((info, parts))
            written = 0
            for info, parts in planned:
                target = into.joinpath(*parts)
                try:
                    if info.is_dir():
                        target.mkdir(parents=True, exist_ok=True)
                        continue
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with open(target, "xb") as out:
                        written += copy_entry(zipped, info, out.write, MAX_UNPACKED - written)
                except FileExistsError as exc:
                    raise MapDownloadError(f"zip entry {info.filename!r} is in it twice; refusing the zip") from exc
                except OSError as exc:  # a file and a folder of one name, a name too long for the disk
                    raise MapDownloadError(
                        f"zip entry {info.filename!r} cannot be unpacked ({exc.strerror or exc}); refusing the zip"
                    ) from exc
    except NotAZip as exc:
        raise MapDownloadError(f"the download is {exc}; nothing installed") from exc
    except ZipRefused as exc:
        raise MapDownloadError(str(exc)) from exc
    tops = list(into.iterdir())
    return tops[0] if len(tops) == 1 and tops[0].is_dir() else into


def install(entry: IndexEntry, maps_folder: Path, force: bool, progress: Progress) -> Path:
    """Download, check, unpack and move the map into `maps_folder`; the folder it now is. What
    went wrong is said of the map: '<its folder name>: <why>'."""
    try:
        return _install(entry, maps_folder, force, progress)
    except MapDownloadError as exc:
        raise MapDownloadError(f"{entry.folder_name}: {exc}") from exc


def _install(entry: IndexEntry, maps_folder: Path, force: bool, progress: Progress) -> Path:
    problem = map_name_problem(entry.name)
    final = maps_folder / entry.folder_name
    if problem is not None or final.parent.resolve() != maps_folder.resolve():  # never outside the maps folder
        raise MapDownloadError(f"map name {one_line(repr(entry.name))} {problem or 'leaves the maps folder'}")
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
