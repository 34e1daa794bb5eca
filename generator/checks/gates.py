"""Rules the engine will never apply: each said at its line, with the gate that keeps it shut.

A trigger in a game whose `Use Triggers` is off, a national objective of a player who has no
end-of-turn step, a user action no step offers: TripleA loads and plays such a game and the rule
does nothing, without a word. What keeps a rule shut comes from the engines' code
(`generator/catalog/gates-<engine>.json`): the game property a delegate reads first, the step a
kind of rule needs in its player's turn, the delegates that fire a trigger without `when`, option
values that make a rule unusable. Each closed gate is a warning at the rule's line (a pattern
use's, for what the use made), naming the gate and the one-line fix; `--strict` makes it an error.
Units nothing can buy, place or make are said here too: a unit type no one can ever have.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache

from generator.catalog.gates import Applied, Gates, load_gates
from generator.checks.context import CheckContext, Locator, Made, SpecTree
from generator.checks.mod_rules import NOUNS, ModRule, RuleAttachment, mod_rules
from generator.checks.options import attachments_of
from generator.diagnostics import Diagnostic, Severity, did_you_mean
from generator.spec.model import Property, Spec
from generator.spec.option_values import option_writes
from generator.targets import TARGET_ENGINES, Target

Path = tuple[str | int, ...]
Steps = tuple[tuple[str | None, str, bool], ...]  # the sequence as the gates read it (see _steps)
ENGINE_NAMES = {("1.9",): "TripleA 1.9", ("2.x",): "TripleA 2.x", ("1.9", "2.x"): "TripleA 1.9 and 2.x"}
# What a rule of each kind does not do behind a shut gate.
NEVER = {
    "trigger": "never fires",
    "objective": "never pays",
    "userAction": "is never offered",
    "politicalAction": "is never offered",
}


@dataclass(frozen=True)
class Closed:
    """One closed gate of one rule attachment, in one engine."""

    path: Path  # where to say it (the rule's key, or the option that shuts it)
    reason: str  # why the rule is inert, in words
    fix: str  # the one-line fix
    part: str = ""  # what of the rule never happens, when the rest of it acts ("gives no resource")


@dataclass(frozen=True)
class ShutRule:
    """A rule some gate keeps from acting (or a part of it), in the engines named."""

    rule: ModRule
    where: Path  # the rule's key, or the option that shuts it
    gate: Closed
    shut: tuple[RuleAttachment, ...]  # the attachments it keeps inert
    engines: tuple[str, ...]

    @property
    def words(self) -> str:
        """'this trigger never fires in TripleA 1.9 and 2.x (silently ignored): <reason> (<fix>)'."""
        subject = _subject(self.rule, list(self.shut), self.gate.part)
        return f"{subject} in {ENGINE_NAMES[self.engines]} (silently ignored): {self.gate.reason} ({self.gate.fix})"


def shut_rules(spec: Spec, target: Target, made: Made, switched: set[str] | None = None) -> list[ShutRule]:
    """Every rule of the spec that some gate keeps from ever acting, one entry per gate (`switched`:
    the words of every option, when the caller has them already)."""
    engines = TARGET_ENGINES[target]
    found: list[ShutRule] = []
    switched = _switched(spec) if switched is None else switched
    activated = _activated(spec)
    steps = _steps(spec)
    for rule in mod_rules(spec, made):
        # (where, gate) -> the attachments it shuts, and in which engines
        closed: dict[tuple[Path, Closed], tuple[list[RuleAttachment], list[str]]] = {}
        for attachment in rule.attachments:
            if attachment.name in activated:
                continue  # what fires it has gates of its own
            for engine in engines:
                for gate in _closed(spec, steps, attachment, load_gates(engine), switched):
                    where = gate.path if rule.path == attachment.path else rule.path
                    shut, shut_in = closed.setdefault((where, replace(gate, path=where)), ([], []))
                    shut += [] if attachment in shut else [attachment]
                    shut_in += [] if engine in shut_in else [engine]
        for (where, gate), (shut, shut_in) in closed.items():
            found.append(ShutRule(rule, where, gate, tuple(shut), tuple(e for e in engines if e in shut_in)))
    return found


def check_gates(spec: Spec, tree: SpecTree, target: Target, made: Made) -> list[Diagnostic]:
    """`check` for a spec checked outside a variant (a game XML, the rule coverage's report)."""
    return check(CheckContext(spec, tree, target, made=made))


def check(ctx: CheckContext) -> list[Diagnostic]:
    """A warning for every rule of the spec that some gate keeps from ever acting, at the rule's line."""
    named = _switched(ctx.spec)
    found = [
        ctx.at.problem(s.where, s.words, Severity.WARNING, key=s.where == s.rule.path)
        for s in shut_rules(ctx.spec, ctx.target, ctx.made, named)
    ]
    return found + _unreachable_units(ctx.spec, ctx.at, named)


def _subject(rule: ModRule, shut: list[RuleAttachment], part: str) -> str:
    """What never acts: the rule itself, or the attachments of a pattern use, by name (or that part of it)."""
    first = shut[0]
    never = part or NEVER[first.kind]
    if len(rule.attachments) == 1 and rule.attachments[0].path == rule.path:
        return f"this {NOUNS[first.kind]} {never}"
    if len(shut) == 1:
        return f"the {NOUNS[first.kind]} {first.name} it makes {never}"
    names = ", ".join(a.name for a in shut[:3]) + (", ..." if len(shut) > 3 else "")
    return f"{len(shut)} of the rules it makes ({names}) {part or 'never act'}"


def _switched(spec: Spec) -> set[str]:
    """Attachments another attachment names: a user action's activateTrigger, a trigger that sets
    an attachment's options... Their starting options (uses 0) may be changed in play."""
    named: set[str] = set()
    for _, _, _, options in attachments_of(spec):
        named |= {word for value in options.values() for word in _words(value)}
    return named


def _activated(spec: Spec) -> set[str]:
    """Triggers that an action or another trigger fires (activateTrigger: `trigger:times:...`): they
    act when it does, whatever the gates of firing on their own."""
    fired: set[str] = set()
    for _, _, _, options in attachments_of(spec):
        fired |= {text.split(":", 1)[0] for text, _ in option_writes(options.get("activateTrigger")) or []}
    return fired


def _closed(spec: Spec, steps: Steps, rule: RuleAttachment, gates: Gates, switched: set[str]) -> Iterator[Closed]:
    """Every gate that keeps this attachment from ever acting in this engine."""
    java_class = _class(spec, rule)
    for never in gates.never:
        if never.java_class == java_class and never.holds(rule.options.get(never.option)):
            if rule.name in switched and never.option == "uses":
                continue  # another rule names it: an action or trigger that fires it, whatever its uses
            if any(rule.options.get(other) is not None for other in never.unless):
                continue
            value = rule.options[never.option]
            yield Closed((*rule.path, never.option), f"{never.option} is {value}: {never.why}",
                         f"fix: change {never.option}")  # fmt: skip
    if rule.kind == "trigger":
        yield from _trigger_gates(spec, steps, rule, gates)
        return
    applied = gates.rules[rule.kind]
    if applied.name_prefix and not rule.name.startswith(applied.name_prefix):
        yield Closed(rule.path, f"the engine finds a {NOUNS[rule.kind]} by its name, which must start with "
                     f"{applied.name_prefix}", f"fix: rename it {applied.name_prefix}...")  # fmt: skip
    yield from _applied_gates(spec, steps, rule, gates, applied, f"the engine skips every {NOUNS[rule.kind]}")


def _applied_gates(
    spec: Spec, steps: Steps, rule: RuleAttachment, gates: Gates, applied: Applied, part: str = ""
) -> Iterator[Closed]:
    """The properties `applied` needs, and a step of its delegates (of the rule's player, unless any will do)."""
    for prop in applied.properties:
        if not _property_on(spec, prop, gates):
            yield Closed(rule.path, f"the game property '{prop}' is off, and {part or 'the engine skips it'} then",
                         f"fix: properties: {{{prop}: true}}")  # fmt: skip
    if applied.steps and not _has_step(steps, None if applied.any_player else rule.player, applied):
        delegate = sorted(applied.steps)[0]
        when = applied.phase if applied.phase.startswith("during") else f"at {applied.phase or 'a step of ' + delegate}"
        who = "the sequence" if applied.any_player else rule.player
        combat = "combat move " if applied.combat_move else ""
        yield Closed(rule.path, f"the engine looks for it only {when}, and {who} has no {combat}step of "
                     f"{' or '.join(sorted(applied.steps))}",
                     f"fix: add a {combat}step of {delegate} for {rule.player} to sequence")  # fmt: skip


def _trigger_gates(spec: Spec, steps: Steps, rule: RuleAttachment, gates: Gates) -> Iterator[Closed]:
    """A trigger fires at the step its `when` names, else in the delegates that fire what it does."""
    when = rule.options.get("when")
    if when is not None:
        yield from _applied_gates(spec, steps, rule, gates, gates.with_when, "the engine skips every trigger")
        names = spec.ordered_steps()
        for text, _ in option_writes(when) or []:
            step = text.split(":", 1)[-1]
            if step not in spec.sequence and not {"@", "$"} & set(step):  # a loop variable: 2.x fills it in
                yield Closed((*rule.path, "when"), f"its when names step '{step}', which the sequence does not have",
                             f"fix: name a step of the sequence{did_you_mean(step, names)}")  # fmt: skip
        return
    # Without when, each thing a trigger does is done by its own delegates: one shut part leaves the rest.
    parts = [(kind, sorted(set(rule.options) & kind.options)) for kind in gates.trigger_kinds]
    shut = {
        does[0]: list(_applied_gates(spec, steps, rule, gates, kind, f"a trigger without when gives no {does[0]}"))
        for kind, does in parts
        if does
    }
    every = all(shut.values())
    for gives, closed in shut.items():
        yield from (gate if every else replace(gate, part=f"gives no {gives}") for gate in closed)


def _steps(spec: Spec) -> Steps:
    """(player, delegate class, a combat move) of every step whose delegate the spec defines."""
    found = []
    for name, step in spec.sequence.items():
        delegate = spec.delegates.get(step.delegate)
        if delegate is not None:
            found.append((step.player, delegate.java_class, _combat_move(name, step.properties)))
    return tuple(found)


@cache
def _has_step(steps: Steps, player: str | None, applied: Applied) -> bool:
    """A step of `applied`'s delegates, of `player` (None: of anyone), that meets its step condition."""
    return any(
        applied.runs_in(delegate) and (player is None or owner == player) and (combat or not applied.combat_move)
        for owner, delegate, combat in steps
    )


def _combat_move(name: str, properties: Mapping[str, object]) -> bool:
    """The engine's test of a combat move step: its `combatMove` property, else its name."""
    if "combatMove" in properties:
        return str(properties["combatMove"]).lower() == "true"
    return name.endswith("CombatMove") and not name.endswith("NonCombatMove")


def _property_on(spec: Spec, name: str, gates: Gates) -> bool:
    prop = spec.properties.get(name)
    if prop is None:
        return bool(gates.properties.get(name, {}).get("default", False))
    if isinstance(prop, Property):
        if prop.editable:
            return True  # players may switch it on in the game options: their choice, not a slip
        prop = prop.value
    return prop is True or str(prop).strip().lower() == "true"


def _class(spec: Spec, rule: RuleAttachment) -> str:
    written = spec.players[rule.player].attachments[rule.name]
    return (written.java_class(rule.name) or "").rsplit(".", 1)[-1]


def _unreachable_units(spec: Spec, at: Locator, named: set[str]) -> list[Diagnostic]:
    """A unit type no frontier sells, no territory or player starts with and nothing names: no one
    can ever have it (a rule that makes it, a trigger that places it, names it in an option)."""
    # `named`: every word of every attachment's options (a unit's main attachment's included)
    # A rule in a frontier sells its units; so does one a trigger adds to a frontier (it names the rule).
    selling = {name for rules in spec.production_frontiers.values() for name in rules} | named
    sold = {unit for name, rule in spec.production_rules.items() if name in selling for unit in rule.result}
    held = {u for t in spec.territories.values() for counts in t.units.values() for u in counts}
    held |= {u for p in spec.players.values() for u in p.held_units}
    held |= {d.unit for t in spec.territories.values() for d in t.damaged_units}
    found = []
    for name in spec.units:
        if name in sold or name in held or name in named:
            continue
        message = (f"unit {name} never comes into play: no production frontier sells it, nothing starts with it "
                   "and no rule places or makes it (sell it in a frontier, place it, or delete it: "
                   f"units: {{{name}: !delete}})")  # fmt: skip
        found.append(at.problem(("units", name), message, Severity.WARNING, key=True))
    return found


def _words(value: object) -> set[str]:
    return {word for text, _ in option_writes(value) or [] for word in text.replace("-", ":").split(":")}
