"""A sweep's mutant games: each distinct mutant built once, in a few processes side by side, and
all of them dumped by the engine, in a few JVMs side by side.

Building a mutant is the spec checks and the XML of a whole game (a fifth of a second for a shipped
variant); a sweep builds a thousand or more, so they are built by forked processes that share the
variant's tree: each is sent its one edit, never a tree.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.engine.harness import Engine, JsonDict
from generator.engine.mutation import Mutant, render_mutant
from generator.engine.operators import DROP

__all__ = ["Game", "build", "dump"]

# Processes building mutants: one per core (the JVMs come after, not beside them).
BUILDERS = os.cpu_count() or 1
# Fewer mutants than this are built in this process: forking costs more than it saves.
_FORK_FROM = 16


@dataclass
class Game:
    """One distinct mutant game: its edit, the rules it serves and the entries it was made for."""

    edit: str
    claimants: tuple[str, ...]
    operator: str
    path: Path
    where: tuple[Any, str] = ((), "")  # the edited element's path and option
    rules: list[str] = field(default_factory=list)  # the entries whose mutants it is
    killed: bool = False


# What a forked builder shares with the sweep: the variant's name and tree.
_SHARED: dict[str, Any] = {}


def _build_one(task: tuple[Any, str, Any, bool, str]) -> bool:
    """Build one mutant (its change sent, the tree shared) into its file; whether it builds."""
    path, key, new, drop, out = task
    mutant = Mutant("", "", _SHARED["tree"], change=(path, key, DROP if drop else new))
    xml = render_mutant(_SHARED["variant"], mutant)
    if xml is None:
        return False
    Path(out).write_bytes(xml)
    return True


def build(variant: str, tree: Any, mutants: Sequence[Mutant], folder: Path) -> list[Path | None]:
    """Each mutant's game file in FOLDER, in order (None: it does not build)."""
    tasks = []
    for index, mutant in enumerate(mutants):
        assert mutant.change is not None
        path, key, new = mutant.change
        drop = new is DROP
        tasks.append((path, key, None if drop else new, drop, str(folder / f"mutant-{index}.xml")))
    _SHARED.update(variant=variant, tree=tree)
    try:
        if BUILDERS > 1 and len(tasks) >= _FORK_FROM and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(BUILDERS) as pool:
                built = pool.map(_build_one, tasks, chunksize=4)
        else:
            built = [_build_one(task) for task in tasks]
    finally:
        _SHARED.clear()
    return [Path(task[4]) if ok else None for task, ok in zip(tasks, built, strict=True)]


def dump(engine: Engine, paths: Sequence[Path], jvms: int = BUILDERS) -> dict[str, JsonDict]:
    """The engine's dump of every file, in JVMS JVMs side by side (one reads a thousand games in minutes)."""
    if not paths:
        return {}
    parts = [list(paths[i::jvms]) for i in range(min(jvms, len(paths)))]
    with ThreadPoolExecutor(max_workers=len(parts)) as pool:
        dumped = list(pool.map(engine.dump, parts))
    return {name: facts for part in dumped for name, facts in part.items()}
