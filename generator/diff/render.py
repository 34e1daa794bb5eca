"""`triplea-forge diff` output: words a reviewer reads (terminal, Markdown) and JSON for tools.

Each change becomes one line ("destroyer: attack 3 → 2; gains canBombard"); a changed text reads
as its changed words ("summary: … Patriotism [-5-]{+7+} IPC …"). A long run of alike changes in
one domain is one line with every member under it (12 territories changed production: each
listed; Markdown folds them), steps renamed are one line, and a block of steps that moved
together (a player's turn) is one move of its first step "with the N steps behind it". Nothing
is left out; `brief` gives the short form of before (runs named up to five, "and N more"). JSON
holds every change, one by one, with the same words in `text`; its layout is in docs/reference/reports.md and
in generator/diff/schema.json.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from generator.diff.compare import Change, Diff, FieldChange
from generator.diff.facts import DOMAIN, ORDERED_FIELDS, Domain, Value
from generator.diff.fold import fold, readable
from generator.diff.words import as_markdown, as_text, word_diff

ARROW = "\N{RIGHTWARDS ARROW}"
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
MINUS = "\N{MINUS SIGN}"
SCHEMA_ID = "triplea-forge-diff"
SCHEMA_VERSION = 1
COLLAPSE_OVER = 6  # a run of more alike changes than this is one line...
SHOWN = 5  # ...naming this many of them
LONG = 60  # with --brief, a text longer than this is cut (prose: counted)
# Yes/no fields that read better as words than as true/false.
FLAG_WORDS = {
    "editable": ("now editable", "no longer editable"),
    "sea zone": ("now a sea zone", "no longer a sea zone"),
    "optional": ("now optional", "no longer optional"),
    "can be disabled": ("can now be disabled", "can no longer be disabled"),
    "hidden": ("now hidden", "no longer hidden"),
}
GRADES = {"grade": "re-graded", "grade 2.x": "re-graded for 2.x"}
# Prose: a change reads as its changed words, whatever its length (JSON holds both texts).
PROSE = frozenset({"summary", "note", "note 2.x", "reading", "rationale"})
PROSE_ENTRIES = frozenset({("game", "notes")})  # entries whose value is prose


@dataclass(frozen=True)
class Line:
    """One report line: `key` (shown strong) then `rest`; `kind` picks its colour and sign.

    A line standing for a run of changes holds each of them in `items` (shown under it, folded in
    Markdown). `rest_md`, where set, is `rest` already written as Markdown (struck and bold words).
    """

    kind: str
    key: str
    rest: str
    items: tuple[str, ...] = ()
    rest_md: str | None = None
    changes: int = 1  # how many changes the line stands for

    @property
    def text(self) -> str:
        return self.key + self.rest


def _items(value: Value | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return value if isinstance(value, tuple) else (value,)


def _show(value: Value, brief: bool = False) -> str:
    """A value in full (brief: cut at LONG characters)."""
    text = ", ".join(value) if isinstance(value, tuple) else value
    return text if not brief or len(text) <= LONG else text[: LONG - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _is_long(change: FieldChange) -> bool:
    return any(isinstance(v, str) and len(v) > LONG for v in (change.old, change.new))


def _prose(change: FieldChange) -> bool:
    return change.field in PROSE or _is_long(change)


def phrase(domain: Domain, change: FieldChange, md: bool = False, brief: bool = False, prose: bool = False) -> str:
    """One field's change in words (`md`: a changed text's words marked up for Markdown).

    `prose`: the field is a text whatever its name or length (the game notes)."""
    name, old, new = change.field, change.old, change.new
    prose = prose or _prose(change)
    if name == "position":
        return f"moved {new} (was {old})"
    if name == "moved with it":  # the steps that followed it before and still do
        along = _items(new)
        return (
            f"with the {len(along)} {domain.plural} behind it ({along[0]} {ELLIPSIS} {along[-1]})"
            if len(along) > 1
            else f"with {along[0]} behind it"
        )
    if name in FLAG_WORDS:
        return FLAG_WORDS[name][0 if new == "true" else 1]
    if isinstance(old, tuple) or isinstance(new, tuple):
        return f"{name} {_list_change(name, _items(old), _items(new))}"
    label = "" if name == "value" else f"{name} "
    if prose and isinstance(old, str) and isinstance(new, str):
        old, new = readable(old), readable(new)  # notes are HTML: the words players read
        if brief:
            return f"{label}reworded ({len(old)} {ARROW} {len(new)} characters)"
        pieces = word_diff(old, new)
        return (f"{label.rstrip()}: " if label else "") + (as_markdown(pieces, _md) if md else as_text(pieces))
    if prose:  # a text set or unset: the whole of it (brief: that it was)
        if brief:
            return f"{label}{'added' if new else 'removed'}"
        text = (_md if md else str)(new or old or "")
        return f"{label}added: {text}" if new else f"{label}removed (was: {text})"
    if name in GRADES:
        return f"{GRADES[name]} {old or 'none'} {ARROW} {new or 'none'}"
    if domain.options and {old, new} <= {None, "true", "false"} and "true" in (old, new):
        return f"gains {name}" if new == "true" else f"loses {name}"
    if domain.counts and (old or "0").isdigit() and (new or "0").isdigit():
        return f"{label}{old or 0} {ARROW} {new or 0}"
    if old is None:
        return f"{label}set to {_show(new or '', brief)}"
    if new is None:
        return f"{label}unset (was {_show(old, brief)})"
    return f"{label}{_show(old, brief)} {ARROW} {_show(new, brief)}"


def _list_change(name: str, old: tuple[str, ...], new: tuple[str, ...]) -> str:
    parts = [f"+{x}" for x in new if x not in old] + [f"{MINUS}{x}" for x in old if x not in new]
    if name in ORDERED_FIELDS and [x for x in old if x in new] != [x for x in new if x in old]:
        parts.append("reordered")
    return ", ".join(parts)


def _content(domain: Domain, fields: tuple[FieldChange, ...], removed: bool, brief: bool = False) -> str:
    """An added or removed entry's content, short: 'attack 2, defense 2, isSea'."""
    parts = []
    for f in fields:
        value = f.old if removed else f.new
        if value is None:
            continue
        if f.field == "value":
            parts.append(_show(value, brief))
        elif f.field in FLAG_WORDS or (domain.options and value == "true"):
            parts.append(f.field)
        else:
            parts.append(f"{f.field} {_show(value, brief)}")
    text = ", ".join(parts)
    return text if not brief or len(text) <= 2 * LONG else f"{len(parts)} {'fields' if len(parts) != 1 else 'field'}"


def line(change: Change, brief: bool = False) -> Line:
    """The words for one change."""
    domain = DOMAIN[change.domain]
    if change.kind == "renamed":
        return Line("renamed", change.old_key or "", f" renamed to {change.key}")
    if change.kind in ("added", "removed"):
        content = _content(domain, change.fields, change.kind == "removed", brief)
        if change.kind == "added":
            return Line("added", change.key, f" added: {content}" if content else " added")
        return Line("removed", change.key, f" removed (was {content})" if content else " removed")
    if change.domain == "game" and change.key == "turn order" and change.fields:  # read whole, as a sentence
        was, now = change.fields[0].old or "none", change.fields[0].new or "none"
        return Line("changed", "Turn order", f": {was} {ARROW} {now}")
    notes = (change.domain, change.key) in PROSE_ENTRIES
    rest = ": " + "; ".join(phrase(domain, f, brief=brief, prose=notes) for f in change.fields)
    marked = notes or any(_prose(f) for f in change.fields)
    rest_md = ": " + "; ".join(phrase(domain, f, md=True, prose=notes) if notes or _prose(f) else _md(phrase(domain, f))
                               for f in change.fields) if marked else None  # fmt: skip
    return Line(change.kind, change.key, rest, rest_md=rest_md)


def _named(items: list[str], brief: bool) -> str:
    if not brief:
        return ""
    shown = ", ".join(items[:SHOWN])
    return ": " + (f"{shown}, and {len(items) - SHOWN} more" if len(items) > SHOWN else shown)


def _group(kind: str, head: str, items: list[str], brief: bool, names: bool = False) -> Line:
    """One line for a run of changes: every member under it, or (brief) the first few named in it.

    `names`: the members are bare names sharing the head's words, so they read as one list line."""
    under = (", ".join(items),) if names else tuple(items)
    return Line(kind, "", head + _named(items, brief), () if brief else under, changes=len(items))


def _step_lines(domain: Domain, changes: list[Change], brief: bool) -> tuple[list[Line], set[int]]:
    """Steps: the renames as one line, saying how many of them moved (alone or along with another)."""
    renames = [c for c in changes if c.kind == "renamed"]
    if len(renames) <= 1:
        return [], set()
    moved: set[str] = set()
    for c in changes:
        for f in c.fields:
            if f.field == "position":
                moved.add(c.key)
            elif f.field == "moved with it":
                moved.update(_items(f.new))
    count = sum(1 for c in renames if c.key in moved)
    where = "none moved" if not count else f"{count} of them moved"
    items = [f"{c.old_key} {ARROW} {c.key}" for c in renames]
    return [_group("renamed", f"{len(renames)} {domain.plural} renamed, {where}", items, brief)], {
        id(c) for c in renames
    }


def domain_lines(domain: Domain, changes: list[Change], brief: bool = False) -> list[Line]:
    """A domain's lines: long runs of alike changes as one line each, with every change under it."""
    collapsed: dict[int, Line] = {}  # the line standing for a run, at its first change
    done: set[int] = set()

    def collapse(run: list[Change], ln: Line) -> None:
        collapsed[id(run[0])] = ln
        done.update(id(c) for c in run)

    head: list[Line] = []
    if domain.ordered:
        head, done = _step_lines(domain, changes, brief)
    for kind in ("removed", "added"):
        run = [c for c in changes if c.kind == kind and id(c) not in done]
        if len(run) > COLLAPSE_OVER:
            items = [line(c).text for c in run] if not brief else [c.key for c in run]
            collapse(run, _group(kind, f"{len(run)} {domain.plural} {kind}", items, brief))
    by_field: dict[str, list[Change]] = {}
    for c in changes:
        if c.kind in ("changed", "moved") and len(c.fields) == 1 and id(c) not in done:
            by_field.setdefault(c.fields[0].field, []).append(c)
    for name, run in by_field.items():
        if len(run) <= COLLAPSE_OVER or name in PROSE:
            continue
        alike: dict[str, list[Change]] = {}
        for c in run:
            alike.setdefault(phrase(domain, c.fields[0]), []).append(c)
        for words, same in alike.items():  # "20 territories: gains blockadeZone (2 Sea Zone, ...)"
            if len(same) > COLLAPSE_OVER:
                collapse(
                    same,
                    _group(
                        "changed", f"{len(same)} {domain.plural}: {words}", [c.key for c in same], brief, names=True
                    ),
                )
        rest = [c for c in run if id(c) not in done]
        if len(rest) > COLLAPSE_OVER:  # "12 territories changed production: Germany 10 → 12, ..."
            items = [f"{c.key} {_without(name, phrase(domain, c.fields[0]))}" for c in rest]
            verb = "moved" if name == "position" else "changed" if name == "value" else f"changed {name}"
            collapse(rest, _group("changed", f"{len(rest)} {domain.plural} {verb}", items, brief))
    out: list[Line] = list(head)
    for c in changes:
        if id(c) in collapsed:
            out.append(collapsed[id(c)])
        elif id(c) not in done:
            out.append(line(c, brief))
    return out


def _without(name: str, words: str) -> str:
    """'production 2 → 3' as '2 → 3' when the field is already named in the grouped line."""
    if words in (f"gains {name}", f"loses {name}"):
        return words.split()[0]
    for prefix in (f"{name} ", "moved "):
        if words.startswith(prefix):
            return words[len(prefix) :]
    return words


def _grouped(diff: Diff) -> list[tuple[Domain, list[Change]]]:
    groups: dict[str, list[Change]] = {}
    for change in diff.changes:
        groups.setdefault(change.domain, []).append(change)
    return [(DOMAIN[d], groups[d]) for d in diff.counts()]


def summary(diff: Diff) -> str:
    """The first line: both sides and the counts per domain."""
    head = f"{diff.old.label} {ARROW} {diff.new.label}"
    if not diff.changes:
        return f"{head}: no changes"
    total = len(diff.changes)
    per = ", ".join(f"{n} {DOMAIN[d].noun if n == 1 else DOMAIN[d].plural}" for d, n in diff.counts().items())
    return f"{head}: {total} change{'s' if total != 1 else ''} ({per})"


def plain_lines(diff: Diff, brief: bool = False) -> list[str]:
    """The text report without colour: what the terminal view shows."""
    out = fold("", summary(diff), "  ", at=", ")
    signs = {"added": "+", "removed": "-"}
    for domain, changes in _grouped(diff):
        out += ["", f"{domain.title} ({len(changes)})"]
        for ln in domain_lines(domain, changes, brief):
            out += fold(f"  {signs.get(ln.kind, '~')} ", ln.text, "      ")
            out += [piece for item in ln.items for piece in fold("      ", item, "        ")]
    return out


def print_text(diff: Diff, brief: bool = False) -> None:
    """The text report on the terminal, coloured when it is one (plain when piped)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    colours = {"added": ("+", "green"), "removed": ("-", "red")}
    for piece in fold("", summary(diff), "  ", at=", "):
        console.print(Text(piece, style="bold"))
    for domain, changes in _grouped(diff):
        console.print()
        console.print(Text(f"{domain.title} ({len(changes)})", style="bold underline"))
        for ln in domain_lines(domain, changes, brief):
            sign, colour = colours.get(ln.kind, ("~", "yellow"))
            first, *more = fold(f"  {sign} ", ln.text, "      ")
            text = Text()
            text.append(first[:4], style=colour)
            key = ln.key if first[4:].startswith(ln.key) else ""
            text.append(key, style="bold")
            text.append(first[4 + len(key) :])
            console.print(text)
            for piece in more + [p for item in ln.items for p in fold("      ", item, "        ")]:
                console.print(Text(piece))


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _value(value: Value | None) -> Any:
    return list(value) if isinstance(value, tuple) else value


def as_json(diff: Diff) -> dict[str, Any]:
    """The report as JSON data (see generator/diff/schema.json): every change, none collapsed."""
    return {
        "format": SCHEMA_ID,
        "version": SCHEMA_VERSION,
        "old": {"label": diff.old.label, "source": diff.old.source},
        "new": {"label": diff.new.label, "source": diff.new.source},
        "summary": {"changes": len(diff.changes), "domains": diff.counts(), "text": summary(diff)},
        "changes": [
            {
                "domain": c.domain,
                "kind": c.kind,
                "key": c.key,
                "old_key": c.old_key,
                "fields": [{"field": f.field, "old": _value(f.old), "new": _value(f.new)} for f in c.fields],
                "text": line(c).text,
            }
            for c in diff.changes
        ],
    }


def json_text(diff: Diff) -> str:
    return json.dumps(as_json(diff), indent=2, ensure_ascii=False) + "\n"
