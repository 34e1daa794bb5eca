"""A variant's pages and the mod's index, filled into templates/site/ from the views the other modules make.

Each variant has a folder of pages (the board, its units, its rules, what changed from its base, the
rules in play, its balance studies) and the pictures they show; the index lists the variants. Every
link is relative and names its file, so the pages read the same from a web server and from file://;
the style sheet and the little script are the site's own files, so nothing is fetched from elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from generator.emit.ownership import MARKER
from generator.emit.render import environment
from generator.paths import template_dir
from generator.release.site.board import BoardView
from generator.release.site.changes import ChangesView
from generator.release.site.rules import RulesView
from generator.release.site.studies import Study
from generator.release.site.units import Nation

ASSETS = ("site.css", "site.js")  # templates/site/ files copied as they are into the site's assets/
GENERATED = f"{MARKER.decode()} (triplea-forge site); edit the specs, not this file."


@dataclass(frozen=True)
class Link:
    href: str
    text: str
    current: bool = False


@dataclass
class VariantPages:
    """Everything a variant's pages show, and the pictures beside them (path in its folder -> bytes)."""

    name: str
    title: str  # the game's name and version
    facts: list[tuple[str, str]]
    notes: Markup  # the game notes: the author's HTML, as the engines show it
    board: BoardView
    nations: list[Nation]
    rules: RulesView
    changes: ChangesView | None
    studies: list[Study]
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass(frozen=True)
class IndexEntry:
    """A variant as the mod's index lists it."""

    name: str
    title: str
    extends: str
    facts: str  # "5 players, 143 territories, 12 unit types"
    changes: str  # diff's first line against its base ("" when it extends nothing)
    picture: str  # its board, from the index


def _pages(v: VariantPages) -> list[tuple[str, str, str]]:
    """(file, title, template) of each page the variant has."""
    pages = [("index.html", "Board", "board"), ("units.html", "Units", "units"), ("rules.html", "Rules", "rules")]
    if v.changes is not None:
        pages.append(("changes.html", f"Changes from {v.changes.base}", "changes"))
    pages.append(("ledger.html", "Rules in play" if not v.rules.ledger else "Ledger and rules in play", "ledger"))
    if v.studies:
        pages.append(("balance.html", "Balance", "balance"))
    return pages


def _render(template: str, **values: Any) -> bytes:
    text = environment().get_template(f"site/{template}.html.j2").render(generated=GENERATED, **values)
    return text.encode("utf-8")


def variant_files(v: VariantPages) -> dict[str, bytes]:
    """The variant's pages and pictures, by their path in the site (under `<name>/`)."""
    pages = _pages(v)
    files = {f"{v.name}/{rel}": data for rel, data in v.files.items()}
    for file, title, template in pages:
        nav = [Link(href, text, href == file) for href, text, _ in pages]
        files[f"{v.name}/{file}"] = _render(
            template, root="../", home=Link("../index.html", "All variants"), nav=nav, heading=title, v=v
        )
    return files


def index_files(title: str, entries: list[IndexEntry]) -> dict[str, bytes]:
    """The mod's index and the site's own assets."""
    files = {"index.html": _render("index", root="", home=None, nav=[], heading=title, entries=entries)}
    for asset in ASSETS:
        files[f"assets/{asset}"] = (template_dir() / "site" / asset).read_bytes()
    return files
