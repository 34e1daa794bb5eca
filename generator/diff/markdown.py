"""`triplea-forge diff --format markdown`: the report for a pull request or a CI job summary.

Every change is there; what would drown a reviewer is folded: a domain of more lines than
FOLD_OVER (a line standing for a run of alike changes has its members listed under it) becomes one
`<details>` whose summary says what it holds. `brief` keeps today's short form (no folds, runs named
up to five). GitHub renders `<details>` with Markdown inside when a blank line follows `<summary>`.
"""

from __future__ import annotations

from html import escape

from generator.diff.compare import Diff
from generator.diff.render import ARROW, Line, _grouped, _md, domain_lines, line, summary

FOLD_OVER = 5  # a domain with more lines than this is folded whole


def _bullet(ln: Line) -> str:
    key = f"**{_md(ln.key)}**" if ln.key else ""
    return f"- {key}{ln.rest_md if ln.rest_md is not None else _md(ln.rest)}"


def _fold(title: str, body: list[str]) -> list[str]:
    return [f"<details><summary>{escape(title)}</summary>", "", *body, "", "</details>"]


def _lines(ln: Line) -> list[str]:
    """A bullet, with a run's members as the bullets of a list under it."""
    return [_bullet(ln), *(f"  - {_md(item)}" for item in ln.items)]


def _kinds(lines: list[Line]) -> str:
    """What a folded domain holds, in a few words: '40 renamed, 8 moved, 12 changed'."""
    counts: dict[str, int] = {}
    for ln in lines:
        counts[ln.kind] = counts.get(ln.kind, 0) + ln.changes
    return ", ".join(f"{n} {kind}" for kind, n in counts.items())


def markdown_lines(diff: Diff, collapse: bool = True, brief: bool = False) -> list[str]:
    """Every domain under its heading; long ones folded (not with `brief`, nor without `collapse`)."""
    out: list[str] = []
    for domain, changes in _grouped(diff):
        lines = domain_lines(domain, changes, brief) if collapse else [line(c) for c in changes]
        out += ["", f"#### {domain.title} ({len(changes)})"]
        body = [text for ln in lines for text in _lines(ln)] if not brief else [_bullet(ln) for ln in lines]
        if collapse and not brief and len(body) > FOLD_OVER:
            body = _fold(f"{len(changes)} {domain.plural}: {_kinds(lines)}", body)
        out += body
    return out


def markdown(diff: Diff, brief: bool = False) -> str:
    """The report as Markdown, for a pull-request comment or a CI job summary."""
    head = f"### triplea-forge diff: `{diff.old.label}` {ARROW} `{diff.new.label}`"
    body = summary(diff).split(": ", 1)[1] if diff.changes else "no changes"
    return "\n".join([head, "", f"**{_md(body)}**", *markdown_lines(diff, brief=brief)]) + "\n"
