"""The mutation sweep: run every enforced entry's proof on the mutants of its rule.

For each entry, generator/engine/mutation.py makes one-edit mutants of the options that claim it.
The sweep builds each distinct mutant once (an option serving several rules is mutated once for
all of them), dumps them all in one JVM (a mutant the engine reads exactly as the original game is
the same game: no proof can tell them apart), checks the claimants' dump facts, then plays every
scenario the claimants' proofs name on the mutants left, in a few JVMs side by side
(`generator.engine.scenario.run_scenarios`). A mutant is **killed** when a proof of a rule its edit
serves fails on it; a survivor is a proof that cannot tell the rule from its absence, and is
reported under every rule that claims the edited option (`ledger_options` narrows the claims).

Whether a scenario's proof holds is the caller's `Verdict`: the tests pass the very assertions of
the `@proves` tests; without one, a scenario holds when its facts are those of the original game
(the scenario saw no change: a verdict that kills at least what the assertions kill).

A sweep's record (`SweepResult.as_json`, kept in output/mutation/<variant>.json) carries the
`fingerprint` of what it depends on, so a stale record is told from a current one without a run.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from generator.engine.equivalent import equivalent
from generator.engine.harness import Engine, find_engine
from generator.engine.mutation import MAX_MUTANTS_PER_ENTRY, Mutant, mutants_of, render_mutant
from generator.engine.proof import check_facts
from generator.engine.scenario import run_scenarios
from generator.spec.ledger import DumpFacts, LedgerEntry

__all__ = ["EntryResult", "SweepResult", "Verdict", "fingerprint", "sweep"]

JsonDict = dict[str, Any]
# JVMs playing a sweep's scenario runs side by side: two per core, so a core is not left idle while
# a JVM starts or loads a game (each JVM takes up to 512 MB of heap, hence the cap).
SCENARIO_JOBS = min(8, 2 * (os.cpu_count() or 1))
# (scenario, its facts on a mutant) -> whether the proof still holds there.
Verdict = Callable[[str, JsonDict], bool]


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

    @property
    def survivors(self) -> list[str]:
        """Mutants no proof of the rules they touch fails on."""
        return [m for m in self.mutants if m not in self.killed and m not in self.same_game]

    def as_json(self) -> JsonDict:
        """The numbers a sweep records; survivors an equivalence explains (generator/engine/equivalent.py)
        are listed apart."""
        return {
            "mutants": len(self.mutants),
            "killed": len(self.killed),
            "survivors": [self._named(m) for m in self.survivors if not equivalent(m)],
            "equivalent": [self._named(m) for m in self.survivors if equivalent(m)],
            "stillborn": len(self.stillborn),
            "same_game": len(self.same_game),
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

    def as_json(self) -> JsonDict:
        """The record output/mutation/<variant>.json holds."""
        return {
            "variant": self.variant,
            "fingerprint": self.fingerprint,
            "entries": {r.rule_id: r.as_json() for r in sorted(self.entries, key=lambda r: r.rule_id)},
        }


def fingerprint(tree: Any) -> str:
    """What a sweep's result depends on: the expanded spec (its elements, claims and ledger with its
    proofs), the mutation rules and the engine scenarios. A recorded result with another
    fingerprint is stale."""
    digest = hashlib.sha256(json.dumps(tree, sort_keys=True, default=str).encode("utf-8"))
    engine = resources.files("generator.engine")
    for name in ("mutation.py", "sweep.py"):
        digest.update((engine / name).read_bytes())
    java = engine / "java"
    for entry in sorted(java.iterdir(), key=lambda e: e.name):
        if entry.name.startswith("Scenario") and entry.name.endswith(".java"):
            digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]


@dataclass
class _Game:
    """One distinct mutant game and the entries it was made for."""

    edit: str
    claimants: tuple[str, ...]
    path: Path
    results: list[EntryResult] = field(default_factory=list)
    killed: bool = False


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
    engine = engine or find_engine()
    say = progress or (lambda _: None)
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
        dumps = engine.dump([original, *(g.path for g in games)])
        counts["dumped"] = len(games) + 1
        alive: list[_Game] = []
        for game in games:
            dumped = dumps.get(str(game.path), {})
            if dumped == dumps.get(str(original)):
                for result in game.results:
                    result.same_game.append(game.edit)
                continue
            facts = [f for r in game.claimants if r in entries for f in _proof_facts(entries[r])]
            game.killed = "error" in dumped or any(check_facts(f, dumped) for f in facts)
            if not game.killed:
                alive.append(game)
        runs = _scenario_runs(alive, entries)
        say(f"{variant}: {len(alive)} mutants left after the dumps; {len(runs)} scenario runs")
        _play(runs, original, verdict, map_files, engine, counts)
        for game in games:
            if game.killed:
                for result in game.results:
                    result.killed.append(game.edit)
    return SweepResult(variant, fingerprint(tree), list(results.values()), round(time.monotonic() - started, 1), counts)


def _build(
    variant: str,
    entries: dict[str, LedgerEntry],
    tree: Any,
    results: dict[str, EntryResult],
    folder: Path,
    parent: Any,
    limit: int,
    counts: dict[str, int],
) -> list[_Game]:
    """Every distinct mutant of the entries' rules that builds, written to FOLDER."""
    games: dict[str, _Game] = {}
    stillborn: set[str] = set()
    for rule_id in entries:
        result = results[rule_id]
        for mutant in mutants_of(tree, rule_id, limit, parent):
            if mutant.edit in stillborn:
                result.stillborn.append(mutant.edit)
                continue
            game = games.get(mutant.edit)
            if game is None:
                xml = render_mutant(variant, mutant)
                if xml is None:
                    stillborn.add(mutant.edit)
                    result.stillborn.append(mutant.edit)
                    continue
                path = folder / f"mutant-{len(games)}.xml"
                path.write_bytes(xml)
                game = games[mutant.edit] = _Game(mutant.edit, mutant.claimants, path)
            game.results.append(result)
            result.mutants.append(mutant.edit)
            others = [r for r in mutant.claimants if r != rule_id]
            if others:
                result.shared[mutant.edit] = others
    counts["built"], counts["stillborn"] = len(games), len(stillborn)
    return list(games.values())


def _proof_facts(entry: LedgerEntry) -> list[DumpFacts]:
    return entry.proof.facts if entry.proof else []


def _scenario_runs(alive: Sequence[_Game], entries: dict[str, LedgerEntry]) -> list[tuple[str, _Game]]:
    """(scenario, mutant) for each scenario a proof of the mutant's rules names."""
    runs = []
    for game in alive:
        names: list[str] = []
        for rule_id in game.claimants:
            proof = entries[rule_id].proof if rule_id in entries else None
            names += [n for n in (proof.scenarios if proof else []) if n not in names]
        runs += [(name, game) for name in names]
    return runs


def _play(
    runs: list[tuple[str, _Game]],
    original: Path,
    verdict: Verdict | None,
    map_files: Path | None,
    engine: Engine,
    counts: dict[str, int],
) -> None:
    """Play the runs (and each scenario once on the original game); kill by the verdict."""
    if not runs:
        return
    scenarios = sorted({name for name, _ in runs})
    played = run_scenarios(
        [*((n, original) for n in scenarios), *((n, g.path) for n, g in runs)],
        map_files=map_files,
        engine=engine,
        jobs=SCENARIO_JOBS,
    )
    counts["scenario runs"] = len(played)
    baseline = dict(zip(scenarios, played, strict=False))
    for name, facts in baseline.items():
        if "error" in facts or (verdict is not None and not verdict(name, facts)):
            raise ValueError(f"scenario '{name}' does not hold on the original game: {facts.get('error', facts)}")
    for (name, game), facts in zip(runs, played[len(scenarios) :], strict=True):
        holds = "error" not in facts and (verdict(name, facts) if verdict else facts == baseline[name])
        game.killed = game.killed or not holds
