"""`triplea-forge watch`: rebuild and re-check on every save, the editor loop.

One process stays warm (imports, catalogs, compiled templates, the schema, every spec file it
read), follows the spec files (spec.follow), and on a change rebuilds only the variants that read
the changed folder (the folder's variant and every variant that extends it). It prints each
variant's problems, or the rule changes since its last good build, and writes the outputs of a
good build as `build` does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from generator.cli.bounds import FiniteFloat
from generator.cli.group import BOARD_OPTION, OUTPUT_OPTION, RULES_OPTION, TARGET_OPTION, _display, cli
from generator.diagnostics import Diagnostic, Severity
from generator.targets import Target

# How often a command that follows the files looks at them, and when it stops (watch, serve).
INTERVAL_OPTION = click.option(
    "--interval", default=0.05, show_default=True, type=FiniteFloat(0.01, 3600), help="Seconds between looks."
)
STOP_AFTER_OPTION = click.option(
    "--stop-after", "cycles", default=0, type=click.IntRange(min=0), help="Stop after N rebuilds (0: never)."
)


class Watcher:
    """The warm state between saves: the rules, each variant's last good spec and chain."""

    def __init__(
        self, rules_dir: Path, output_dir: Path, target: Target, only: tuple[str, ...], base_map: Path | None = None
    ) -> None:
        from generator.installed_map import MapLookup
        from generator.spec.resolve import Rules

        self.rules = Rules(rules_dir, _display(rules_dir))
        self.maps = MapLookup(base_map=base_map)  # each variant's board, found once as `build` finds it
        self.output_dir = output_dir
        self.target = target
        self.only = only
        self.good: dict[str, Any] = {}  # variant -> its last Spec that built
        self.chains: dict[str, list[str]] = {}  # variant -> the variants it reads

    def affected(self, folders: set[str]) -> list[str]:
        known = self.rules.variants()
        wanted = [v for v in known if not self.only or v in self.only]
        return [v for v in wanted if folders & set(self.chains.get(v, [v])) or v not in self.chains]

    def rebuild(self, folders: set[str], say: Callable[[str], None]) -> None:
        """Build the variants that read `folders`; print what each build found."""
        from generator.diff.compare import compare
        from generator.diff.render import line
        from generator.emit.build import compile_variant

        for folder in folders:
            self.rules.forget(folder)
        files: dict[str, bytes] = {}
        known = set(self.rules.variants())
        gone = sorted(v for v in self.chains.keys() | self.good.keys() if v not in known)
        for variant in gone:  # its folder was deleted (or holds no spec any more)
            self.chains.pop(variant, None)
            self.good.pop(variant, None)
            say(f"  {variant}: removed")
        for variant in self.affected(folders):
            started = time.perf_counter()
            compiled, problems = compile_variant(self.rules, variant, self.target, self.maps)
            took = time.perf_counter() - started
            errors = [p for p in problems if p.severity is Severity.ERROR]
            if compiled is not None:
                self.chains[variant] = compiled.resolved.chain
            if compiled is None or errors:
                say(f"  {variant}: {len(errors)} error{'s' if len(errors) != 1 else ''} ({took:.2f} s)")
            else:
                before = self.good.get(variant)
                changes = compare(before, compiled.spec) if before is not None else []
                self.good[variant] = compiled.spec
                files.update(compiled.files)
                words = "; ".join(line(c).text for c in changes[:8])
                more = f"; and {len(changes) - 8} more" if len(changes) > 8 else ""
                news = f": {words}{more}" if changes else (": no rule changed" if before is not None else "")
                say(f"  {variant}: built in {took:.2f} s{news}")
            for problem in sorted(set(problems), key=Diagnostic.sort_key):
                say(f"    {problem}")
        if files or gone:
            self.write(files, set(gone), say)

    def write(self, files: dict[str, bytes], gone: set[str], say: Callable[[str], None]) -> None:
        """Write a rebuild's files as `build` does: map.yml lists the variants there are, and the
        outputs of a deleted variant go (when we wrote them)."""
        from generator.diagnostics import ForgeError
        from generator.emit.build import map_yml
        from generator.emit.ownership import variant_of, write_outputs

        known = set(self.rules.variants())
        listing, _ = map_yml({name: spec.game for name, spec in self.good.items()})
        if listing is not None and set(self.good) >= known:
            files["map.yml"] = listing

        def keep(rel: str) -> bool:
            # Watching some variants, only theirs go when deleted; watching all, whatever no variant makes.
            return variant_of(rel) not in gone if self.only else variant_of(rel) in known

        try:
            _, removed = write_outputs(self.output_dir, files, keep, _display(self.output_dir))
        except ForgeError as exc:  # something in the way: said, and the watch goes on
            for problem in exc.diagnostics:
                say(f"    {problem}")
            return
        for rel in removed:
            say(f"  removed {_display(self.output_dir)}/{rel}")


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
    from generator.spec.follow import follow, snapshot

    refuse_spec_output(output_dir, rules_dir)
    watcher = Watcher(rules_dir, output_dir, target, variants, base_map)
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
