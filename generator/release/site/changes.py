"""What a variant changes from the variant it extends, on a page: `diff`'s words and its picture.

The words are `triplea-forge diff BASE VARIANT`'s, line for line (diff.render: a long run of alike
changes is one line with its members under it); the board is `diff --picture`'s, with the shape of
each changed territory laid over it, saying what changed there.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from generator.checks.variant import CheckedVariant
from generator.diff.compare import Diff, Side, compare
from generator.diff.render import _grouped, domain_lines, summary
from generator.installed_map import InstalledMap
from generator.release.pictures.diff import diff_picture, territory_changes
from generator.release.pictures.png import png_bytes
from generator.release.site.art import UnitArt
from generator.release.site.board import BoardView, board_view, territory_facts

SIGNS = {"added": "+", "removed": "-"}  # as the terminal shows them; any other kind is "~"
PICTURE = "changes.png"


@dataclass(frozen=True)
class ChangeLine:
    kind: str  # added, removed, changed, renamed, moved
    sign: str
    key: str
    rest: str
    items: tuple[str, ...]  # the members of a run of alike changes


@dataclass
class ChangeDomain:
    title: str
    count: int
    lines: list[ChangeLine] = field(default_factory=list)


@dataclass
class ChangesView:
    base: str
    summary: str  # diff's first line: both sides and the counts per domain
    domains: list[ChangeDomain]
    board: BoardView


def changes_view(
    base: CheckedVariant, checked: CheckedVariant, art: UnitArt, installed: InstalledMap
) -> tuple[ChangesView, bytes]:
    """The diff from `base` to `checked` in words, and its board (the picture's bytes)."""
    diff = Diff(Side(base.name, "variant"), Side(checked.name, "variant"), compare(base.spec, checked.spec))
    domains = []
    for domain, changes in _grouped(diff):
        lines = [
            ChangeLine(ln.kind, SIGNS.get(ln.kind, "~"), ln.key, ln.rest, ln.items)
            for ln in domain_lines(domain, changes)
        ]
        domains.append(ChangeDomain(domain.title, len(changes), lines))
    title = f"{base.name} -> {checked.name}: where the board differs"
    image = diff_picture(base.spec, checked.spec, installed, title)
    facts = territory_facts(checked, art, installed, "c")
    words = {h.territory: tuple(h.words) for h in territory_changes(base.spec, checked.spec)}
    changed = {name: replace(f, changes=words[name]) for name, f in facts.items() if name in words}
    board = board_view("changes", (PICTURE, title), image, installed, changed)
    return ChangesView(base.name, summary(diff), domains, board), png_bytes(image)
