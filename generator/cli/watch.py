"""`triplea-forge watch`: rebuild and re-check on every save, the editor loop.

One process stays warm (imports, catalogs, compiled templates, the schema, every spec file it
read), follows the spec files (spec.follow), and on a change rebuilds only the variants that read
the changed folder (the folder's variant and every variant that extends it; emit.watcher). It
prints each variant's problems, or the rule changes since its last good build (the diff stage's
words), and writes the outputs of a good build as `build` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.bounds import FiniteFloat
from generator.cli.group import BOARD_OPTION, OUTPUT_OPTION, RULES_OPTION, TARGET_OPTION, _display, cli
from generator.targets import Target

if TYPE_CHECKING:
    from generator.spec.model import Spec

# How often a command that follows the files looks at them, and when it stops (watch, serve).
INTERVAL_OPTION = click.option(
    "--interval", default=0.05, show_default=True, type=FiniteFloat(0.01, 3600), help="Seconds between looks."
)
STOP_AFTER_OPTION = click.option(
    "--stop-after", "cycles", default=0, type=click.IntRange(min=0), help="Stop after N rebuilds (0: never)."
)


@cli.command()
@click.argument("variants", nargs=-1)
@INTERVAL_OPTION
@STOP_AFTER_OPTION
@TARGET_OPTION
@BOARD_OPTION
@RULES_OPTION
@OUTPUT_OPTION
def watch(
    variants: tuple[str, ...],
    interval: float,
    cycles: int,
    target: Target,
    base_map: Path | None,
    rules_dir: Path,
    output_dir: Path,
) -> None:
    """Rebuild and re-check VARIANTS (default: all) on every save; Ctrl-C stops.

    Prints each rebuilt variant's problems, or the rule changes since its last good build, and
    writes its outputs as `build` does. Only the variants that read a changed folder are rebuilt.
    """
    from generator.emit.project import refuse_spec_output
    from generator.emit.watcher import Watcher
    from generator.spec.follow import follow, snapshot
    from generator.spec.resolve import Rules

    refuse_spec_output(output_dir, rules_dir)
    rules = Rules(rules_dir, _display(rules_dir))
    watcher = Watcher(rules, output_dir, target, variants, _rule_changes, base_map)
    if variants:  # a shipped variant's files never change, and output/ holds the folder's own
        from generator.cli.targets import refuse_shipped

        refuse_shipped(variants, watcher.rules, "watch", _display(output_dir))

    last = snapshot(rules_dir)
    click.echo(f"watching {_display(rules_dir)}/ (Ctrl-C stops)")
    watcher.rebuild({v.parent.name for v in last}, click.echo)
    for line in watcher.maps.board_lines():
        click.echo(line)
    try:
        follow(rules_dir, last, interval, cycles, lambda folders: watcher.rebuild(folders, click.echo), click.echo)
    except KeyboardInterrupt:
        click.echo("stopped")


def _rule_changes(before: Spec, after: Spec) -> list[str]:
    """The diff stage's words for what changed between two builds of a variant, one line each."""
    from generator.diff.compare import compare
    from generator.diff.render import line

    return [line(change).text for change in compare(before, after)]
