"""CHANGELOG.md of a map package: what changed since the previous release (a folder or a zip).

Games are matched across releases by their XML file name, the one thing a player's saved games and
the map's `map.yml` both key on. Per game we report added / removed, version and name changes,
which of its files changed and, through `semantic_changes`, its rule changes in the words of
`triplea-forge diff`.
The text holds no date or machine detail, so the same inputs give the same bytes.
"""

from __future__ import annotations

import hashlib
import posixpath
import tempfile
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
from lxml import etree

from generator.errors import TripleaForgeError
from generator.paths import UnreadableFile, read_regular_file
from generator.safe_zip import NotAZip, ZipRefused, open_zip, read_entry

TITLE = "# Changelog"
INTRO = "What changed in each release of this map package, newest first. Written by triplea-forge."


def semantic_changes(variant: str, old_xml: bytes, new_xml: bytes) -> list[str]:
    """Rule-level changes between two builds of one game, as Markdown lines (headings and bullets).

    The seam between the CHANGELOG and the semantic diff: it runs `triplea-forge diff OLD.xml
    NEW.xml` (generator.diff) and takes its Markdown. A game the diff cannot read (an XML older
    than the importer understands) gets a one-line note; its changed files are listed anyway.
    """
    from generator.diagnostics import ForgeError
    from generator.diff.compare import DiffError
    from generator.diff.markdown import markdown_lines
    from generator.diff.sides import diff_sides
    from generator.spec.resolve import Rules

    with tempfile.TemporaryDirectory(prefix="triplea-forge-changelog-") as tmp:
        sides = []
        for label, xml in (("previous", old_xml), ("this release", new_xml)):
            path = Path(tmp) / label.replace(" ", "_") / f"{variant}.xml"
            path.parent.mkdir()
            path.write_bytes(xml)
            sides.append((str(path), f"{variant}.xml ({label})"))
        try:
            result = diff_sides(sides[0][0], sides[1][0], Rules(Path(tmp)), dict(sides))
        except (DiffError, ForgeError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return [f"- no rule-level comparison: {first}"]
    # The diff's domain headings sit one level below this game's heading.
    return ["#" + line if line.startswith("#### ") else line for line in markdown_lines(result)]


# What is read of a previous release is capped: a zip's sizes are checked before anything is
# inflated, so a zip bomb is refused rather than filling the memory.
MAX_ENTRY_BYTES = 256 * 1024 * 1024
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024
MAX_ENTRIES = 100_000


class ReleaseError(TripleaForgeError):
    """A previous release that cannot be read, in words."""


class Release:
    """Files of a released package, relative to the folder that holds its map.yml."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._zip: zipfile.ZipFile | None = None
        if path.is_dir():
            found = sorted(path.glob("map.yml")) or sorted(path.glob("*/map.yml"))
            self._root = found[0].parent if found else path
            self._names = sorted(
                p.relative_to(self._root).as_posix()
                for p in self._root.rglob("*")
                if p.is_file() and not any(part.startswith(".") for part in p.relative_to(self._root).parts)
            )
        else:
            try:  # counted before it is listed (safe_zip): a million entries take no memory here
                self._zip = open_zip(path, MAX_ENTRIES)
            except NotAZip as exc:
                raise ReleaseError(f"{path} is neither a release folder nor a zip ({exc})") from exc
            except ZipRefused as exc:
                raise ReleaseError(f"{path}: {exc}") from exc
            infos = self._zip.infolist()
            if sum(i.file_size for i in infos) > MAX_TOTAL_BYTES:
                self._zip.close()
                raise ReleaseError(f"{path}: the zip unpacks to more than a map release ever holds; refusing it")
            names = [n for n in self._zip.namelist() if not n.endswith("/")]
            ymls = sorted((n for n in names if posixpath.basename(n) == "map.yml"), key=lambda n: (n.count("/"), n))
            prefix = ymls[0][: -len("map.yml")] if ymls else ""
            self._prefix = prefix
            self._names = sorted(n[len(prefix) :] for n in names if n.startswith(prefix))

    def names(self) -> list[str]:
        return list(self._names)

    def read(self, rel: str) -> bytes:
        try:
            if self._zip is not None:
                if self._zip.getinfo(self._prefix + rel).file_size > MAX_ENTRY_BYTES:
                    raise ReleaseError(f"{self.path}: {rel} is larger than a map file ever is; refusing it")
                return read_entry(self._zip, self._zip.getinfo(self._prefix + rel), MAX_ENTRY_BYTES)
            return read_regular_file(self._root / rel, MAX_ENTRY_BYTES)
        except (OSError, UnreadableFile, ZipRefused, KeyError) as exc:
            raise ReleaseError(f"{self.path}: cannot read {rel} ({exc})") from exc

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()


@dataclass(frozen=True)
class Game:
    """One game of a package: its file name, display name, version and how to read its files."""

    file_name: str
    name: str
    version: str
    files: Mapping[str, Callable[[], bytes]]  # path in the package -> content


def games_of(names: list[str], read: Callable[[str], bytes]) -> dict[str, Game]:
    """Games listed in a package's map.yml, each with its XML and notes wherever they sit."""
    if "map.yml" not in names:
        return {}
    try:
        listing = yaml.safe_load(read("map.yml")) or {}
    except yaml.YAMLError as exc:
        raise ReleaseError(f"its map.yml is not valid YAML ({getattr(exc, 'problem', None) or exc})") from exc
    listed = listing.get("games") if isinstance(listing, dict) else None
    games: dict[str, Game] = {}
    for entry in listed if isinstance(listed, list) else []:
        if not isinstance(entry, dict):
            continue
        file_name = str(entry.get("file_name", ""))
        stem = file_name.removesuffix(".xml")
        own = {n: _reader(read, n) for n in names if posixpath.basename(n) in (file_name, f"{stem}.notes.html")}
        xml = next((n for n in own if n.endswith(file_name)), None)
        version = _info_version(read(xml)) if xml else "?"
        games[file_name] = Game(file_name, str(entry.get("game_name", stem)), version, own)
    return games


def _reader(read: Callable[[str], bytes], name: str) -> Callable[[], bytes]:
    return lambda: read(name)


def _info_version(xml: bytes) -> str:
    from generator.safe_xml import safe_parser

    try:
        info = etree.fromstring(xml, safe_parser()).find("info")
    except etree.XMLSyntaxError:
        return "?"
    return info.get("version", "?") if info is not None else "?"


def _digest(read: Callable[[], bytes]) -> str:
    return hashlib.sha256(read()).hexdigest()


def _changed(old: Mapping[str, Callable[[], bytes]], new: Mapping[str, Callable[[], bytes]]) -> list[str]:
    """Paths (new layout) whose content differs; files are matched by base name within a game."""
    old_by_base = {posixpath.basename(n): r for n, r in old.items()}
    return sorted(
        n
        for n, r in new.items()
        if posixpath.basename(n) not in old_by_base or _digest(old_by_base[posixpath.basename(n)]) != _digest(r)
    )


def render(
    release: str,
    new_files: Mapping[str, Callable[[], bytes]],
    previous: Release | None,
) -> bytes:
    """The CHANGELOG.md of a package whose files are `new_files` (CHANGELOG.md itself excluded)."""
    new_names = sorted(new_files)
    new_games = games_of(new_names, lambda n: new_files[n]())
    lines = [TITLE, "", INTRO, "", f"## {release}", ""]
    if previous is None:
        lines += ["First release.", ""]
        lines += [f"- {g.name} {g.version} (`{g.file_name}`)" for g in new_games.values()]
        return _finish(lines, "")
    old_names = previous.names()
    old_games = games_of(old_names, previous.read)
    body = _game_sections(new_games, old_games) + _map_section(new_files, previous, new_games, old_games)
    if not any(line.startswith("### ") and line != "### Unchanged games" for line in body):
        lines += ["No changes to games or map files.", ""]
    lines += body
    old_log = previous.read("CHANGELOG.md").decode("utf-8") if "CHANGELOG.md" in old_names else ""
    return _finish(lines, old_log)


def _game_sections(new: dict[str, Game], old: dict[str, Game]) -> list[str]:
    lines: list[str] = []
    added = [g for f, g in new.items() if f not in old]
    removed = [g for f, g in old.items() if f not in new]
    if added:
        lines += ["### Added games", "", *(f"- {g.name} {g.version} (`{g.file_name}`)" for g in added), ""]
    if removed:
        lines += ["### Removed games", "", *(f"- {g.name} {g.version} (`{g.file_name}`)" for g in removed), ""]
    changed, unchanged = [], []
    for file_name, game in new.items():
        before = old.get(file_name)
        if before is None:
            continue
        files = _changed(before.files, game.files)
        if not files and before.version == game.version and before.name == game.name:
            unchanged.append(game)
            continue
        heading = f"#### {game.name} (`{file_name}`)"
        if before.version != game.version:
            heading += f": version {before.version} → {game.version}"
        entry = [heading, ""]
        if before.name != game.name:
            entry.append(f"- renamed from {before.name}")
        entry += [f"- changed: {', '.join(f'`{n}`' for n in files)}"] if files else []
        entry += _semantic(file_name, before, game)
        changed += [*entry, ""]
    if changed:
        lines += ["### Changed games", "", *changed]
    if unchanged:
        lines += ["### Unchanged games", "", *(f"- {g.name} {g.version} (`{g.file_name}`)" for g in unchanged), ""]
    return lines


def _semantic(file_name: str, before: Game, after: Game) -> list[str]:
    old_xml = next((r for n, r in before.files.items() if n.endswith(file_name)), None)
    new_xml = next((r for n, r in after.files.items() if n.endswith(file_name)), None)
    if old_xml is None or new_xml is None:
        return []
    return semantic_changes(file_name.removesuffix(".xml"), old_xml(), new_xml())


def _map_section(
    new_files: Mapping[str, Callable[[], bytes]], previous: Release, new: dict[str, Game], old: dict[str, Game]
) -> list[str]:
    """Changes to the files shared by all games (art, map.yml, .properties, description)."""
    skip = {n for g in new.values() for n in g.files} | {"CHANGELOG.md"}
    old_skip = {n for g in old.values() for n in g.files} | {"CHANGELOG.md"}
    ours = {n: r for n, r in new_files.items() if n not in skip}
    theirs = {n for n in previous.names() if n not in old_skip}
    added = sorted(set(ours) - theirs)
    removed = sorted(theirs - set(ours))
    changed = sorted(n for n in set(ours) & theirs if _digest(ours[n]) != _digest(_reader(previous.read, n)))
    if not (added or removed or changed):
        return []
    lines = ["### Map files", ""]
    for label, names in (("added", added), ("removed", removed), ("changed", changed)):
        if names:
            lines.append(f"- {label}: {', '.join(f'`{n}`' for n in names)}")
    return [*lines, ""]


def _finish(lines: list[str], old_log: str) -> bytes:
    text = "\n".join(lines).rstrip("\n") + "\n"
    # Keep the history: every earlier release section of the previous CHANGELOG, as it was.
    at = old_log.find("\n## ")
    if at >= 0:
        text += "\n" + old_log[at + 1 :].rstrip("\n") + "\n"
    return text.encode("utf-8")
