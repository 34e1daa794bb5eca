"""Every output of a build, the variants compiled side by side by forked workers.

A build of every variant is Python work per variant (reading the specs, the checks, rendering)
after a fixed cost of imports. Where the system can fork, the variants are compiled by up to
`jobs` worker processes forked once the imports are done, so a cold build of many variants
takes about the imports plus its share of the work per core. Each worker returns only what the
parent needs: the files, the problems, the game's name and map (for map.yml), and what it read
(the digests of the spec files and pictures, and the maps it consulted), so the build cache's keys stay exact.
Results come back in the order asked whatever order the workers finish in: the same specs give
the same files and the same messages, one worker or many.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from generator.diagnostics import Diagnostic, Severity
from generator.emit.build import compile_variant, game_of, map_yml
from generator.installed_map import BoardUsed, MapLookup
from generator.paths import spec_files
from generator.spec.model import GameInfo
from generator.spec.resolve import Rules
from generator.targets import Target


@dataclass
class VariantResult:
    """One variant compiled: what `build` writes and says, and what the compile read."""

    name: str
    problems: list[Diagnostic]
    files: dict[str, bytes] = field(default_factory=dict)
    game: GameInfo | None = None  # None: the variant did not compile


def available_cores() -> int:
    """The cores this process may run on (a container or `taskset` may allow fewer than exist)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every system
        return os.cpu_count() or 1


def can_fork() -> bool:
    # Forking is cheap and shares the imports on Linux; elsewhere (macOS, Windows) a worker would
    # start a fresh interpreter and import everything again, which costs more than it saves.
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


# What a forked worker compiles with: set by the parent just before the fork, inherited by it.
_work: tuple[Rules, Target, MapLookup | None] | None = None


def _compile(name: str) -> VariantResult:
    assert _work is not None, "set before the workers fork"
    rules, target, maps = _work
    compiled, problems = compile_variant(rules, name, target, maps)
    if compiled is None:
        return VariantResult(name, problems)
    return VariantResult(name, problems, compiled.files, compiled.spec.game)


# A variant's compile costs about as much as reading this many bytes of spec, whatever its size:
# the checks and the rendering of a whole game (measured on this project's variants).
_PER_VARIANT_BYTES = 40_000


def _groups(rules: Rules, names: Sequence[str], workers: int) -> list[list[str]]:
    """`names` as families of variants, the costliest first: each family is one worker's task.

    A worker reads each spec folder once (the Rules' cache), so variants that extend the same
    parent are best compiled by one worker: a family is a variant's highest ancestor that no
    more than a worker's share of `names` extend (a trunk that every variant extends is read by
    each worker anyway). The worker that is free first takes the next family, so an estimate
    that is off costs only the last family's time.
    """
    chains = _chains(rules, names)
    share = -(-len(names) // workers)
    extended = Counter(a for chain in chains.values() for a in chain)
    families: dict[str, list[str]] = {}
    for name in sorted(names, key=lambda n: len(chains[n])):
        family = [a for a in chains[name] if extended[a] <= share][-1:] or [name]
        families.setdefault(family[0], []).append(name)
    cost = {head: sum(_PER_VARIANT_BYTES + _own_bytes(rules, n) for n in members) for head, members in families.items()}
    return [families[head] for head in sorted(families, key=lambda h: (-cost[h], h))]


def _chains(rules: Rules, names: Sequence[str]) -> dict[str, list[str]]:
    """Each of `names` with the ancestors it declares, itself first.

    A variant is compiled after the ancestors among `names` (its chain is longer than theirs):
    a child's problems are compared with its parent's own (checks.blame), which a parent compiled
    first has already left behind; a child compiled first has its parent checked for it, then
    checked again when the parent's turn comes (two of eleven checks of the shipped variants).
    """
    chains: dict[str, list[str]] = {}
    for name in names:
        chain: list[str] = []
        current: str | None = name
        while current is not None and current not in chain and len(chain) < 32:
            chain.append(current)
            current = rules.declared_parent(current)
        chains[name] = chain
    return chains


def _own_bytes(rules: Rules, name: str) -> int:
    folder = rules.folder(name)[0]
    return sum(p.stat().st_size for p in spec_files(folder)) if folder.is_dir() else 0


def _compile_group(
    names: list[str],
) -> tuple[list[VariantResult], dict[Path, str], dict[Path, str], list[str], dict[str, BoardUsed]]:
    """In a worker: the family's outcomes, and what the worker read doing them (its copy of the
    Rules and the map lookup are lost when it ends)."""
    outcomes = [_compile(name) for name in names]
    assert _work is not None
    rules, _, maps = _work
    consulted, boards = (maps.consulted(), maps.boards) if maps is not None else ([], {})
    return outcomes, dict(rules.digests), dict(rules.other_reads), consulted, boards


def compile_side_by_side(
    rules: Rules, names: Sequence[str], target: Target, maps: MapLookup | None, jobs: int
) -> list[VariantResult]:
    """Each of `names` compiled, in that order; by up to `jobs` forked workers (0: one per core)
    when that helps."""
    global _work
    workers = min(jobs or available_cores(), len(names))
    _work = (rules, target, maps)
    try:
        if workers <= 1 or not can_fork():
            chains = _chains(rules, names)
            alone = {name: _compile(name) for name in sorted(names, key=lambda n: len(chains[n]))}
            return [alone[name] for name in names]
        groups = _groups(rules, names, workers)
        # A family is a task: the worker that is free first takes the next largest.
        with ProcessPoolExecutor(min(workers, len(groups)), mp_context=multiprocessing.get_context("fork")) as pool:
            finished = list(pool.map(_compile_group, groups))
    finally:
        _work = None
    done: dict[str, VariantResult] = {}
    for outcomes, digests, other_reads, consulted, boards in finished:  # what the workers read, this build read
        done.update((o.name, o) for o in outcomes)
        rules.digests.update(digests)
        rules.other_reads.update(other_reads)
        if maps is not None:
            maps.note_consulted(consulted, boards)
    return [done[name] for name in names]


def build_outputs(
    rules: Rules, names: list[str], target: Target = "portable", maps: MapLookup | None = None, jobs: int = 1
) -> tuple[dict[str, bytes], list[Diagnostic]]:
    """Every output file of `names` (default: all variants) plus map.yml, and all problems found.

    map.yml lists every variant, so it is rewritten only when every variant loads.
    """
    known = rules.variants()
    problems: list[Diagnostic] = []
    files: dict[str, bytes] = {}
    games: dict[str, GameInfo] = {}
    for outcome in compile_side_by_side(rules, names or known, target, maps, jobs):
        problems += outcome.problems
        files.update(outcome.files)
        if outcome.game is not None:
            games[outcome.name] = outcome.game
    if any(p.severity is Severity.ERROR for p in problems):
        return files, problems
    for name in known:
        if name in games:
            continue
        game = game_of(rules, name)  # its `game` only: a build of one variant checks no other
        if game is None:
            warning = f"map.yml not updated: variant '{name}' has errors (run `triplea-forge build {name}`)"
            problems.append(Diagnostic(warning, severity=Severity.WARNING))
            return files, problems
        games[name] = game
    content, found = map_yml(games)
    problems += found
    if content is not None:
        files["map.yml"] = content
    return files, problems
