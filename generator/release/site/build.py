"""One variant's pages from its specs, and the site of several: what `site` writes and `serve` serves.

Each variant is checked as `validate` checks it, against the board it is played on (checks.board,
the one rule every command finds a variant's map by); a variant with an error has no pages, and its
problems are said as every command says them. Its base is read as `diff` reads a side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from generator.checks.board import board_missing, find_board, get_hint, map_names
from generator.checks.variant import CheckedVariant, check_variant
from generator.diagnostics import Diagnostic, Severity
from generator.installed_map import MapLookup
from generator.release.pictures.board import draw_board
from generator.release.pictures.package_art import preview_title
from generator.release.pictures.png import png_bytes
from generator.release.site.art import UnitArt
from generator.release.site.board import board_view, territory_facts
from generator.release.site.changes import PICTURE as CHANGES_PICTURE
from generator.release.site.changes import changes_view
from generator.release.site.pages import IndexEntry, VariantPages, index_files, variant_files
from generator.release.site.rules import rules_view
from generator.release.site.studies import studies_of, study_folders
from generator.release.site.units import nations
from generator.spec.resolve import Rules

BOARD = "board.png"


@dataclass(frozen=True)
class Settings:
    """Where a site's variants find their board, their balance studies and their mutation sweep."""

    maps: MapLookup
    studies: tuple[Path, ...] = ()
    mutation_results: Path | None = None


@dataclass
class Built:
    """One variant's part of the site."""

    name: str
    chain: list[str]  # the variants it reads: a save in any of their folders rebuilds it
    files: dict[str, bytes] = field(default_factory=dict)
    entry: IndexEntry | None = None


def _errors(problems: Sequence[Diagnostic]) -> bool:
    return any(p.severity is Severity.ERROR for p in problems)


def _facts(checked: CheckedVariant) -> list[tuple[str, str]]:
    spec = checked.spec
    return [
        ("variant", checked.name),
        ("extends", spec.extends or "nothing (a whole game)"),
        ("map", spec.game.map),
        ("engines", spec.game.target or "portable (TripleA 1.9 and 2.x)"),
        ("players", ", ".join(spec.players)),
        ("units, territories", f"{len(spec.units)} unit types, {len(spec.territories)} territories"),
        ("rules in the ledger", str(len(spec.rule_ledger)) if spec.rule_ledger else "none (no rules document)"),
    ]


class SiteBuilder:
    """Builds the variants' parts of the site, keeping each variant it checked until a save changes
    a folder it reads (as `watch` keeps its rules between saves)."""

    def __init__(self, rules: Rules, settings: Settings) -> None:
        self.rules = rules
        self.settings = settings
        # (variant, checked against its board) -> what check_variant said
        self._checked: dict[tuple[str, bool], tuple[CheckedVariant | None, list[Diagnostic]]] = {}

    def forget(self, folders: set[str]) -> None:
        """Forget what was read of `folders` and every variant that reads one of them."""
        for folder in folders:
            self.rules.forget(folder)
        self._checked = {
            key: (checked, found)
            for key, (checked, found) in self._checked.items()
            if checked is not None and not folders & set(checked.resolved.chain)
        }

    def _check(self, name: str, board: bool) -> tuple[CheckedVariant | None, list[Diagnostic]]:
        if not board and (name, True) in self._checked:  # the same spec; the board only adds problems
            return self._checked[(name, True)]
        if (name, board) not in self._checked:
            self._checked[(name, board)] = check_variant(self.rules, name, maps=self.settings.maps if board else None)
        return self._checked[(name, board)]

    def variant(self, name: str) -> tuple[Built | None, list[Diagnostic]]:
        """The pages of variant `name`, or None and the problems that keep it from having any."""
        checked, problems = self._check(name, True)
        problems = list(problems)
        if checked is None or _errors(problems):
            return None, problems
        maps = self.settings.maps
        installed = find_board(checked.spec, checked.resolved, self.rules, maps)
        if installed is None:
            names = map_names(self.rules, checked.resolved, checked.spec.game.map)
            return None, [*problems, Diagnostic(f"{name}: {board_missing(names, maps)}: {get_hint(names)}")]
        spec = checked.spec
        art = UnitArt(checked, self.rules, installed, maps)
        problems += art.problems
        title = preview_title(spec)
        image = draw_board(spec, installed, title)
        board = board_view("board", (BOARD, title), image, installed, territory_facts(checked, art, installed, "t"))
        files = {BOARD: png_bytes(image)}
        changes = None
        if spec.extends:
            base, found = self._check(spec.extends, False)  # read as diff reads a side
            if base is not None and not _errors(found):
                changes, files[CHANGES_PICTURE] = changes_view(base, checked, art, installed)
        studies, charts = studies_of(name, study_folders(self.settings.studies))
        game = f"{spec.game.name} {spec.game.version or ''}".strip()
        units = nations(checked, art, installed)  # the last to ask for pictures: art.used is whole after it
        pages = VariantPages(
            name, game, _facts(checked), Markup(spec.notes), board, units,
            rules_view(checked, self.settings.mutation_results), changes, studies, {**files, **charts, **art.used},
        )  # fmt: skip
        summary = f"{len(spec.players)} players, {len(spec.territories)} territories, {len(spec.units)} unit types"
        entry = IndexEntry(
            name, game, spec.extends or "", summary, changes.summary if changes else "", f"{name}/{BOARD}"
        )
        return Built(name, list(checked.resolved.chain), variant_files(pages), entry), problems


def site_title(built: Sequence[Built]) -> str:
    count = len(built)
    return f"{count} variant{'s' if count != 1 else ''}"


def site_files(built: Sequence[Built]) -> dict[str, bytes]:
    """The whole site: each variant's part, the index of them and the assets."""
    files: dict[str, bytes] = {}
    for item in built:
        files.update(item.files)
    files.update(index_files(site_title(built), [b.entry for b in built if b.entry is not None]))
    return files
