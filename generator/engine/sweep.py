"""The mutation sweep: run every enforced entry's proof on the mutants of its rule.

For each entry, generator/engine/mutation.py makes one-edit mutants of the options that claim it,
by the operators of generator/engine/operators.py. The sweep builds each distinct mutant once (an
option serving several rules is mutated once for all of them; generator/engine/sweep_games.py,
in a few processes), dumps them all (a mutant the engine reads exactly as the original game is the
same game: no proof can tell them apart), checks the claimants' dump facts, then plays the
scenarios the claimants' proofs name on the mutants left, in waves and in a few JVMs side by
side (generator/engine/sweep_play.py). A mutant is **killed** when a proof of a rule its edit
serves fails on it; a survivor is a proof that cannot tell the rule from its absence, and is
reported under every rule that claims the edited option (`ledger_options` narrows the claims).

Whether a scenario's proof holds is the caller's `Verdict`: the tests pass the very assertions of
the `@proves` tests; without one, a scenario holds when its facts are those of the original game
(the scenario saw no change: a verdict that kills at least what the assertions kill).

A sweep's record (`SweepResult.as_json`, kept in output/mutation/<variant>.json) carries the
`fingerprint` of what it depends on, so a stale record is told from a current one without a run,
and counts the mutants each operator made, and what became of them.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from generator.engine import sweep_games, sweep_play
from generator.engine.equivalent import equivalent
from generator.engine.harness import Engine, find_engine
from generator.engine.javac import scenario_sources
from generator.engine.mutation import MAX_MUTANTS_PER_ENTRY, Mutant, Mutator, mutants_of, render_mutant
from generator.engine.operators import OPERATORS
from generator.engine.proof import check_facts
from generator.engine.sweep_games import Game
from generator.engine.sweep_play import Verdict
from generator.spec.claims import TreePath
from generator.spec.ledger import DumpFacts, LedgerEntry

__all__ = ["EntryResult", "SweepResult", "Verdict", "fingerprint", "sweep"]

JsonDict = dict[str, Any]
# What the sweep's code is: a change to any of them makes every record stale.
_SWEEP_CODE = ("mutation.py", "operators.py", "sweep.py", "sweep_games.py", "sweep_play.py")


@dataclass
class EntryResult:
    """What the mutants of one entry did to the proofs of the rules their edits serve."""

    rule_id: str
    mutants: list[str] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)
    stillborn: list[str] = field(default_factory=list)  # mutants that do not build: no game to test
    # Mutants the engine reads exactly as the original game (a value dropped that is the default):
    # no proof can tell them apart, nor any player.
    same_game: list[str] = field(default_factory=list)
    # Mutant -> the other rules its edited option serves (a survivor is theirs too).
    shared: dict[str, list[str]] = field(default_factory=dict)
    operator: dict[str, str] = field(default_factory=dict)  # mutant -> the operator that made it
    # Mutant -> where its edit is (element path, option): an equivalence's premise is read there.
    where: dict[str, tuple[TreePath, str]] = field(default_factory=dict)
    # Survivor -> why no game can tell it from the original (generator/engine/equivalent.py).
    why: dict[str, str] = field(default_factory=dict)

    @property
    def survivors(self) -> list[str]:
        """Mutants no proof of the rules they touch fails on."""
        return [m for m in self.mutants if m not in self.killed and m not in self.same_game]

    def explain(self, tree: Any) -> None:
        """Say which survivors an equivalence explains, its premises read on TREE."""
        for m in self.survivors:
            path, key = self.where.get(m, ((), ""))
            reason = equivalent(m, (tree, path, key))
            if reason is not None:
                self.why[m] = reason

    def as_json(self) -> JsonDict:
        """The numbers a sweep records; survivors an equivalence explains (generator/engine/equivalent.py)
        are listed apart."""
        return {
            "mutants": len(self.mutants),
            "killed": len(self.killed),
            "survivors": [self._named(m) for m in self.survivors if m not in self.why],
            "equivalent": [self._named(m) for m in self.survivors if m in self.why],
            "stillborn": len(self.stillborn),
            "same_game": len(self.same_game),
            "operators": {op: n for op in OPERATORS if (n := sum(self.operator.get(m) == op for m in self.mutants))},
        }

    def _named(self, edit: str) -> str:
        others = self.shared.get(edit)
        return f"{edit} (also {', '.join(others)})" if others else edit


@dataclass
class SweepResult:
    variant: str
    fingerprint: str
    entries: list[EntryResult]
    seconds: float = 0.0
    # Work done: distinct mutants built, stillborn, dumped, and scenario runs played.
    counts: dict[str, int] = field(default_factory=dict)

    def by_operator(self) -> dict[str, dict[str, int]]:
        """Per operator, the distinct mutants it made and what became of them."""
        fate: dict[str, tuple[str, str]] = {}  # edit -> (operator, its fate)
        for r in self.entries:
            for m in r.mutants:
                if m in r.killed:
                    what = "killed"
                elif m in r.same_game or m in r.why:
                    what = "equivalent"
                else:
                    what = "survivors"
                fate[m] = (r.operator.get(m, ""), what)
            for m in r.stillborn:
                fate.setdefault(m, (r.operator.get(m, ""), "stillborn"))
        table: dict[str, dict[str, int]] = {}
        for op in OPERATORS:
            fates = [what for o, what in fate.values() if o == op]
            if fates:
                built = sum(what != "stillborn" for what in fates)
                kinds = ("killed", "equivalent", "survivors", "stillborn")
                table[op] = {"mutants": built, **{k: fates.count(k) for k in kinds}}
        return table

    def as_json(self) -> JsonDict:
        """The record output/mutation/<variant>.json holds: per entry, and per operator (each distinct
        mutant once), with the sweep's time."""
        return {
            "variant": self.variant,
            "fingerprint": self.fingerprint,
            "seconds": self.seconds,
            "operators": self.by_operator(),
            "entries": {r.rule_id: r.as_json() for r in sorted(self.entries, key=lambda r: r.rule_id)},
        }


def fingerprint(tree: Any) -> str:
    """What a sweep's result depends on: the expanded spec (its elements, claims and ledger with its
    proofs), the mutation rules and the engine scenarios (the driver, the proof API and every proofs
    folder's Java). A recorded result with another fingerprint is stale."""
    digest = hashlib.sha256(json.dumps(tree, sort_keys=True, default=str).encode("utf-8"))
    engine = resources.files("generator.engine")
    for name in _SWEEP_CODE:
        digest.update((engine / name).read_bytes())
    digest.update((resources.files("generator.spec") / "claims.py").read_bytes())
    for _, text in scenario_sources():  # the driver, its proof API and the proofs (rules/*/proofs/)
        digest.update(text.encode("utf-8"))
    return digest.hexdigest()[:16]


def sweep(
    variant: str,
    entries: dict[str, LedgerEntry],
    tree: Any,
    verdict: Verdict | None = None,
    *,
    parent: Any = None,
    map_files: Path | None = None,
    engine: Engine | None = None,
    limit: int = MAX_MUTANTS_PER_ENTRY,
    progress: Callable[[str], None] | None = None,
) -> SweepResult:
    """Mutate each entry's rule and run the proofs of the rules each edit serves on the mutant."""
    started = time.monotonic()
    # What the record depends on, and the scenarios played, as they are when the sweep starts: an
    # edit of a scenario while a long sweep runs changes neither.
    recorded = fingerprint(tree)
    engine = _pinned(engine or find_engine())
    tell = progress or (lambda _: None)

    def say(line: str) -> None:
        tell(f"{line} ({time.monotonic() - started:.0f} s)")

    results = {rule_id: EntryResult(rule_id) for rule_id in entries}
    counts = dict.fromkeys(("built", "stillborn", "dumped", "scenario runs"), 0)
    with tempfile.TemporaryDirectory(prefix="forge-mutants-") as folder:
        original = Path(folder) / "original.xml"
        unmutated = render_mutant(variant, Mutant("", "", tree))
        if unmutated is None:
            raise ValueError(f"{variant}: the game itself does not build")
        original.write_bytes(unmutated)
        games = _build(variant, entries, tree, results, Path(folder), parent, limit, counts)
        say(f"{variant}: {len(games)} mutants built, {counts['stillborn']} stillborn; dumping them")
        dumps = sweep_games.dump(engine, [original, *(g.path for g in games)])
        counts["dumped"] = len(games) + 1
        alive: list[Game] = []
        for game in games:
            dumped = dumps.get(str(game.path), {})
            if dumped == dumps.get(str(original)):
                for rule_id in game.rules:
                    results[rule_id].same_game.append(game.edit)
                continue
            facts = [f for r in game.claimants if r in entries for f in _proof_facts(entries[r])]
            game.killed = "error" in dumped or any(check_facts(f, dumped) for f in facts)
            # A mutant an equivalence explains is not played: no game can tell it from the original.
            if not game.killed and equivalent(game.edit, (tree, *game.where)) is None:
                alive.append(game)
        scenarios = {game.edit: _scenarios(game, entries) for game in alive}
        say(f"{variant}: {len(alive)} mutants left after the dumps; playing their proofs' scenarios")
        counts["scenario runs"] = sweep_play.play(alive, scenarios, dumps, original, verdict, map_files, engine)
        for game in games:
            if game.killed:
                for rule_id in game.rules:
                    results[rule_id].killed.append(game.edit)
    for result in results.values():
        result.explain(tree)
    return SweepResult(variant, recorded, list(results.values()), round(time.monotonic() - started, 1), counts)


def _pinned(engine: Engine) -> Engine:
    """ENGINE playing the scenarios compiled now, for the whole sweep (each wave of runs asks for
    the compiled harness again, which compiles the sources as they are then)."""
    classes = engine.harness_dir()
    pinned = copy.copy(engine)
    object.__setattr__(pinned, "harness_dir", lambda: classes)  # a frozen dataclass: set around it
    return pinned


def _build(
    variant: str,
    entries: dict[str, LedgerEntry],
    tree: Any,
    results: dict[str, EntryResult],
    folder: Path,
    parent: Any,
    limit: int,
    counts: dict[str, int],
) -> list[Game]:
    """Every distinct mutant of the entries' rules that builds, written to FOLDER."""
    mutator = Mutator(tree, parent)
    distinct: dict[str, Mutant] = {}
    made: list[tuple[str, Mutant]] = []
    for rule_id in entries:
        for mutant in mutants_of(tree, rule_id, limit, parent, mutator):
            distinct.setdefault(mutant.edit, mutant)
            made.append((rule_id, mutant))
    files = dict(zip(distinct, sweep_games.build(variant, tree, list(distinct.values()), folder), strict=True))
    games: dict[str, Game] = {}
    for rule_id, mutant in made:
        result, path = results[rule_id], files[mutant.edit]
        result.operator[mutant.edit] = mutant.operator
        if mutant.change is not None:
            result.where[mutant.edit] = mutant.change[:2]
        if path is None:
            result.stillborn.append(mutant.edit)
            continue
        game = games.get(mutant.edit)
        if game is None:
            where = mutant.change[:2] if mutant.change is not None else ((), "")
            game = games[mutant.edit] = Game(mutant.edit, mutant.claimants, mutant.operator, path, where)
        game.rules.append(rule_id)
        result.mutants.append(mutant.edit)
        others = [r for r in mutant.claimants if r != rule_id]
        if others:
            result.shared[mutant.edit] = others
    counts["built"], counts["stillborn"] = len(games), sum(p is None for p in files.values())
    return list(games.values())


def _proof_facts(entry: LedgerEntry) -> list[DumpFacts]:
    return entry.proof.facts if entry.proof else []


def _scenarios(game: Game, entries: dict[str, LedgerEntry]) -> list[str]:
    """The scenarios the proofs of the game's rules name, each once, in the proofs' order."""
    names: list[str] = []
    for rule_id in game.claimants:
        proof = entries[rule_id].proof if rule_id in entries else None
        names += [n for n in (proof.scenarios if proof else []) if n not in names]
    return names
