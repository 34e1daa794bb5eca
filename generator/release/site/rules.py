"""A variant's rules in words on its pages: each nation's rules and advantages, and the rule ledger.

A rule is what `coverage` lists (checks.mod_rules: a pattern use, or a trigger, national objective
or action written by hand), with the gates and the evidence of the last `check` it shows
(engine.rule_coverage); a rule says what it is in the pattern's words and its parameters as `diff`
names them (diff.pattern_facts), and what the rule ledger says of the rules it claims. The ledger
shows every rule of the document with its grade, its proof and what `check` saw its rules do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.catalog.scenarios import SCENARIOS
from generator.checks.mod_rules import NOUNS, ModRule, mod_rules
from generator.checks.variant import CheckedVariant
from generator.diff.pattern_facts import use_entity
from generator.emit.coverage import coverage, grade_for, mutation_line, proof_kind, proven_line
from generator.emit.notes import GRADE_WORDS
from generator.engine.rule_coverage import RuleEntry, rule_report
from generator.spec.ledger import LedgerEntry
from generator.spec.model import Spec
from generator.spec.patterns import PATTERNS, Pattern
from generator.targets import ENGINES

# Parameters a rule's heading already says, or that say nothing to a player.
SAID_ELSEWHERE = frozenset({"player", "donor", "title", "ledger", "expect"})
BY_COLLECTION = {p.collection: p for p in PATTERNS}


@dataclass(frozen=True)
class Claim:
    """A rule of the document a rule of the spec implements, as the ledger says it."""

    id: str
    summary: str
    grade: str  # in the notes' words: "Enforced by the game"...
    note: str


@dataclass(frozen=True)
class Rule:
    """One rule of the spec in words (or several written by hand alike: one action per territory):
    what it is, its parameters, the document's rules it implements, and coverage's line of each:
    where it is written, its gates and what `check` saw it do."""

    title: str
    kind: str  # "national advantage", "trigger"...
    about: str  # what a rule of its kind is
    params: tuple[str, ...]
    claims: tuple[Claim, ...]
    members: tuple[RuleEntry, ...]


@dataclass
class NationRules:
    nation: str  # "" for the rules of the whole game
    rules: list[Rule] = field(default_factory=list)

    @property
    def heading(self) -> str:
        return self.nation or "The whole game"


@dataclass(frozen=True)
class LedgerRow:
    id: str
    summary: str
    source: str
    grade: str  # "exact", "approximate (2.x: exact)"
    note: str
    reading: str
    proof: str  # in words
    in_play: tuple[str, ...]  # "national_advantages RuWinter: offered in 1 of 1 games..."


@dataclass
class LedgerSection:
    title: str
    rows: list[LedgerRow] = field(default_factory=list)


@dataclass
class RulesView:
    """Everything of a variant's rules its pages show."""

    nations: list[NationRules]
    entries: list[RuleEntry]  # every rule, as `coverage --by-rule` lists them
    source: str  # the check the evidence is from ("" none)
    ledger: list[LedgerSection]
    totals: list[str]  # coverage's sentences: proven in the engine, the mutation score


def _about(kind: type[Pattern]) -> str:
    return (kind.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")


def _claims(spec: Spec, ids: Sequence[str]) -> tuple[Claim, ...]:
    found = []
    for rule_id in ids:
        entry = spec.rule_ledger.get(rule_id)
        if entry is not None:
            found.append(Claim(rule_id, entry.summary, GRADE_WORDS[entry.fidelity.grade], entry.fidelity.note))
    return tuple(found)


def _described(spec: Spec, rule: ModRule, entry: RuleEntry) -> tuple[tuple[str, ...], Rule]:
    """The rule in words, and its group: the nation it belongs to ("" the whole game), and for one
    written by hand its kind and the document's rules it implements (alike ones are one card)."""
    pattern = BY_COLLECTION.get(str(rule.path[0])) if len(rule.path) == 2 else None
    if pattern is not None:
        use: Pattern = getattr(spec, pattern.collection)[rule.path[1]]
        params = tuple(
            f"{key}: {', '.join(value) if isinstance(value, tuple) else value}"
            for key, value in use_entity(use).items()
            if key.split(".")[0] not in SAID_ELSEWHERE
        )
        nation = getattr(use, "player", None) or getattr(use, "donor", None) or ""
        title = getattr(use, "title", None) or str(rule.path[1])
        described = Rule(title, pattern.noun, _about(pattern), params, _claims(spec, use.ledger), (entry,))
        return (nation, entry.label), described
    attachment = rule.attachments[0]
    written = spec.players[attachment.player].attachments[attachment.name]
    kind = NOUNS[attachment.kind]
    # An objective or an action is its player's own; a trigger acts for whoever its rule names, not
    # for the player it is attached to (a mod attaches every trigger to one player, as AARHE does).
    nation = "" if attachment.kind == "trigger" else attachment.player
    about = f"written by hand, attached to {attachment.player}"
    described = Rule(attachment.name, kind, about, (), _claims(spec, written.ledger), (entry,))
    return (nation, kind, *written.ledger), described


def _merged(rules: list[Rule]) -> Rule:
    """One card for several rules written alike."""
    if len(rules) == 1:
        return rules[0]
    first = rules[0]
    title = f"{len(rules)} {first.kind}s"
    return Rule(title, first.kind, first.about, (), first.claims, tuple(m for r in rules for m in r.members))


def _proof(entry: LedgerEntry, variant: str) -> str:
    kind = proof_kind(entry, variant)
    if entry.proof is None or kind == "none":
        return "" if entry.fidelity.grade == "notes-only" else "not proven in the engine on this variant"
    said = [f"{name} ({SCENARIOS[name].description})" if name in SCENARIOS else name for name in entry.proof.scenarios]
    facts = len(entry.proof.facts)
    parts = [f"played by the engine scenario{'s' if len(said) != 1 else ''} {'; '.join(said)}"] if said else []
    parts += [f"{facts} group{'s' if facts != 1 else ''} of facts of the engine's dump of the game"] if facts else []
    return f"{kind}: " + "; ".join(parts)


def _grade(entry: LedgerEntry) -> str:
    later = grade_for(entry, "2.x")
    return entry.fidelity.grade if later == entry.fidelity.grade else f"{entry.fidelity.grade} (2.x: {later})"


def rules_view(checked: CheckedVariant, mutation_results: Path | None) -> RulesView:
    """The rules of `checked` by nation, every rule as coverage lists it, and its ledger."""
    spec, name = checked.spec, checked.name
    report = rule_report(checked, f"triplea-forge check {name}")
    rules = mod_rules(spec, checked.patterns.made)  # rule_report's order: one entry a rule
    groups: dict[tuple[str, ...], list[Rule]] = {}
    in_play: dict[str, list[str]] = {}
    for rule, said in zip(rules, report.entries, strict=True):
        group, described = _described(spec, rule, said)
        groups.setdefault(group, []).append(described)
        for claim in described.claims:
            in_play.setdefault(claim.id, []).append(f"{said.label}: {said.in_play}")
    by_nation: dict[str, NationRules] = {n: NationRules(n) for n in spec.players}
    for group, alike in groups.items():
        by_nation.setdefault(group[0], NationRules(group[0])).rules.append(_merged(alike))
    sections: dict[str, LedgerSection] = {}
    for rule_id, entry in spec.rule_ledger.items():
        note = entry.fidelity.note
        if entry.fidelity_2x is not None and entry.fidelity_2x.note:
            note += f" 2.x: {entry.fidelity_2x.note}"
        row = LedgerRow(
            rule_id, entry.summary, entry.source, _grade(entry), note.strip(), entry.reading or "",
            _proof(entry, name), tuple(in_play.get(rule_id, ())),
        )  # fmt: skip
        sections.setdefault(entry.section, LedgerSection(entry.section)).rows.append(row)
    totals: list[str] = []
    if spec.rule_ledger:
        counted = coverage(name, spec, mutation_results)
        totals = [proven_line(counted, engine) for engine in ENGINES]
        totals += [mutation_line(counted)] if counted.mutation is not None else []
    # Each nation's own first: what a player reads for the nation they play; the whole game's last.
    nations = sorted((n for n in by_nation.values() if n.rules), key=lambda n: not n.nation)
    return RulesView(nations, report.entries, report.source, list(sections.values()), totals)
