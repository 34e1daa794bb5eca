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

from generator.checks.context import CheckContext, SpecTree
from generator.checks.unit_art import ArtPlan, plan_unit_art
from generator.diagnostics import Diagnostic, Mark, Severity, did_you_mean, key_path
from generator.installed_map import InstalledMap, MapLookup, default_maps_folder
from generator.spec.locate import locate
from generator.spec.model import Spec
from generator.spec.resolve import ResolvedSpec, Rules, resolve

# The board files every territory needs, and what each gives the client.
_BOARD_FILES = (("polygons.txt", "its shape"), ("centers.txt", "its centre"), ("place.txt", "where units stand"))


def check_territories(spec: Spec, tree: SpecTree, installed: InstalledMap) -> list[Diagnostic]:
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
            folder, display_root = rules.folder(variant)
            if mark.file.startswith(f"{display_root}/{variant}/"):
                return folder
        return None

    return folder_of


def art_plan(spec: Spec, resolved: ResolvedSpec, rules: Rules, installed: InstalledMap, maps: MapLookup) -> ArtPlan:
    """The pictures of `spec` on `installed` (see checks.unit_art), with image paths read from `rules`."""
    folder_of = _folder_of(resolved, rules)
    return plan_unit_art(spec, resolved.tree, installed, maps.stock, folder_of, rules.root, reads=rules.other_reads)


def map_names(rules: Rules, resolved: ResolvedSpec, own: str) -> list[str]:
    """The maps a variant's board may be, in order: the map it names (`own`, its game.map), then
    the map each of its ancestors names (a mod's own map name is installed only once released;
    until then its board is its base variant's map, plus its own map_files)."""
    names = [own]
    for ancestor in resolved.chain[1:]:
        tree = rules.raw(ancestor)[0]
        game = tree.get("game") if tree is not None else None
        named = game.get("map") if isinstance(game, dict) else None
        if isinstance(named, str) and named and named not in names:
            names.append(named)
    return names


def find_board(spec: Spec, resolved: ResolvedSpec, rules: Rules, maps: MapLookup) -> InstalledMap | None:
    """The one rule every command finds a variant's board by: the map it names if installed, else
    its base variant's (see map_names); `maps.boards` then says which was used."""
    return maps.find_board(resolved.name, map_names(rules, resolved, spec.game.map))


def find_named_board(
    rules: Rules, variant: str | None, own: str, maps: MapLookup
) -> tuple[InstalledMap | None, list[str]]:
    """find_board for a variant known by name only (a side of a diff): the same rule when `rules`
    holds it, else the map `own` alone (a game XML names no base variant). The names looked for too."""
    resolved = resolve(rules, variant)[0] if variant is not None and rules.exists(variant) else None
    names = map_names(rules, resolved, own) if resolved is not None else [own]
    return maps.find_board(variant or own, names), names


def board_missing(names: list[str], maps: MapLookup) -> str:
    """Why no board was found, naming every map looked for and where, and how to get one."""
    looked = maps.base_map or (maps.search[0] if maps.search else default_maps_folder())
    if len(names) == 1:
        return f"map '{names[0]}' not found in {looked}"
    bases = " nor ".join(f"'{n}'" for n in names[1:])
    return f"neither map '{names[0]}' nor its base map {bases} is in {looked}"


def get_hint(names: list[str]) -> str:
    return f"give --base-map, or get it: triplea-forge map get {names[-1]}"


def check(ctx: CheckContext) -> list[Diagnostic]:
    """`check_board` of a variant whose board is looked for (none: a game XML, or no board asked for)."""
    if ctx.maps is None or ctx.resolved is None or ctx.rules is None:
        return []
    return check_board(ctx.spec, ctx.resolved, ctx.rules, ctx.maps)


def check_board(spec: Spec, resolved: ResolvedSpec, rules: Rules, maps: MapLookup) -> list[Diagnostic]:
    """Territories and unit pictures against the variant's board; a warning when no map is installed."""
    installed = find_board(spec, resolved, rules, maps)
    where = locate(resolved.tree, ["game", "map"])
    if installed is None:
        names = map_names(rules, resolved, spec.game.map)
        message = (
            f"{board_missing(names, maps)}: territories and unit pictures were not checked against the board "
            f"({get_hint(names)})"
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
