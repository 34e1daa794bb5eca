"""Coverage of any variant, one entry a rule: where it is written, whether a gate keeps it shut,
and what the last `check` of the variant saw it do.

A rule is what a mod maker means as one (checks.mod_rules: a pattern use, or a trigger, national
objective or action written by hand). Its static verdict is the gates' (checks.gates: every gate
open, or each one shut, in the words `validate` says it in); its evidence comes from the record
`check` leaves of the game it played (engine.check_record): in how many games it fired, was offered
or taken, from which round. The record is of a game's bytes: when the variant builds another game
today, the evidence is shown as that of an earlier build. A ledger's rule-document view is
emit.coverage; this one needs no ledger. Rendered as a rich table or as Markdown.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from generator.checks.gates import check_gates
from generator.checks.mod_rules import ModRule, mod_rules
from generator.checks.variant import CheckedVariant
from generator.diagnostics import key_path
from generator.emit.render import render_game_xml
from generator.engine.check_record import ACTS, CheckRecord, evidence
from generator.spec.locate import locate

OPEN = "every gate open"
HEADERS = ("rule", "place", "gates", "in play")
# The acts that tell a rule is at work, by the kind of attachment acting for it.
ACTS_OF = {"trigger": ("fired",), "objective": ("fired",), "userAction": ("offered", "taken"),
           "politicalAction": ("offered", "taken")}  # fmt: skip


@dataclass(frozen=True)
class RuleEntry:
    """One rule as coverage shows it."""

    label: str  # "free_units Reinforcements", "trigger triggerAttachmentRedsTokens"
    where: str  # "rules/mod/game.yaml:7:7"
    gates: str  # OPEN, or each shut gate in words
    in_play: str  # what the last check saw it do


@dataclass
class RuleReport:
    """One variant's rules, and the check their evidence comes from."""

    variant: str
    entries: list[RuleEntry] = field(default_factory=list)
    source: str = ""  # one line: the check the evidence is from ("" when none: each rule says so)


def game_sha(checked: CheckedVariant) -> str:
    """SHA-256 of the game the variant builds today: the bytes `build` writes (emit.build renders
    them so), rendered here so an edit not yet built counts as a new game."""
    return hashlib.sha256(render_game_xml(checked.name, checked.spec).encode("utf-8")).hexdigest()


def rule_report(checked: CheckedVariant, run: str) -> RuleReport:
    """Each rule of the variant with its place, its gates and its evidence; `run` is the command
    that plays it ("triplea-forge check mod"), said where there is no evidence of this game."""
    spec, tree, name = checked.spec, checked.resolved.tree, checked.name
    rules = mod_rules(spec, checked.patterns.made)
    shut: dict[str, list[str]] = {}
    for found in check_gates(spec, tree, spec.game.target or "portable", checked.patterns.made):
        shut.setdefault(found.key_path, []).append(found.message.replace(" (silently ignored)", "", 1))
    if spec.game.target == "2.x":
        record, current, idle = None, False, "not played: made for TripleA 2.x (check plays engine 1.9)"
        source = ""
    else:
        record, current = evidence(name, game_sha(checked))
        idle = f"not played yet: run {run}"
        source = _source(name, record, current, run)
    # Players may each have an attachment of one name (a template's): their player tells them apart.
    twice = {label for label, n in Counter(r.label for r in rules).items() if n > 1}
    report = RuleReport(name, source=source)
    for rule in rules:
        mark = locate(tree, rule.path, key=True)
        of = f" of {rule.attachments[0].player}" if rule.label in twice and rule.attachments else ""
        gates = [said for key, found in shut.items() if _of(key, rule) for said in found]
        if not rule.attachments:  # what it makes is in the game from the start: nothing to see in play
            in_play = "in the game from the start: it makes no trigger, national objective or action"
        else:
            in_play = _in_play(rule, record, current) if record is not None else idle
        report.entries.append(RuleEntry(rule.label + of, str(mark) if mark else "", "; ".join(gates) or OPEN, in_play))
    return report


def _of(key: str, rule: ModRule) -> bool:
    """Whether a gate said at `key` is the rule's: at its key path, or at one of its options."""
    own = key_path(rule.path)
    return key == own or key.startswith((own + ".", own + "["))


def _source(name: str, record: CheckRecord | None, current: bool, run: str) -> str:
    if record is None:
        return ""  # each rule says what to run
    games = f"{len(record.games)} game{'s' if len(record.games) != 1 else ''} of {record.rounds} round" + (
        "s" if record.rounds != 1 else ""
    )
    played = f"{games}, seed {record.seed}, {record.ai} AI, --actions {record.actions}"
    if current:
        return f"{name}: in play: as the check of {record.when} saw this game ({played})"
    return f"{name}: in play: from a check of an earlier build, on {record.when} ({played}); run {run} for this one"


def _in_play(rule: ModRule, record: CheckRecord, current: bool) -> str:
    """'fired in 1 of 1 games, first in round 1'; 'offered in 2 of 2 games, first in round 1; never
    taken'; 'never at work in 2 games'."""
    earlier = "" if current else " (from a check of an earlier build)"
    acting = [(a.name, a.player) for a in rule.attachments]
    if not set(acting) & record.attachments:
        return "not in the game the last check played" + earlier
    games = len(record.games)
    kinds = {a.kind for a in rule.attachments}
    acts = [act for act in ACTS if any(act in ACTS_OF[kind] for kind in kinds)]
    parts, idle = [], []
    for act in acts:
        n, first = record.acted(act, acting)
        if n:
            parts.append(f"{act} in {n} of {games} games, first in round {first}")
        else:
            idle.append(act)
    if not parts:
        return f"never at work in {games} game{'s' if games != 1 else ''}{earlier}"
    if idle:
        parts.append("never " + " or ".join(idle))
    return "; ".join(parts) + earlier


def render_rules_table(report: RuleReport, console: Console) -> None:
    """The rules as a terminal table (cells wrap to the terminal's width), then the evidence's source."""
    if not report.entries:
        line = f"{report.variant}: no rules: no pattern use, trigger, national objective or action"
        console.print(line, markup=False, highlight=False)
        return
    count = len(report.entries)
    table = Table(title=f"rules of {report.variant} ({count} rule{'s' if count != 1 else ''})")
    for header in HEADERS:
        table.add_column(header, overflow="fold")
    for entry in report.entries:
        table.add_row(entry.label, entry.where, entry.gates, entry.in_play)
    console.print(table)
    if report.source:
        console.print(report.source, markup=False, highlight=False)


def render_rules_markdown(report: RuleReport) -> str:
    """The same as Markdown (GitHub flavour)."""
    lines = [f"## Rules: {report.variant}", ""]
    if not report.entries:
        lines.append(f"{report.variant} writes no rule: no pattern use, trigger, national objective or action.")
        return "\n".join(lines) + "\n"
    count = len(report.entries)
    lines.append(
        f"{count} rule{'s' if count != 1 else ''}: each pattern use, trigger, national objective and action the "
        "variant writes, where, whether a gate keeps it shut, and what the last check saw it do."
    )
    lines += ["", "| " + " | ".join(HEADERS) + " |", "|---|---|---|---|"]
    for entry in report.entries:
        where = f"`{entry.where}`" if entry.where else ""
        cells = [entry.label, where, entry.gates, entry.in_play]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", f"- {report.source}"] if report.source else []
    return "\n".join(lines) + "\n"
