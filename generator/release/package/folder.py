"""Stage: installable releases. The built variants plus a base map's art as one TripleA map folder.

Two ways out:

* standalone: `<out>/<map>/` (map.yml, description.html, CHANGELOG.md, map/ with the base map's
  art, the merged .properties files and games/) and `<out>/<map>-master.zip`, the same folder
  under a `<map>-master/` top folder. That name is what both engines take as a drop-in: TripleA
  1.9 lists games from any zip in downloadedMaps and finds a map's art in `<map>-master.zip` under
  `<map>-master/map/`; TripleA 2.6+ unpacks every zip there into `downloadedMaps/<map>/`.
* overlay (release.overlay): the games written into an installed map's games/ folder and listed
  in its map.yml, leaving every other file of that map as it was.

TripleA 1.9 finds games as `downloadedMaps/<dir>/map/games/*.xml` (or `<dir>/games/*.xml`) and the
art through the XML's `mapName` property (`downloadedMaps/<mapName>/map`); 2.6+ reads map.yml.
"""

from __future__ import annotations

import os
import re
import shutil
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from generator.checks.board import check_board
from generator.diagnostics import Diagnostic, Severity
from generator.emit.build import Compiled, compile_variant, map_yml, several_maps
from generator.emit.render import environment
from generator.emit.write import transaction
from generator.installed_map import InstalledMap, MapLookup, normalized_map_name
from generator.paths import output_file_problem
from generator.release.maps.base import own_name
from generator.release.package import changelog, properties
from generator.release.package.owner import earlier_packages, is_ours, zip_is_ours
from generator.release.pictures.package_art import previews, shared_unit_pictures
from generator.spec.locate import locate
from generator.spec.resolve import Rules
from generator.targets import Target

# Fixed zip metadata so the same package gives the same bytes on any machine, any day.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
FILE_MODE = 0o100644 << 16
DIR_MODE = (0o040755 << 16) | 0x10
# Files of a base map's top folder that describe that map, not ours; the art is everything else.
BASE_OWN = {"map.yml", "description.html", "changelog.md", "readme.md", "readme.txt"}

Content = bytes | Path  # a Path is a base-map file, copied as is when written


@dataclass
class Package:
    map_name: str
    files: dict[str, Content] = field(default_factory=dict)

    def reader(self, rel: str) -> Callable[[], bytes]:
        content = self.files[rel]
        return (lambda: content) if isinstance(content, bytes) else content.read_bytes


def board_problems(compiled: Mapping[str, Compiled], rules: Rules, base: Path) -> list[Diagnostic]:
    """Every variant against the board of the map it is packaged on (territories, unit pictures)."""
    maps = MapLookup(base_map=base, search=[])
    return [p for _, item in sorted(compiled.items()) for p in check_board(item.spec, item.resolved, rules, maps)]


def compiled_by_name(
    rules: Rules, names: list[str], target: Target = "portable", maps: MapLookup | None = None
) -> tuple[dict[str, Compiled], list[Diagnostic]]:
    """Each variant through the same pipeline as `build` (resolve, model, render, DTD and XSD checks).

    With `maps` (the map packaged with or into), also against its board (checks.board).
    """
    compiled: dict[str, Compiled] = {}
    problems: list[Diagnostic] = []
    for name in names:
        result, found = compile_variant(rules, name, target, maps)
        problems += found
        if result is not None:
            compiled[name] = result
    return compiled, problems


def one_map(compiled: Mapping[str, Compiled]) -> list[Diagnostic]:
    """A package holds one map's games: the error that says so when the variants use several."""
    broken = several_maps({name: item.spec.game for name, item in compiled.items()})
    if broken is None:
        return []
    return [Diagnostic(f"{broken}; package them apart (`triplea-forge package VARIANT...`)")]


def checked_standalone(
    base_map: Path, compiled: Mapping[str, Compiled], previous: Path | None, release: str, rules: Rules,
    out_dir: Path, *, force: bool, board_checked: bool,
) -> tuple[Package | None, list[Diagnostic]]:  # fmt: skip
    """The standalone package (`standalone`) with every problem of writing it into `out_dir`: the
    variants against the base map's board (unless they were compiled against it, `board_checked`), a
    package named as the map it is made from, files in the way that we did not write."""
    found = [] if board_checked else board_problems(compiled, rules, base_map)
    built, more = standalone(base_map, compiled, previous, release, rules, out_dir)
    found += more
    if built is None:
        if not any(p.severity is Severity.ERROR for p in found):
            found.append(Diagnostic("nothing to package"))
        return None, found
    if built.map_name == own_name(base_map):
        found.append(Diagnostic(
            f"the package is named '{built.map_name}', as the map it is made from: a player who installs it "
            f"replaces that map; give the mod a map name of its own (game.map)", severity=Severity.WARNING,
        ))  # fmt: skip
    return built, found + check_folder_target(built, out_dir, force)


def normalized(map_name: str) -> str:
    """TripleA 1.9's normalised map name (ResourceLoader.normalizeMapName): the zip's file name."""
    return normalized_map_name(map_name)


@dataclass
class Wanted:
    """Keys each .properties file must hold, and the variants that asked for each file."""

    keys: dict[str, dict[str, str]] = field(default_factory=dict)
    sources: dict[str, list[str]] = field(default_factory=dict)


def wanted_properties(compiled: Mapping[str, Compiled]) -> tuple[Wanted, list[Diagnostic]]:
    """Player colours (into map.properties, `color.<player>`), then each variant's `map_files`.

    The files are shared by every game of the map, so two variants may not set one key differently.
    """
    wanted = Wanted()
    origin: dict[tuple[str, str], str] = {}
    problems: list[Diagnostic] = []

    def want(variant: str, file: str, key: str, value: str, path: list[str]) -> None:
        held = wanted.keys.setdefault(file, {})
        if variant not in wanted.sources.setdefault(file, []):
            wanted.sources[file].append(variant)
        if key in held and held[key] != value:
            mark = locate(compiled[variant].resolved.tree, path)
            other = origin[(file, key)]
            message = f"{file}.properties: {key} is {held[key]!r} in variant '{other}' and {value!r} here"
            problems.append(Diagnostic(message, mark, ".".join(path)))
            return
        held[key] = value
        origin.setdefault((file, key), variant)

    for variant, item in sorted(compiled.items()):
        for player, spec in item.spec.players.items():
            if spec.color is not None:
                want(variant, "map", f"color.{player}", spec.color, ["players", player, "color"])
        for file, keys in item.spec.map_files.items():
            for key, value in keys.items():
                text = str(value).lower() if isinstance(value, bool) else str(value)
                want(variant, file, key, text, ["map_files", file, key])
    return wanted, problems


def content_root(base: Path) -> Path | None:
    """Where a map's art sits: `map/` or the folder itself, whichever holds polygons.txt (as in 1.9)."""
    for candidate in (base / "map", base):
        if (candidate / "polygons.txt").is_file():
            return candidate
    return None


def standalone(
    base_map: Path,
    compiled: Mapping[str, Compiled],
    previous: Path | None,
    release: str,
    rules: Rules,
    out_dir: Path | None = None,
) -> tuple[Package | None, list[Diagnostic]]:
    """The package's files in memory (art as paths into the base map), CHANGELOG included.

    It adds the unit pictures the map lacks and a preview of each game (release.package_art).
    A package is never art: neither what this one writes into `out_dir` (which may be inside
    the base map) nor an earlier package of ours found in the base map.
    """
    root = content_root(base_map)
    if root is None:
        return None, [Diagnostic(f"{base_map}: no polygons.txt in it or its map/ folder; not a TripleA map")]
    listing, problems = map_yml({n: c.spec.game for n, c in compiled.items()})
    wanted, found = wanted_properties(compiled)
    problems += found
    maps = MapLookup(base_map=base_map, search=[])
    installed = InstalledMap(base_map.name, base_map)
    pictures, found = shared_unit_pictures(compiled, rules, installed, maps)
    problems += found
    if listing is None or any(p.severity is Severity.ERROR for p in problems):
        return None, problems
    names = sorted({c.spec.game.map for c in compiled.values()})
    package = Package(names[0])
    everything = sorted(root.rglob("*"))
    written = (package.map_name, f"{normalized(package.map_name)}-master.zip")
    own = {(out_dir / name).resolve() for name in written} if out_dir is not None else set()
    earlier = earlier_packages(root, everything)
    problems += [
        Diagnostic(
            f"{p}: an earlier package inside the base map's art; left out of this one", severity=Severity.WARNING
        )
        for p in sorted(earlier)
        if p.resolve() not in own
    ]
    not_art = own | {p.resolve() for p in earlier}
    for path in everything:
        inside = path.relative_to(root)
        hidden = any(part.startswith(".") for part in inside.parts)
        if path.is_file() and not hidden and inside.parts[0] != "games" and str(inside).lower() not in BASE_OWN:
            resolved = path.resolve() if not_art else path  # (most maps hold no package: no need)
            if not_art.isdisjoint((resolved, *resolved.parents)):
                package.files[f"map/{inside.as_posix()}"] = path
    if root != base_map:
        # The preview and licence of the base map travel with its art.
        for path in sorted(base_map.iterdir()):
            if path.is_file() and re.match(r"(preview\.png|licen[cs]e.*|copying.*)$", path.name, re.IGNORECASE):
                package.files[path.name] = path
    for _, item in sorted(compiled.items()):
        for rel, data in sorted(item.files.items()):
            package.files[f"map/{rel}"] = data
    for rel, data in sorted(pictures.items()):
        package.files[f"map/{rel}"] = data
    package.files.update(previews(compiled, installed))
    package.files["map.yml"] = listing
    for file, keys in sorted(wanted.keys.items()):
        base_file = root / f"{file}.properties"
        base = base_file.read_bytes() if base_file.is_file() else None
        header = f"Set by triplea-forge for {', '.join(wanted.sources[file])}."
        package.files[f"map/{file}.properties"] = properties.merge(base, keys, header)
    package.files["description.html"] = _description(package.map_name, base_map.name, compiled)
    old = None
    try:
        old = changelog.Release(previous) if previous is not None else None
        readers = {rel: package.reader(rel) for rel in package.files}
        package.files["CHANGELOG.md"] = changelog.render(release, readers, old)
    except changelog.ReleaseError as exc:
        return None, [*problems, Diagnostic(f"--previous: {exc}")]
    finally:
        if old is not None:
            old.close()
    return package, problems


def _description(map_name: str, base_name: str, compiled: Mapping[str, Compiled]) -> bytes:
    games = [
        {"name": c.spec.game.name, "version": c.spec.game.version, "file": f"{n}.xml", "preview": f"previews/{n}.png"}
        for n, c in sorted(compiled.items())
    ]
    template = environment().get_template("description.html.j2")
    return template.render(map_name=map_name, base_name=base_name, games=games).encode("utf-8")


def check_folder_target(package: Package, out_dir: Path, force: bool) -> list[Diagnostic]:
    """The package's folder and zip may replace only packages of ours (or anything, with --force),
    and never a FIFO or a device."""
    target = out_dir / package.map_name
    archive = out_dir / f"{normalized(package.map_name)}-master.zip"
    problems = []
    if target.exists() and not force and not is_ours(target):
        problems.append(Diagnostic(f"{target} exists and was not written by triplea-forge; use --force to replace it"))
    blocked = output_file_problem(archive)
    if blocked:
        problems.append(Diagnostic(f"cannot write {archive}: {blocked}"))
    elif archive.exists() and not force and not zip_is_ours(archive):
        problems.append(Diagnostic(f"{archive} exists and was not written by triplea-forge; use --force to replace it"))
    return problems


def write_package(package: Package, out_dir: Path) -> tuple[Path, Path]:
    """`out_dir/<map>/` and `<map>-master.zip`, switched in together (see emit.write)."""
    zip_name = f"{normalized(package.map_name)}-master.zip"
    with transaction(out_dir) as tx:
        folder = tx.path(package.map_name)
        folder.mkdir(mode=0o755)
        for rel, content in sorted(package.files.items()):
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                shutil.copyfile(content, path)
        _write_zip(package, tx.path(zip_name))
    return out_dir / package.map_name, out_dir / zip_name


def _write_zip(package: Package, target: Path) -> None:
    """`<map>-master.zip`: sorted entries, fixed dates and modes, so two runs give the same bytes."""
    top = f"{package.map_name}-master/"
    folders = {top}
    for rel in package.files:
        parts = rel.split("/")[:-1]
        folders.update(top + "/".join(parts[: i + 1]) + "/" for i in range(len(parts)))
    entries: list[tuple[str, Content | None]] = [(f, None) for f in folders]
    entries += [(top + rel, content) for rel, content in package.files.items()]
    with zipfile.ZipFile(target, "w") as archive:
        for name, content in sorted(entries, key=lambda e: e[0]):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.create_system = 3  # Unix, wherever we run, so the modes below mean the same
            if content is None:
                info.external_attr = DIR_MODE
                archive.writestr(info, b"")
                continue
            info.external_attr = FILE_MODE
            info.compress_type = zipfile.ZIP_DEFLATED
            data = content if isinstance(content, bytes) else content.read_bytes()
            archive.writestr(info, data, compresslevel=9)
    os.chmod(target, 0o644)
