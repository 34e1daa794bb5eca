"""Stage: installable releases, the other way out: the games added into an installed map.

The games are written into the map's games/ folder and listed in its map.yml, with the unit
pictures the map lacks; every other file of that map is left as it was (its .properties too: what
the games would want there is said, not written).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.diagnostics import Diagnostic, Severity
from generator.emit.build import Compiled
from generator.emit.ownership import MARKER
from generator.emit.write import write_files
from generator.installed_map import InstalledMap, MapLookup
from generator.paths import output_file_problem
from generator.release.package import properties
from generator.release.package.folder import content_root, wanted_properties
from generator.release.pictures.package_art import shared_unit_pictures
from generator.spec.resolve import Rules


@dataclass
class OverlayPlan:
    root: Path  # the installed map's folder
    files: dict[str, bytes]  # relative to root: the games, and map.yml when its list changes


def plan_overlay(
    target: Path, compiled: Mapping[str, Compiled], force: bool, rules: Rules
) -> tuple[OverlayPlan, list[Diagnostic]]:
    """What adding the games to an installed map changes: games, map.yml, the unit pictures it lacks."""
    problems: list[Diagnostic] = []
    games_dir = (target / "map" if (target / "map").is_dir() else target) / "games"
    yml_path = next((p for p in (target / "map.yml", target / "map" / "map.yml") if p.is_file()), target / "map.yml")
    try:
        listing = yaml.safe_load(yml_path.read_bytes()) if yml_path.is_file() else None
    except (yaml.YAMLError, OSError) as exc:
        reason = getattr(exc, "problem", None) or getattr(exc, "strerror", None) or exc
        problem = Diagnostic(f"{yml_path}: cannot read it ({reason}); repair or remove it, then run again")
        return OverlayPlan(target, {}), [problem]
    listing = listing if isinstance(listing, dict) else {}
    maps = sorted({c.spec.game.map for c in compiled.values()})
    map_name = str(listing.get("map_name", target.name))
    if len(maps) > 1 or maps[0] != map_name:
        problems.append(Diagnostic(f"{target}: map '{map_name}', but the variants are built for {', '.join(maps)}"))
    elif target.name != maps[0]:
        problems.append(
            Diagnostic(
                f"{target}: TripleA 1.9 looks for the art of '{maps[0]}' in downloadedMaps/{maps[0]}/, "
                f"not in a folder named '{target.name}'",
                severity=Severity.WARNING,
            )
        )
    files: dict[str, bytes] = {}
    for _, item in sorted(compiled.items()):
        for rel, data in sorted(item.files.items()):
            files[rel.removeprefix("games/")] = data
    for rel in sorted(files):
        existing = games_dir / rel
        if existing.is_file() and not force and MARKER not in existing.read_bytes()[:400]:
            problems.append(Diagnostic(f"{existing} exists and was not written by triplea-forge; use --force"))
    listed = listing.get("games")
    games = [dict(g) for g in (listed if isinstance(listed, list) else []) if isinstance(g, dict)]
    for name, item in sorted(compiled.items()):
        entry = {"game_name": item.spec.game.name, "file_name": f"{name}.xml"}
        clash = [g for g in games if g.get("game_name") == entry["game_name"] and g.get("file_name") != f"{name}.xml"]
        if clash:
            other = clash[0].get("file_name")
            problems.append(Diagnostic(f"{yml_path}: game '{entry['game_name']}' is already listed, as {other}"))
        at = next((i for i, g in enumerate(games) if g.get("file_name") == entry["file_name"]), None)
        if at is None:
            games.append(entry)
        else:
            games[at] = entry
    problems += _properties_left_out(target, compiled)
    writes = {(games_dir / rel).relative_to(target).as_posix(): data for rel, data in files.items()}
    writes.update(_overlay_pictures(target, compiled, force, rules, problems))
    if games != listing.get("games"):
        writes[yml_path.relative_to(target).as_posix()] = _listing_text(
            yml_path, {**listing, "map_name": map_name, "games": games}
        )
    for rel in sorted(writes):  # a FIFO or a device in the map is never replaced
        blocked = output_file_problem(target / rel)
        problems += [Diagnostic(f"cannot write {target / rel}: {blocked}")] if blocked else []
    return OverlayPlan(target, writes), problems


def _overlay_pictures(
    target: Path, compiled: Mapping[str, Compiled], force: bool, rules: Rules, problems: list[Diagnostic]
) -> dict[str, bytes]:
    """The unit pictures the games need and the installed map lacks; the map's own are kept."""
    installed = InstalledMap(target.name, target)
    pictures, found = shared_unit_pictures(compiled, rules, installed, MapLookup(base_map=target, search=[]))
    problems += found
    root = content_root(target) or target
    writes: dict[str, bytes] = {}
    for rel, data in sorted(pictures.items()):
        path = root / rel
        if path.is_file() and not force and path.read_bytes() != data:
            message = f"{path}: the map has its own picture; kept (--force replaces it with the spec's `image:`)"
            problems.append(Diagnostic(message, severity=Severity.WARNING))
            continue
        writes[path.relative_to(target).as_posix()] = data
    return writes


def _properties_left_out(target: Path, compiled: Mapping[str, Compiled]) -> list[Diagnostic]:
    """An overlay leaves the map's .properties alone: say which wanted keys it therefore lacks."""
    wanted, problems = wanted_properties(compiled)
    root = content_root(target) or target
    for file, keys in sorted(wanted.keys.items()):
        path = root / f"{file}.properties"
        held = properties.read(path.read_bytes()) if path.is_file() else {}
        missing = [k for k, v in keys.items() if held.get(k) != v]
        if missing:
            message = (
                f"{path.name}: {', '.join(missing)} not installed (an overlay leaves the map's files alone; "
                "the standalone package, --base-map, carries them)"
            )
            problems.append(Diagnostic(message, severity=Severity.WARNING))
    return problems


def _listing_text(path: Path, listing: dict[str, object]) -> bytes:
    """map.yml with a new game list: other keys and the leading comment lines are kept."""
    old = path.read_bytes().decode("utf-8", "replace").splitlines() if path.is_file() else []
    leading = next((i for i, line in enumerate(old) if not line.startswith("#")), len(old))
    comments = "".join(line + "\n" for line in old[:leading])
    body = yaml.safe_dump(listing, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return (comments + body).encode("utf-8")


def apply_overlay(plan: OverlayPlan) -> list[Path]:
    """Write the planned files (changed ones only, switched in together); returns what changed."""
    return [plan.root / rel for rel in write_files(plan.root, plan.files)]
