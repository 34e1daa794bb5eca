"""Play a study's games as Ray tasks on a Ray cluster whose nodes have TripleA and this tool.

Ray is an optional extra (``pip install 'triplea-forge[cluster]'``). Each task plays a few games
(GAMES_PER_TASK) in one JVM on a node with its own engine: the games' XML travels with the task
(put in the object store once per variant) and the reports come back; the records are those of
a local run.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from generator.balance.lab import Game, Settings, failed_record
from generator.balance.records import Record, from_report
from generator.errors import ToolUnusable


class ClusterError(ToolUnusable):
    """Ray is missing, or the cluster cannot be reached."""


# Games per task: a task's JVM plays them one after the other, warm after the first (a 6-round
# game costs about 24 CPU s in a fresh JVM, 14 s in a warm one), while tasks stay small enough to
# spread a study over every core of the cluster and to lose little when a node goes.
GAMES_PER_TASK = 4


def play_games(
    xml: bytes, name: str, seeds: Sequence[int], settings: Settings
) -> tuple[list[dict[str, Any] | None], str]:
    """On a node: play a few games of one variant (its XML text) in one JVM; the harness's play
    reports (None for a game the JVM did not finish and every game after it) and the problem."""
    from generator.engine.harness import HarnessError, find_engine

    engine = find_engine()
    with tempfile.TemporaryDirectory(prefix="triplea-forge-ray-") as folder:
        path = Path(folder) / name
        path.write_bytes(xml)
        try:
            # One task, one CPU (num_cpus=1 below): the JVM sizes its threads for one core.
            reports: list[dict[str, Any] | None] = list(
                engine.play_games(
                    [(path, seed) for seed in seeds],
                    rounds=settings.rounds,
                    ai=settings.ai,
                    actions=settings.actions,
                    timeout=settings.timeout(),
                    processors=1,
                    reproducible=settings.reproducible,
                )
            )
            return reports, ""
        except HarnessError as exc:
            return list(exc.games), str(exc)


# A ray:// head starts a client server for each driver that connects; on a loaded head that
# start can outlast Ray's own wait ("Starting Ray client server failed"), and a second try works.
CONNECT_ATTEMPTS = 3
# What Ray says when the client server it starts for a driver did not come up in time, or died as
# it started (its proxy found the new process already a zombie on a loaded machine): passing.
_PASSING = ("client server failed", "Initialization failure from server")


def _connect(ray: Any, address: str) -> None:
    for attempt in range(1, CONNECT_ATTEMPTS + 1):
        try:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            return
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError and its own kinds
            if not any(passing in str(exc) for passing in _PASSING) or attempt == CONNECT_ATTEMPTS:
                raise ClusterError(f"cannot reach the Ray cluster at {address}: {_in_words(exc)}") from exc
            time.sleep(2.0 * attempt)


def _in_words(exc: Exception) -> str:
    """Ray's reason on one line: a failure its server reports comes with the server's traceback,
    of which the first line and the exception it ended in say what happened."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if any(line.startswith("Traceback") for line in lines):
        return f"{lines[0]} {lines[-1]}"
    return " ".join(lines)


def play_ray(
    address: str,
    games: Sequence[Game],
    settings: Settings,
    on_record: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Send the games to the Ray cluster at ``address`` ('auto' or ray://HOST:PORT), a few a task."""
    try:
        import ray
    except ImportError as exc:
        raise ClusterError("--cluster needs Ray: pip install 'triplea-forge[cluster]'") from exc
    _connect(ray, address)
    try:
        task = ray.remote(num_cpus=1, max_retries=1)(play_games)
        xml_refs = {g.variant: ray.put(g.path.read_bytes()) for g in games}
        # A task plays games of one variant: its XML goes as a top-level argument, which Ray
        # resolves from the object store on the node (references inside a list it would not).
        by_variant: dict[str, list[int]] = {}
        for index, game in enumerate(games):
            by_variant.setdefault(game.variant, []).append(index)
        batches = [
            indices[i : i + GAMES_PER_TASK]
            for indices in by_variant.values()
            for i in range(0, len(indices), GAMES_PER_TASK)
        ]
        pending = {
            task.remote(
                xml_refs[games[batch[0]].variant], games[batch[0]].path.name, [games[i].seed for i in batch], settings
            ): batch
            for batch in batches
        }
        done: dict[int, Record] = {}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            batch = pending.pop(ready[0])
            try:
                reports, problem = ray.get(ready[0])
            except Exception as exc:  # the task's own failure (engine missing on the node, node lost)
                reports, problem = [], f"Ray task failed: {exc}".splitlines()[0]
            for position, index in enumerate(batch):
                game = games[index]
                report = reports[position] if position < len(reports) else None
                if report is not None:
                    record = from_report(game.variant, game.seed, settings.actions, report)
                else:
                    record = failed_record(game, settings, problem or "no report")
                done[index] = record
                if on_record is not None:
                    on_record(record)
        return [done[i] for i in range(len(games))]
    finally:
        ray.shutdown()
