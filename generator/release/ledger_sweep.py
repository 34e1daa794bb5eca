"""The mutation sweep of a project's variants (`coverage --mutate`): each variant's enforced rules
mutated and its proofs run on the mutants in engine 1.9 (engine.sweep), with the variant's map
.properties files written as its package writes them (the trigger texts live there).

A stage of release because those files are the package's: engine.sweep plays, this gives it
what a player's copy of the map would hold.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.engine.mutation import expanded_tree, parent_tree
from generator.engine.sweep import SweepResult, sweep
from generator.release.package.properties import encode, format_entry
from generator.spec.model import Spec
from generator.spec.option_values import xml_value
from generator.spec.resolve import Rules


@dataclass
class Swept:
    """One variant's sweep: its result, or None for a variant made for TripleA 2.x (engine 1.9
    plays its parent's game, which is swept as the parent)."""

    name: str
    rules: int  # the entries of its rule ledger
    result: SweepResult | None


def sweep_variants(rules: Rules, specs: dict[str, Spec], progress: Callable[[str], None]) -> Iterator[Swept]:
    """Each of `specs` (variant -> its checked spec, with a rule ledger) swept in turn, as it
    finishes; `progress` gets the sweep's lines while it plays. errors.ToolUnusable when the
    engine cannot be run."""
    for name, spec in specs.items():
        if spec.game.target == "2.x":
            yield Swept(name, len(spec.rule_ledger), None)
            continue
        enforced = {i: e for i, e in spec.rule_ledger.items() if e.fidelity.grade != "notes-only"}
        with tempfile.TemporaryDirectory(prefix="forge-map-files-") as folder:
            write_map_files(spec, Path(folder))
            result = sweep(
                name,
                enforced,
                expanded_tree(rules, name),
                parent=parent_tree(rules, name),
                map_files=Path(folder),
                progress=progress,
            )
        yield Swept(name, len(spec.rule_ledger), result)


def write_map_files(spec: Spec, folder: Path) -> None:
    """The variant's map .properties files into `folder`, as its package writes them."""
    for file, entries in spec.map_files.items():
        lines = [format_entry(key, xml_value(value)) for key, value in entries.items()]
        (folder / f"{file}.properties").write_bytes(encode(lines))
