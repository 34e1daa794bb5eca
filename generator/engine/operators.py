"""The edits the mutation sweep makes of one option: the slips an author makes, one at a time.

Each edit is made by an operator, named in the sweep's report (`OPERATORS`):

- `removed`: the option dropped.
- `flip`: a switch flipped, wherever it stands in the value (an action's `activateTrigger` flags too).
- `number`: a number changed by one either way or doubled, wherever it stands (a price's amount, a
  trigger's `uses`, a count in a placement).
- `list`: one item of a list dropped or written twice, or the list widened by a name of its kind.
- `swap`: a name swapped for another of the same kind, as a copy-paste slip makes it: the name
  the same option of a sibling element (another element of the same rule) holds at the same
  place, a neighbour (a bordering territory, the step before or after), the most alike name of
  its kind, another player; `before` and `after` of a trigger's `when` swapped.
- `added`: an option left to its default written: a condition inverted, a trigger given one use.

A name's kind is read from the game itself (`Names`): its players, units, territories, steps,
production rules and frontiers, relationship types, territory effects, technologies, resources,
and its attachments by class, so a condition is swapped for a condition and never for a trigger.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.spec.claims import elements
from generator.spec.model import play_order

__all__ = ["DROP", "OPERATORS", "Edit", "Names", "added", "edits"]

OPERATORS = ("removed", "flip", "number", "list", "swap", "added")
# What `Edit.value` is when the option is dropped.
DROP = object()
# Collections whose entries other options name, in the order a name is looked up.
_KINDS = (
    "relationship_types", "players", "units", "territories", "production_rules", "production_frontiers",
    "territory_effects", "technologies", "resources",
)  # fmt: skip
# A name swapped for at most this many others: enough for a sibling's, a neighbour's and another.
_SWAPS_PER_NAME = 3
_WHEN = {"before": "after", "after": "before"}
# The kinds whose lists are widened by one more name.
_WIDENED = ("relationship_types", "players", "units", "territories")


@dataclass(frozen=True)
class Edit:
    operator: str  # one of OPERATORS
    words: str  # what changed, after the option's path: "removed", "[2]: Yakut -> Buryatia"
    value: Any  # the option's new value, or DROP
    sibling: bool = False  # a name swapped for a sibling element's: the likeliest slip, made first


@dataclass
class Names:
    """The names of a game by kind, and who borders whom."""

    kinds: dict[str, list[str]] = field(default_factory=dict)  # kind -> names in the game's order
    kind_of: dict[str, str] = field(default_factory=dict)
    borders: dict[str, list[str]] = field(default_factory=dict)
    sea: set[str] = field(default_factory=set)
    _alike_cache: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, tree: Any) -> Names:
        names = cls()
        for kind in _KINDS:
            entries = tree.get(kind)
            if isinstance(entries, dict):
                names.kinds[kind] = [str(n) for n in entries]
        sequence = tree.get("sequence")
        if isinstance(sequence, dict):
            steps = [(str(n), *_anchors(s)) for n, s in sequence.items()]
            names.kinds["steps"] = play_order(steps)
        for path, holder, _ in elements(tree):
            if len(holder) == 3:  # an attachment: named among those of its class
                names.kinds.setdefault(f"attachments of class {holder[2]}", []).append(str(path[-1]))
        for kind, known in names.kinds.items():
            for name in known:
                names.kind_of.setdefault(name, kind)
        territories = tree.get("territories")
        for name, entry in territories.items() if isinstance(territories, dict) else ():
            if not isinstance(entry, dict):
                continue
            if entry.get("sea") or entry.get("water"):
                names.sea.add(str(name))
            for other in entry.get("connections") or []:
                names.borders.setdefault(str(name), []).append(str(other))
                names.borders.setdefault(str(other), []).append(str(name))
        return names

    def others(self, name: str, siblings: list[str]) -> list[tuple[str, bool]]:
        """(name, whether a sibling's) of NAME's kind to swap it for: its siblings' first, then a
        neighbour, the most alike (or, for a player, the next in the game's order)."""
        kind = self.kind_of.get(name)
        if kind is None:
            return []
        known = self.kinds[kind]
        found = [s for s in dict.fromkeys(siblings) if s != name and self.kind_of.get(s) == kind]
        theirs = len(found)
        if kind == "territories":
            alike = [t for t in self.borders.get(name, []) if (t in self.sea) == (name in self.sea)]
        elif kind == "steps":
            at = known.index(name)
            alike = [known[i] for i in (at - 1, at + 1) if 0 <= i < len(known)]
        elif kind == "players":
            at = known.index(name)
            alike = [known[(at + 1) % len(known)]]
        else:
            alike = [self._alike(name, kind)]
        for other in alike:
            if other != name and other not in found:
                found.append(other)
        return [(other, index < theirs) for index, other in enumerate(found[:_SWAPS_PER_NAME])]

    def _alike(self, name: str, kind: str) -> str:
        """The other name of KIND sharing the longest start with NAME, then the longest end: the
        name a slip of a hand that copies a line and edits it half-way writes."""
        found = self._alike_cache.get(name)
        if found is None:
            others = [n for n in self.kinds[kind] if n != name]
            found = max(others, key=lambda n: (_common(name, n), _common(name[::-1], n[::-1])), default=name)
            self._alike_cache[name] = found
        return found


def _common(a: str, b: str) -> int:
    """How many characters A and B start with alike."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _anchors(step: Any) -> tuple[str | None, str | None]:
    if not isinstance(step, dict):
        return None, None
    after, before = step.get("after"), step.get("before")
    return (str(after) if after else None, str(before) if before else None)


def edits(value: Any, names: Names, siblings: list[Any]) -> Iterator[Edit]:
    """Each one-edit change of an option's VALUE. SIBLINGS: the same option's values on the other
    elements of the rule (a copy-paste slip writes one of theirs)."""
    yield Edit("removed", "removed", DROP)
    yield from _inside(value, (), names, siblings)


def added(element: dict[str, Any], kind: str) -> Iterator[tuple[str, Edit]]:
    """(option, edit) for each option of ELEMENT an author leaves to its default and may have
    meant to write: a condition's `invert`, a trigger's `uses`."""
    if kind == "RulesAttachment" and "invert" not in element:
        yield "invert", Edit("added", "added: True", True)
    if kind == "TriggerAttachment" and "uses" not in element:
        yield "uses", Edit("added", "added: 1", 1)


def _inside(value: Any, at: tuple[Any, ...], names: Names, siblings: list[Any]) -> Iterator[Edit]:
    """The edits of the part of a value at AT (a list index or mapping key each), new whole value."""
    part = _get(value, at)
    where = "".join(f"[{p}]" for p in at)
    prefix = f"{where}: " if where else ""
    if isinstance(part, bool):
        yield Edit("flip", f"{prefix}{part} -> {not part}", _set(value, at, not part))
    elif isinstance(part, int):
        for new in dict.fromkeys((part + 1, part - 1, part * 2)):
            if new != part:
                yield Edit("number", f"{prefix}{part} -> {new}", _set(value, at, new))
    elif isinstance(part, str):
        yield from _names(value, at, part, prefix, names, siblings)
    elif isinstance(part, dict):
        for key in part:
            yield from _inside(value, (*at, key), names, siblings)
    elif isinstance(part, list):
        yield from _lists(value, at, part, prefix, names)
        for index in range(len(part)):
            yield from _inside(value, (*at, index), names, siblings)


def _names(
    value: Any, at: tuple[Any, ...], text: str, prefix: str, names: Names, siblings: list[Any]
) -> Iterator[Edit]:
    """A name swapped (each name of an `a:b:c` text on its own); `before` and `after` swapped."""
    if text in _WHEN:
        yield Edit("swap", f"{prefix}{text} -> {_WHEN[text]}", _set(value, at, _WHEN[text]))
        return
    parts = text.split(":")
    for index, name in enumerate(parts):
        theirs = [_part(_find(s, at), index) for s in siblings]
        for other, sibling in names.others(name, [t for t in theirs if t is not None]):
            swapped = ":".join([*parts[:index], other, *parts[index + 1 :]])
            yield Edit("swap", f"{prefix}{name} -> {other}", _set(value, at, swapped), sibling)


def _part(text: Any, index: int) -> str | None:
    if not isinstance(text, str):
        return None
    parts = text.split(":")
    return parts[index] if index < len(parts) else None


def _lists(value: Any, at: tuple[Any, ...], items: list[Any], prefix: str, names: Names) -> Iterator[Edit]:
    """One item dropped or written twice, in a list of alike items (names of one kind, or records:
    not the fields of one record); a list of names widened by another of their kind."""
    kinds = {names.kind_of.get(i) if isinstance(i, str) else type(i).__name__ for i in items}
    if len(kinds) != 1 or None in kinds:
        return
    if len(items) > 1:
        for index in range(len(items)):
            which = f"last of {len(items)} items" if index == len(items) - 1 else f"item {index + 1} of {len(items)}"
            yield Edit("list", f"{prefix}{which} dropped", _set(value, at, [*items[:index], *items[index + 1 :]]))
    for index, item in enumerate(items):
        twice = [*items[: index + 1], item, *items[index + 1 :]]
        yield Edit("list", f"{prefix}item {index + 1} of {len(items)} written twice", _set(value, at, twice))
    kind = next(iter(kinds))
    # Widened by the first other name of the kind in alphabetical order; not a list of attachments,
    # which would be widened by whatever condition sorts first: no author writes one by chance.
    widening = sorted(names.kinds.get(str(kind), [])) if kind in _WIDENED else []
    extra = next((n for n in widening if n not in items), None)
    if extra is not None:
        yield Edit("list", f"{prefix}widened by {extra}", _set(value, at, [*items, extra]))


def _get(value: Any, at: tuple[Any, ...]) -> Any:
    for part in at:
        value = value[part]
    return value


def _find(value: Any, at: tuple[Any, ...]) -> Any:
    """The part at AT of a sibling's value, or None where its value has no such part."""
    for part in at:
        inside = isinstance(value, list) and isinstance(part, int) and part < len(value)
        if not (inside or (isinstance(value, dict) and part in value)):
            return None
        value = value[part]
    return value


def _set(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    """VALUE with the part at AT replaced by NEW (copies on the way to it; the rest shared)."""
    if not at:
        return new
    head, rest = at[0], at[1:]
    if isinstance(value, list):
        return [*value[:head], _set(value[head], rest, new), *value[head + 1 :]]
    return {**value, head: _set(value[head], rest, new)}
