"""`triplea-forge diff`: what changed between two rule sets, as name-keyed changes by domain.

Both sides become facts (diff.facts) and are compared entry by entry, so reordering is never a
change except where the engine's meaning depends on order (the steps' play order; a frontier's
rules, reported by the renderer as a reorder). A removed and an added entry with the same content
is a rename; the older side is then re-read with the new name everywhere, so references to a
renamed unit or territory are not reported as changes of their own. Rendering is in
diff.render; reading the two sides (variants, revisions, XML files) in diff.sides.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from generator.diff.defaults import attachment_class, is_default
from generator.diff.facts import (
    DOMAINS,
    Domain,
    Entity,
    Facts,
    Key,
    Names,
    Value,
    facts_of,
    key_text,
    step_identities,
)
from generator.diff.pattern_facts import made_paths
from generator.errors import TripleaForgeError
from generator.spec.model import Spec


class DiffError(TripleaForgeError):
    """Why a diff cannot be made, in one line (exit 1)."""


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: Value | None
    new: Value | None


@dataclass(frozen=True)
class Change:
    domain: str
    kind: str  # added, removed, changed, renamed, moved
    key: str
    old_key: str | None = None  # renamed: the name before
    fields: tuple[FieldChange, ...] = ()


@dataclass(frozen=True)
class Side:
    label: str  # how the report names this side
    source: str  # variant, xml or revision


@dataclass
class Diff:
    old: Side
    new: Side
    changes: list[Change] = field(default_factory=list)
    # The two sides as read, for what draws them (diff --picture); not part of the report.
    specs: tuple[Spec, Spec] | None = field(default=None, repr=False, compare=False)

    def counts(self) -> dict[str, int]:
        """Changes per domain, in report order."""
        found: dict[str, int] = {}
        for change in self.changes:
            found[change.domain] = found.get(change.domain, 0) + 1
        return {d.id: found[d.id] for d in DOMAINS if d.id in found}


def compare(old: Spec, new: Spec) -> list[Change]:
    """Every change from `old` to `new`, grouped by domain in report order."""
    made_old, made_new = made_paths(old), made_paths(new)  # what pattern uses make: the uses say it
    new_facts = facts_of(new, made=made_new)
    names = Names()
    old_facts = facts_of(old, made=made_old)
    renamed: dict[str, list[tuple[Key, Key]]] = {}
    for domain in DOMAINS:
        if not domain.renames:
            continue
        if domain.id == "steps":
            found = _step_renames(old, new, made_old, made_new)
        else:
            found = _renames(domain, old_facts, new_facts)
        if found:
            renamed[domain.id] = found
            names.renamed.update({was[-1]: now[-1] for was, now in found})
            old_facts = facts_of(old, names, made_old)  # references follow the rename (units in rules...)
    changes: list[Change] = []
    for domain in DOMAINS:
        changes += _domain_changes(domain, old_facts[domain.id], new_facts[domain.id], renamed.get(domain.id, []))
    return changes


def _step_renames(old: Spec, new: Spec, made_old: set[tuple[str | int, ...]], made_new: set[tuple[str | int, ...]]
                  ) -> list[tuple[Key, Key]]:  # fmt: skip
    """Steps that do the same (same player, delegate class, place among such steps) under new names."""
    then = {identity: name for name, identity in step_identities(old, made_old)}
    return [((then[identity],), (name,)) for name, identity in step_identities(new, made_new)
            if identity in then and then[identity] != name]  # fmt: skip


def _fingerprint(domain: Domain, key: Key, facts: Facts) -> str:
    """An entry's content without its name: what a rename keeps."""
    parts: list[object] = [key[:-1], sorted(facts[domain.id][key].items())]
    if domain.id == "territories":  # a territory is also where it is and what starts there
        name = key[0]
        parts.append(sorted(b if a == name else a for a, b in facts["connections"] if name in (a, b)))
        parts.append(sorted((k[0], sorted(e.items())) for k, e in facts["starting_units"].items() if k[1] == name))
    return repr(parts)


def _renames(domain: Domain, old: Facts, new: Facts) -> list[tuple[Key, Key]]:
    """(old key, new key) of removed/added entries whose content matches exactly one other."""
    gone = [k for k in old[domain.id] if k not in new[domain.id]]
    came = [k for k in new[domain.id] if k not in old[domain.id]]
    if not gone or not came:
        return []
    by_print: dict[str, tuple[list[Key], list[Key]]] = {}
    for key in gone:
        by_print.setdefault(_fingerprint(domain, key, old), ([], []))[0].append(key)
    for key in came:
        by_print.setdefault(_fingerprint(domain, key, new), ([], []))[1].append(key)
    # Ambiguous matches (two removed sea zones with the same content...) stay removed and added.
    return [(was[0], now[0]) for was, now in by_print.values() if len(was) == 1 and len(now) == 1]


def _field_changes(old: Entity, new: Entity, attachment: str | None = None) -> list[FieldChange]:
    """Fields that differ; an option set to the engine's default on one side and unset on the
    other is the same game, so it is no change."""
    names = list(new) + [f for f in old if f not in new]
    out = []
    for f in names:
        was, now = old.get(f), new.get(f)
        if was == now or (None in (was, now) and is_default(attachment, f, was if now is None else now)):
            continue
        out.append(FieldChange(f, was, now))
    return out


def _stable(old: list[Key], new: list[Key]) -> set[Key]:
    """The most entries that kept their relative order (a longest increasing subsequence)."""
    index = {k: i for i, k in enumerate(old)}
    positions = [index[k] for k in new if k in index]
    tails: list[int] = []  # smallest last position of a run of each length
    tail_at: list[int] = []  # where in `positions` that run ends
    before = [-1] * len(positions)
    for i, pos in enumerate(positions):
        j = bisect_left(tails, pos)
        if j:
            before[i] = tail_at[j - 1]
        if j == len(tails):
            tails.append(pos)
            tail_at.append(i)
        else:
            tails[j], tail_at[j] = pos, i
    kept: set[Key] = set()
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        kept.add(old[positions[i]])
        i = before[i]
    return kept


def _place(order: list[Key], key: Key, domain: Domain) -> str:
    at = order.index(key)
    return f"after {key_text(domain, order[at - 1])}" if at else "first"


def _natural(text: str) -> list[tuple[int, str]]:
    """Sort key that puts '5 Sea Zone' before '15 Sea Zone'."""
    return [(int(part), "") if part.isdigit() else (0, part.casefold()) for part in re.split(r"(\d+)", text)]


def _domain_changes(
    domain: Domain, old: dict[Key, Entity], new: dict[Key, Entity], renamed: list[tuple[Key, Key]]
) -> list[Change]:
    def text(key: Key) -> str:
        return key_text(domain, key)

    if not domain.ordered:
        # By name, so the report reads the same whichever way each side was written (XML or YAML).
        old = dict(sorted(old.items(), key=lambda item: _natural(text(item[0]))))
        new = dict(sorted(new.items(), key=lambda item: _natural(text(item[0]))))
    out = [Change(domain.id, "renamed", text(now), text(was)) for was, now in renamed]
    for key, entity in old.items():
        if key not in new:
            out.append(Change(domain.id, "removed", text(key), fields=tuple(_field_changes(entity, {}))))
    for key, entity in new.items():
        if key not in old:
            out.append(Change(domain.id, "added", text(key), fields=tuple(_field_changes({}, entity))))
    old_order, new_order = list(old), list(new)
    moved: dict[Key, list[Key]] = {}  # a step that moved -> the steps that moved along behind it
    if domain.ordered:
        common_new = [k for k in new if k in old]
        unstable = set(common_new) - _stable([k for k in old if k in new], common_new)
        head: Key | None = None
        for key in common_new:
            if key not in unstable:
                head = None
            elif _place(old_order, key, domain) != _place(new_order, key, domain):
                head = key
                moved[key] = []
            elif head is not None:  # still behind the step it followed before: it moved with it, no move of its own
                moved[head].append(key)
    for key, entity in new.items():
        if key not in old:
            continue
        fields = _field_changes(old[key], entity, attachment_class(domain.id, key, entity))
        if key in moved:
            fields.append(FieldChange("position", _place(old_order, key, domain), _place(new_order, key, domain)))
            if moved[key]:
                fields.append(FieldChange("moved with it", None, tuple(text(k) for k in moved[key])))
        if fields:
            kind = "moved" if {f.field for f in fields} <= {"position", "moved with it"} else "changed"
            out.append(Change(domain.id, kind, text(key), fields=tuple(fields)))
    return out
