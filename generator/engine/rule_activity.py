"""The rules at work in the games `check` played: how often each fired, was offered and was taken.

A rule is what a mod maker means as one (checks.mod_rules: a pattern use, or a trigger, national
objective or action written by hand), said at its YAML line; for a game without a spec, each
trigger, objective and action of the game is a rule of its own, said by its name. The facts are
the harness's (RuleActivity.java: `ruleActivity`, the triggers fired and objectives paid;
ActionPolicy.java: `actionsOpen` and `actionsTaken`); the judgement is here: a rule fails when it
did not do what it is expected to (`expect:` in the spec, or `--expect-fire` for every rule that
acts on its own).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.checks.gates import shut_rules
from generator.checks.mod_rules import NOUNS, Expectation, RuleKind, mod_rules
from generator.checks.variant import check_variant
from generator.engine.harness_report import GameReport
from generator.engine.judge import Target, Verdict
from generator.spec.locate import locate
from generator.spec.resolve import Rules

ACTIONS: tuple[RuleKind, ...] = ("userAction", "politicalAction")
# Rules acted, shown one a line up to this many a target; more are one line of counts (the
# report lists them all), and only those that never acted are listed in full.
LISTED = 10


@dataclass(frozen=True)
class RuleLine:
    """One rule `check` reports on: its words, where it is written and the attachments acting for it."""

    label: str  # "free_units GermanBombers", "trigger triggerAttachmentUsBomber"
    attachments: tuple[tuple[str, str, RuleKind], ...]  # (name, player, kind)
    where: str | None = None  # "rules/mymod/game.yaml:7:3"; None in a game without a spec
    key: str | None = None  # its key path in the spec
    expect: Expectation | None = None  # what the spec says it must do
    shut: str | None = None  # the gate that keeps it from acting, as validate says it (checks.gates)

    def own_expectation(self) -> Expectation | None:
        """What a rule that acts on its own must do (`--expect-fire`): an action must be offered
        (whether it is taken is the player's choice), a trigger or an objective must fire."""
        kinds = {kind for _, _, kind in self.attachments}
        if kinds & set(ACTIONS):
            return "offered"
        return "fires" if kinds else None


def variant_rules(rules: Rules, names: Iterable[str], games_dir: Path) -> dict[Path, list[RuleLine]]:
    """The rules of each variant named, by the resolved path of its built game."""
    found: dict[Path, list[RuleLine]] = {}
    for name in names:
        checked, _ = check_variant(rules, name)
        if checked is None:  # the build said why; the game is checked by its attachments
            continue
        lines = []
        made = mod_rules(checked.spec, checked.patterns.made)
        # The games are TripleA 1.9's: what keeps a rule shut there is why it never acted.
        shut: dict[str, str] = {}
        for gate in shut_rules(checked.spec, "1.9", checked.patterns.made):
            shut.setdefault(gate.rule.key, f"{gate.gate.reason}; {gate.gate.fix}")
        # Players may each have an attachment of one name (a template's): their player tells them apart.
        twice = {label for label, n in Counter(r.label for r in made).items() if n > 1}
        for rule in made:
            mark = locate(checked.resolved.tree, rule.path, key=True)
            acting = tuple((a.name, a.player, a.kind) for a in rule.attachments)
            label = f"{rule.label} of {rule.attachments[0].player}" if rule.label in twice and acting else rule.label
            where = str(mark) if mark else None
            lines.append(RuleLine(label, acting, where, rule.key, rule.expect, shut.get(rule.key)))
        found[(games_dir / f"{name}.xml").resolve()] = lines
    return found


def game_rules(reports: Sequence[GameReport]) -> list[RuleLine]:
    """A game without a spec: each trigger, objective and action the engine read, a rule of its own."""
    seen: dict[tuple[str, str], RuleKind] = {}
    for report in reports:
        for info in report.get("game", {}).get("rules", []):
            seen[(info["name"], info["player"])] = info["kind"]
    twice = {name for name, n in Counter(name for name, _ in seen).items() if n > 1}
    return [
        RuleLine(f"{NOUNS[kind]} {name}" + (f" of {player}" if name in twice else ""), ((name, player, kind),))
        for (name, player), kind in sorted(seen.items())
    ]


@dataclass
class RuleTally:
    """What one rule did over the games of one target, by round."""

    rule: RuleLine
    games: int
    rounds: int
    fired: Counter[int] = field(default_factory=Counter)  # steps it fired in (or paid), by round
    offered: Counter[int] = field(default_factory=Counter)  # steps an action of it was open at
    taken: Counter[int] = field(default_factory=Counter)  # times an action of it was taken
    gives: dict[str, Any] = field(default_factory=dict)  # what its triggers and objectives gave
    expect: Expectation | None = None  # what it must do: the spec's, or --expect-fire's
    idle: str | None = None  # for a rule that never acted, what the games say of why (if anything)
    problem: str | None = None  # why it fails the check, in words

    @property
    def acted(self) -> bool:
        return bool(self.fired or self.offered or self.taken)

    def as_json(self) -> dict[str, Any]:
        rule = self.rule
        return {
            "label": rule.label, "key": rule.key, "where": rule.where, "expect": self.expect,
            "attachments": [{"name": n, "player": p, "kind": k} for n, p, k in rule.attachments],
            "games": self.games, "fired": _by_round(self.fired), "offered": _by_round(self.offered),
            "taken": _by_round(self.taken), "gives": self.gives, "idle": self.idle, "problem": self.problem,
        }  # fmt: skip


def tally(
    outcomes: Sequence[Verdict],
    spec_rules: Mapping[Path, Sequence[RuleLine]],
    *,
    rounds: int,
    actions: str,
    expect_fire: bool = False,
) -> dict[Target, list[RuleTally]]:
    """Per target played, each of its rules' activity over its games, and each rule's problem."""
    found: dict[Target, list[RuleTally]] = {}
    for target in dict.fromkeys(o.target for o in outcomes):
        reports = [o.report for o in outcomes if o.target == target and o.report is not None]
        if not reports or rounds <= 0:
            continue
        rules = spec_rules.get(target.path.resolve())
        lines = list(rules) if rules is not None else game_rules(reports)
        tallies = [_count(rule, reports, rounds) for rule in lines]
        for t in tallies:
            t.expect = t.rule.expect or (t.rule.own_expectation() if expect_fire else None)
            t.idle = None if t.acted else why_idle(t.rule, reports, actions)
            t.problem = _problem(t)
        found[target] = [t for t in tallies if t.rule.attachments or t.problem]
    return found


def _count(rule: RuleLine, reports: Sequence[GameReport], rounds: int) -> RuleTally:
    out = RuleTally(rule, len(reports), rounds)
    mine = {(name, player) for name, player, _ in rule.attachments}
    gives: dict[str, dict[str, Any]] = {}
    for report in reports:
        for firing in report.get("ruleActivity", []):
            if (firing["attachment"], firing.get("owner", "")) in mine:
                out.fired[firing["round"]] += 1
                _add_gives(gives, firing["gives"])
        for opened in report.get("actionsOpen", []):
            if (opened["action"], opened.get("player") or "") in mine:
                out.offered[opened["round"]] += 1
        for action in report.get("actionsTaken", []):
            if (action["action"], action.get("player") or "") in mine and not action.get("error"):
                out.taken[action.get("round", 0)] += 1
    out.gives = gives
    return out


def _add_gives(into: dict[str, dict[str, Any]], gives: Mapping[str, Any]) -> None:
    """Sums what firings gave: placements and removals {player: {territory: {unit: n}}}, units put
    in a player's hand {player: {unit: n}}, resources {player: {resource: n}}."""
    for kind in ("placements", "removed"):
        for placed in gives.get(kind, []):
            where = into.setdefault(kind, {}).setdefault(placed["player"] or "", {})
            counts = where.setdefault(placed["territory"], {})
            for unit, n in placed["units"].items():
                counts[unit] = counts.get(unit, 0) + n
    for granted in gives.get("units", []):
        counts = into.setdefault("units", {}).setdefault(granted["player"], {})
        for unit, n in granted["units"].items():
            counts[unit] = counts.get(unit, 0) + n
    for paid in gives.get("resources", []):
        counts = into.setdefault("resources", {}).setdefault(paid["player"], {})
        counts[paid["resource"]] = counts.get(paid["resource"], 0) + paid["amount"]


def _problem(t: RuleTally) -> str | None:
    """Why the rule fails its expectation, in words at its line; None when it meets it (or has none)."""
    rule, expect = t.rule, t.expect
    said = f"expect: {expect}" if rule.expect else "--expect-fire"
    head = f"{rule.where}: {rule.label}" if rule.where else rule.label
    if expect == "never":
        if not t.acted:
            return None
        return f"{head} is expected never to act ({said}), but it acted in {played(t)}: {activity(t)}"
    if expect is None or t.fired or t.taken or (expect == "offered" and t.offered):
        return None
    if not rule.attachments:
        return f"{head} is expected to {_verb(expect)} ({said}), but it makes no trigger, objective or action"
    did = "was offered but never taken" if t.offered else "never fired" if expect == "fires" else "was never offered"
    return f"{head} is expected to {_verb(expect)} ({said}), but it {did} in {played(t)}" + (
        f" ({t.idle})" if t.idle else ""
    )


def idle_words(rule: RuleLine) -> str:
    """What a rule that never acted did not do: 'never fired' (triggers, objectives), 'never offered'
    (actions), 'never fired or offered' (both)."""
    kinds = {kind for _, _, kind in rule.attachments}
    acts, fires = bool(kinds & set(ACTIONS)), bool(kinds - set(ACTIONS))
    return "never " + " or ".join(w for w, on in (("fired", fires), ("offered", acts)) if on)


def _verb(expect: Expectation) -> str:
    return {"fires": "fire", "offered": "be offered", "never": "never act"}[expect]


def why_idle(rule: RuleLine, reports: Sequence[GameReport], actions: str) -> str | None:
    """What the games say about a rule that never acted, when they say something: a switch of the
    game that is off, an objective the engine never pays, actions not recorded."""
    if rule.shut:
        return rule.shut
    # A game without a spec (a plain XML): what its reports say of the switches validate reads.
    kinds = {kind for _, _, kind in rule.attachments}
    switches = [r.get("game", {}).get("switches", {}) for r in reports]
    # A report without the key (a harness of before) says nothing: the switch counts as on.
    off = {name for name in ("Use Triggers", "National Objectives") if not any(s.get(name, True) for s in switches)}
    if kinds <= {"trigger"} and "Use Triggers" in off:
        return "the game property 'Use Triggers' is off: no trigger fires"
    objectives = [name for name, _, kind in rule.attachments if kind == "objective"]
    if objectives and kinds <= {"objective"}:
        if "National Objectives" in off:
            return "the game property 'National Objectives' is off: no objective pays"
        if not any(name.startswith("objectiveAttachment") for name in objectives):
            return "the engine pays only national objectives named objectiveAttachment..."
    if kinds & set(ACTIONS) and actions == "none":
        return "with --actions none no action is offered or taken"
    return None


def activity(t: RuleTally) -> str:
    """'fired 3 times (round 1: 1, round 2: 2)'; 'offered at 4 steps, taken once (round 1: 1)'."""
    parts = []
    if t.fired:
        parts.append(f"fired {_times(t.fired)}")
    if t.offered:
        steps = sum(t.offered.values())
        parts.append(f"offered at {steps} step{'s' if steps != 1 else ''}")
    if t.taken:
        parts.append(f"taken {_times(t.taken)}")
    return ", ".join(parts) if parts else "never acted"


def _times(counts: Counter[int]) -> str:
    total = sum(counts.values())
    rounds = ", ".join(f"round {r}: {n}" for r, n in sorted(counts.items()))
    return f"{'once' if total == 1 else f'{total} times'} ({rounds})"


def played(t: RuleTally) -> str:
    """'1 game of 2 rounds', '3 games of 2 rounds'."""
    return f"{t.games} game{'s' if t.games != 1 else ''} of {t.rounds} round{'s' if t.rounds != 1 else ''}"


def _by_round(counts: Counter[int]) -> dict[str, int]:
    return {str(r): n for r, n in sorted(counts.items())}
