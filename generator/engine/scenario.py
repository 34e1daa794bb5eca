"""Prove rules in the real TripleA 1.9 engine: run the `forge.Scenario` driver on a built game.

Each scenario (see ``generator/engine/java/Scenario.java``) loads the game XML into fresh headless games,
sets the state up through the engine's own change objects, runs the steps and delegates where the
rule lives, and reports facts as JSON; the tests assert on them (``tests/proofs.py`` ties each test
to the ledger entries it proves). The scenarios and the variants they run on are listed in
``generator/catalog/scenarios.py`` (SCENARIOS), below the stages, where the spec checks read them too. The JVM
is started the way ``generator.engine.Engine`` starts its harness: the same compiled classes
(``Engine.harness_dir()``), headless flags, a private working folder holding the engine's version
file, and ``user.home`` inside it.

``python -m generator.engine.scenario SCENARIO [FILE]`` prints the facts (FILE defaults to
``output/games/aare.xml``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.catalog.scenarios import SCENARIOS
from generator.engine.harness import Engine, EngineError, HarnessError, find_engine

__all__ = ["DEFAULT_GAME", "SCENARIOS", "ScenarioError", "run_scenario"]

MAIN_CLASS = "forge.Scenario"
DEFAULT_GAME = Path("output/games/aare.xml")
DEFAULT_HEAP = "512m"
DEFAULT_TIMEOUT = 600.0
JsonDict = dict[str, Any]


class ScenarioError(EngineError):
    """The scenario driver failed or reported an error."""


def run_scenario(
    name: str,
    game: Path = DEFAULT_GAME,
    *,
    map_files: Path | None = None,
    engine: Engine | None = None,
    heap: str = DEFAULT_HEAP,
    timeout: float = DEFAULT_TIMEOUT,
) -> JsonDict:
    """The facts scenario NAME reports for GAME; raises ScenarioError when it fails.

    MAP_FILES is a folder with the map's .properties files (notifications, actionstext...) as the
    packaged map holds them: TripleA 1.9 reads trigger messages from there, and a victory trigger
    without its message does not end the game.
    """
    if name not in SCENARIOS:
        raise ScenarioError(f"unknown scenario '{name}' (known: {', '.join(SCENARIOS)})")
    engine = engine or find_engine()
    try:
        proc = engine.run(
            [name, str(Path(game).resolve()), *([str(Path(map_files).resolve())] if map_files else [])],
            heap=heap,
            timeout=timeout,
            jvm_options=["-XX:+UseSerialGC"],
            main_class=MAIN_CLASS,
        )
    except HarnessError as exc:
        raise ScenarioError(f"scenario '{name}': {exc}") from exc
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise HarnessError(f"scenario '{name}' printed no result (exit {proc.returncode}):\n{_tail(proc.stderr)}")
    try:
        record = json.loads(lines[-1])
    except json.JSONDecodeError as exc:
        raise HarnessError(f"unreadable result of scenario '{name}': {exc}") from exc
    facts = record.get("facts") if isinstance(record, dict) else None
    if not isinstance(facts, dict):
        raise HarnessError(f"scenario '{name}' result has no facts")
    if proc.returncode != 0 or "error" in facts:
        raise ScenarioError(f"scenario '{name}' failed: {facts.get('error')}\n{_tail(proc.stderr)}")
    return facts


def _tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.splitlines()[-lines:])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.engine.scenario", description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=sorted(SCENARIOS), help="which rule to prove")
    parser.add_argument("game", nargs="?", type=Path, default=DEFAULT_GAME, help="game XML (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        facts = run_scenario(args.scenario, args.game)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    json.dump(facts, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
