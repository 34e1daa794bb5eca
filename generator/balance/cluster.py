"""Play a study's games as Ray tasks on a Ray cluster whose nodes have TripleA and this tool.

Ray is an optional extra (``pip install 'triplea-forge[cluster]'``). Each game is one task: the
game's XML travels with it (put in the object store once per variant), the node plays it with its
own engine in a JVM of its own, and the record comes back; the records are those of a local run.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from generator.balance.lab import Game, Settings, failed_record
from generator.balance.records import Record, from_report


class ClusterError(Exception):
    """Ray is missing, or the cluster cannot be reached."""


def play_game(xml: bytes, name: str, seed: int, settings: Settings) -> dict[str, Any]:
    """On a node: play one game from its XML text; the harness's play report."""
    from generator.engine.harness import find_engine

    engine = find_engine()
    with tempfile.TemporaryDirectory(prefix="triplea-forge-ray-") as folder:
        path = Path(folder) / name
        path.write_bytes(xml)
        # One task, one CPU (num_cpus=1 below): the JVM sizes its threads for one core.
        [report] = engine.play_games(
            [(path, seed)],
            rounds=settings.rounds,
            ai=settings.ai,
            actions=settings.actions,
            timeout=settings.timeout(),
            processors=1,
            reproducible=settings.reproducible,
        )
    return report


def play_ray(
    address: str,
    games: Sequence[Game],
    settings: Settings,
    on_record: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Send every game to the Ray cluster at ``address`` ('auto' or ray://HOST:PORT)."""
    try:
        import ray
    except ImportError as exc:
        raise ClusterError("--cluster needs Ray: pip install 'triplea-forge[cluster]'") from exc
    try:
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError and its own kinds
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {exc}") from exc
    try:
        task = ray.remote(num_cpus=1, max_retries=1)(play_game)
        xml_refs = {g.variant: ray.put(g.path.read_bytes()) for g in games}
        pending = {
            task.remote(xml_refs[g.variant], g.path.name, g.seed, settings): index for index, g in enumerate(games)
        }
        done: dict[int, Record] = {}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            index = pending.pop(ready[0])
            game = games[index]
            try:
                record = from_report(game.variant, game.seed, settings.actions, ray.get(ready[0]))
            except Exception as exc:  # the task's own failure (engine missing on the node, JVM died)
                record = failed_record(game, settings, f"Ray task failed: {exc}".splitlines()[0])
            done[index] = record
            if on_record is not None:
                on_record(record)
        return [done[i] for i in range(len(games))]
    finally:
        ray.shutdown()
