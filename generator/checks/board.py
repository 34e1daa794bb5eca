"""Checks against the board: the variant's map, where it is known, must draw every part of the game.

Both engines refuse to start a game with a territory the map has no centre, polygon or placement
points for (1.9: `No data of type centers for territory`, and its Play button does nothing), and
draw no picture for a unit whose `units/<player>/<unit>.png` is in neither the map nor their stock
art. A misspelled territory in a spec is a new territory, so this is where it is caught. The map is
`--base-map` or the player's installed copy (installed_map.MapLookup); without one, a warning says
nothing was checked against the board.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from generator.checks.unit_art import ArtPlan, plan_unit_art
from generator.diagnostics import Diagnostic, Mark, Severity, did_you_mean, key_path
from generator.installed_map import InstalledMap, MapLookup, default_maps_folder
from generator.spec.locate import locate
from generator.spec.model import Spec
from generator.spec.resolve import ResolvedSpec, Rules

# The board files every territory needs, and what each gives the client.
_BOARD_FILES = (("polygons.txt", "its shape"), ("centers.txt", "its centre"), ("place.txt", "where units stand"))


def check_territories(spec: Spec, tree: object, installed: InstalledMap) -> list[Diagnostic]:
    """Each territory of the spec must be in the map's polygons.txt, centers.txt and place.txt."""
    board = installed.board
    found: list[Diagnostic] = []
    files: dict[str, object] = {"polygons.txt": board.polygons, "centers.txt": board.centers, "place.txt": board.places}
    for name in spec.territories:
        lacking = [f"{rel} ({what})" for rel, what in _BOARD_FILES if name not in files[rel]]  # type: ignore[operator]
        if not lacking:
            continue
        mark = locate(tree, ["territories", name], key=True)
        if len(lacking) == len(_BOARD_FILES):
            hint = did_you_mean(name, board.polygons) or " (the spelling must match the map's exactly)"
            message = (
                f"no territory '{name}' on the map '{installed.name}'{hint}; TripleA would not start the game "
                f"(No data of type centers for territory: {name})"
            )
        else:
            message = (
                f"territory '{name}' is missing from {' and '.join(lacking)} of the map '{installed.name}'; "
                "TripleA would not start the game"
            )
        found.append(Diagnostic(message, mark, key_path(["territories", name])))
    return found


def _folder_of(resolved: ResolvedSpec, rules: Rules) -> Callable[[Mark | None], Path | None]:
    def folder_of(mark: Mark | None) -> Path | None:
        if mark is None:
            return None
        for variant in resolved.chain:
            if mark.file.startswith(f"{rules.display_root}/{variant}/"):
                return rules.staged.get(variant, rules.root / variant)
        return None

    return folder_of


def art_plan(spec: Spec, resolved: ResolvedSpec, rules: Rules, installed: InstalledMap, maps: MapLookup) -> ArtPlan:
    """The pictures of `spec` on `installed` (see checks.unit_art), with image paths read from `rules`."""
    folder_of = _folder_of(resolved, rules)
    return plan_unit_art(spec, resolved.tree, installed, maps.stock, folder_of, rules.root, reads=rules.other_reads)


def check_board(spec: Spec, resolved: ResolvedSpec, rules: Rules, maps: MapLookup) -> list[Diagnostic]:
    """Territories and unit pictures against the variant's map; a warning when the map is unknown."""
    installed = maps.find(spec.game.map)
    where = locate(resolved.tree, ["game", "map"])
    if installed is None:
        looked = maps.base_map or (maps.search[0] if maps.search else default_maps_folder())
        message = (
            f"map '{spec.game.map}' not found in {looked}: territories and unit pictures were not checked "
            "against the board (give --base-map, or install the map in TripleA)"
        )
        return [Diagnostic(message, where, "game.map", Severity.WARNING)]
    problems = check_territories(spec, resolved.tree, installed)
    if maps.stock is None:
        message = (
            "the engine's stock unit art (assets/units beside triplea.jar) is not installed here: unit pictures "
            "the map lacks were not checked (apt-get install triplea)"
        )
        problems.append(Diagnostic(message, where, "game.map", Severity.WARNING))
    return problems + art_plan(spec, resolved, rules, installed, maps).problems
