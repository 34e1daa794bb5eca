"""`triplea-forge diff` output: words a reviewer reads (terminal, Markdown) and JSON for tools.

Each change becomes one line ("destroyer: attack 3 → 2; gains canBombard"). In text and
Markdown a long run of alike changes in one domain is collapsed with a count ("12 territories
changed production: ..., and 7 more"); JSON always holds every change in full, with the same words
in `text`. The JSON layout is documented in the README and in generator/diff/schema.json.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from generator.diff.compare import Change, Diff, FieldChange
from generator.diff.facts import DOMAIN, ORDERED_FIELDS, Domain, Value

ARROW = "\N{RIGHTWARDS ARROW}"
MINUS = "\N{MINUS SIGN}"
SCHEMA_ID = "triplea-forge-diff"
SCHEMA_VERSION = 1
COLLAPSE_OVER = 6  # a run of more alike changes than this is one line...
SHOWN = 5  # ...naming this many of them
LONG = 60  # text longer than this is "reworded", not quoted
# Yes/no fields that read better as words than as true/false.
FLAG_WORDS = {
    "editable": ("now editable", "no longer editable"),
    "sea zone": ("now a sea zone", "no longer a sea zone"),
    "optional": ("now optional", "no longer optional"),
    "can be disabled": ("can now be disabled", "can no longer be disabled"),
    "hidden": ("now hidden", "no longer hidden"),
}
GRADES = {"grade": "re-graded", "grade 2.x": "re-graded for 2.x"}
# Prose: a change reads "reworded" whatever its length (JSON holds both texts).
PROSE = frozenset({"summary", "note", "note 2.x", "reading"})


@dataclass(frozen=True)
class Line:
    """One report line: `key` (shown strong) then `rest`; `kind` picks its colour and sign."""

    kind: str
    key: str
    rest: str

    @property
    def text(self) -> str:
        return self.key + self.rest


def _items(value: Value | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return value if isinstance(value, tuple) else (value,)


def _show(value: Value) -> str:
    text = ", ".join(value) if isinstance(value, tuple) else value
    return text if len(text) <= LONG else text[: LONG - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _is_long(change: FieldChange) -> bool:
    return any(isinstance(v, str) and len(v) > LONG for v in (change.old, change.new))


def phrase(domain: Domain, change: FieldChange) -> str:
    """One field's change in words."""
    name, old, new = change.field, change.old, change.new
    if name == "position":
        return f"moved {new} (was {old})"
    if name in FLAG_WORDS:
        return FLAG_WORDS[name][0 if new == "true" else 1]
    if isinstance(old, tuple) or isinstance(new, tuple):
        return f"{name} {_list_change(name, _items(old), _items(new))}"
    label = "" if name == "value" else f"{name} "
    if _is_long(change) or name in PROSE:
        sizes = f" ({len(old or '')} {ARROW} {len(new or '')} characters)" if name == "value" else ""
        return f"{label}reworded{sizes}" if old and new else f"{label}{'added' if new else 'removed'}"
    if name in GRADES:
        return f"{GRADES[name]} {old or 'none'} {ARROW} {new or 'none'}"
    if domain.options and {old, new} <= {None, "true", "false"} and "true" in (old, new):
        return f"gains {name}" if new == "true" else f"loses {name}"
    if domain.counts and (old or "0").isdigit() and (new or "0").isdigit():
        return f"{label}{old or 0} {ARROW} {new or 0}"
    if old is None:
        return f"{label}set to {_show(new or '')}"
    if new is None:
        return f"{label}unset (was {_show(old)})"
    return f"{label}{_show(old)} {ARROW} {_show(new)}"


def _list_change(name: str, old: tuple[str, ...], new: tuple[str, ...]) -> str:
    parts = [f"+{x}" for x in new if x not in old] + [f"{MINUS}{x}" for x in old if x not in new]
    if name in ORDERED_FIELDS and [x for x in old if x in new] != [x for x in new if x in old]:
        parts.append("reordered")
    return ", ".join(parts)


def _content(domain: Domain, fields: tuple[FieldChange, ...], removed: bool) -> str:
    """An added or removed entry's content, short: 'attack 2, defense 2, isSea'."""
    parts = []
    for f in fields:
        value = f.old if removed else f.new
        if value is None:
            continue
        if f.field == "value":
            parts.append(_show(value))
        elif f.field in FLAG_WORDS or (domain.options and value == "true"):
            parts.append(f.field)
        else:
            parts.append(f"{f.field} {_show(value)}")
    text = ", ".join(parts)
    return text if len(text) <= 2 * LONG else f"{len(parts)} {'fields' if len(parts) != 1 else 'field'}"


def line(change: Change) -> Line:
    """The words for one change."""
    domain = DOMAIN[change.domain]
    if change.kind == "renamed":
        return Line("renamed", change.old_key or "", f" renamed to {change.key}")
    if change.kind in ("added", "removed"):
        content = _content(domain, change.fields, change.kind == "removed")
        if change.kind == "added":
            return Line("added", change.key, f" added: {content}" if content else " added")
        return Line("removed", change.key, f" removed (was {content})" if content else " removed")
    return Line(change.kind, change.key, ": " + "; ".join(phrase(domain, f) for f in change.fields))


def _named(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return f"{shown}, and {len(items) - SHOWN} more" if len(items) > SHOWN else shown


def domain_lines(domain: Domain, changes: list[Change]) -> list[Line]:
    """A domain's lines, long runs of alike changes collapsed into one counted line."""
    collapsed: dict[int, Line] = {}  # the line standing for a run, at its first change
    done: set[int] = set()

    def collapse(run: list[Change], ln: Line) -> None:
        collapsed[id(run[0])] = ln
        done.update(id(c) for c in run)

    for kind in ("removed", "added"):
        run = [c for c in changes if c.kind == kind]
        if len(run) > COLLAPSE_OVER:
            collapse(run, Line(kind, "", f"{len(run)} {domain.plural} {kind}: {_named([c.key for c in run])}"))
    by_field: dict[str, list[Change]] = {}
    for c in changes:
        if c.kind in ("changed", "moved") and len(c.fields) == 1:
            by_field.setdefault(c.fields[0].field, []).append(c)
    for name, run in by_field.items():
        if len(run) <= COLLAPSE_OVER:
            continue
        alike: dict[str, list[Change]] = {}
        for c in run:
            alike.setdefault(phrase(domain, c.fields[0]), []).append(c)
        for words, same in alike.items():  # "20 territories: gains blockadeZone (2 Sea Zone, ...)"
            if len(same) > COLLAPSE_OVER:
                collapse(
                    same, Line("changed", "", f"{len(same)} {domain.plural}: {words} ({_named([c.key for c in same])})")
                )
        rest = [c for c in run if id(c) not in done]
        if len(rest) > COLLAPSE_OVER:  # "12 territories changed production: Germany 10 → 12, ..."
            items = [f"{c.key} {_without(name, phrase(domain, c.fields[0]))}" for c in rest]
            verb = "moved" if name == "position" else "changed" if name == "value" else f"changed {name}"
            collapse(rest, Line("changed", "", f"{len(rest)} {domain.plural} {verb}: {_named(items)}"))
    out: list[Line] = []
    for c in changes:
        if id(c) in collapsed:
            out.append(collapsed[id(c)])
        elif id(c) not in done:
            out.append(line(c))
    return out


def _without(name: str, words: str) -> str:
    """'production 2 → 3' as '2 → 3' when the field is already named in the collapsed line."""
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


def plain_lines(diff: Diff) -> list[str]:
    """The text report without colour: what the terminal view shows."""
    out = [summary(diff)]
    signs = {"added": "+", "removed": "-"}
    for domain, changes in _grouped(diff):
        out += ["", f"{domain.title} ({len(changes)})"]
        out += [f"  {signs.get(ln.kind, '~')} {ln.text}" for ln in domain_lines(domain, changes)]
    return out


def print_text(diff: Diff) -> None:
    """The text report on the terminal, coloured when it is one (plain when piped)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(highlight=False, soft_wrap=True)
    colours = {"added": ("+", "green"), "removed": ("-", "red")}
    console.print(Text(summary(diff), style="bold"))
    for domain, changes in _grouped(diff):
        console.print()
        console.print(Text(f"{domain.title} ({len(changes)})", style="bold underline"))
        for ln in domain_lines(domain, changes):
            sign, colour = colours.get(ln.kind, ("~", "yellow"))
            text = Text()
            text.append(f"  {sign} ", style=colour)
            text.append(ln.key, style="bold")
            text.append(ln.rest)
            console.print(text)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def markdown_lines(diff: Diff, collapse: bool = True) -> list[str]:
    """One Markdown bullet per change (collapsed runs as one), grouped under domain headings."""
    out: list[str] = []
    for domain, changes in _grouped(diff):
        lines = domain_lines(domain, changes) if collapse else [line(c) for c in changes]
        out += ["", f"#### {domain.title} ({len(changes)})", ""]
        out += [f"- {f'**{_md(ln.key)}**' if ln.key else ''}{_md(ln.rest)}" for ln in lines]
    return out


def markdown(diff: Diff) -> str:
    """The report as Markdown, for a pull-request comment or a CI job summary."""
    head = f"### triplea-forge diff: `{diff.old.label}` {ARROW} `{diff.new.label}`"
    body = summary(diff).split(": ", 1)[1] if diff.changes else "no changes"
    return "\n".join([head, "", f"**{_md(body)}**", *markdown_lines(diff)]) + "\n"


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
