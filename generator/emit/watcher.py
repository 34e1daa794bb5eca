"""The warm state of `watch` between saves: the rules as read, each variant's last good spec and
the variants it reads; a save's folders rebuilt (only the variants that read them), each said
with its problems or the rule changes since its last good build, and written as `build` writes.

What the rule changes are is the diff stage's to say: the CLI hands it in (`Describe`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from generator.diagnostics import Diagnostic, ForgeError, Severity
from generator.emit.build import compile_variant, map_yml
from generator.emit.ownership import variant_of, write_outputs
from generator.installed_map import MapLookup
from generator.paths import display_path
from generator.spec.model import Spec
from generator.spec.resolve import Rules
from generator.targets import Target

# The rule changes from a variant's last good spec to its new one, one line each.
Describe = Callable[[Spec, Spec], list[str]]


class Watcher:
    """The warm state between saves: the rules, each variant's last good spec and chain."""

    def __init__(
        self,
        rules: Rules,
        output_dir: Path,
        target: Target,
        only: tuple[str, ...],
        describe: Describe,
        base_map: Path | None = None,
    ) -> None:
        self.rules = rules
        self.maps = MapLookup(base_map=base_map)  # each variant's board, found once as `build` finds it
        self.output_dir = output_dir
        self.target = target
        self.only = only
        self.describe = describe
        self.good: dict[str, Spec] = {}  # variant -> its last Spec that built
        self.chains: dict[str, list[str]] = {}  # variant -> the variants it reads

    def affected(self, folders: set[str]) -> list[str]:
        known = self.rules.variants()
        wanted = [v for v in known if not self.only or v in self.only]
        return [v for v in wanted if folders & set(self.chains.get(v, [v])) or v not in self.chains]

    def rebuild(self, folders: set[str], say: Callable[[str], None]) -> None:
        """Build the variants that read `folders`; say what each build found."""
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
                changes = self.describe(before, compiled.spec) if before is not None else []
                self.good[variant] = compiled.spec
                files.update(compiled.files)
                words = "; ".join(changes[:8])
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
        known = set(self.rules.variants())
        listing, _ = map_yml({name: spec.game for name, spec in self.good.items()})
        if listing is not None and set(self.good) >= known:
            files["map.yml"] = listing

        def keep(rel: str) -> bool:
            # Watching some variants, only theirs go when deleted; watching all, whatever no variant makes.
            return variant_of(rel) not in gone if self.only else variant_of(rel) in known

        try:
            _, removed = write_outputs(self.output_dir, files, keep, display_path(self.output_dir))
        except ForgeError as exc:  # something in the way: said, and the watch goes on
            for problem in exc.diagnostics:
                say(f"    {problem}")
            return
        for rel in removed:
            say(f"  removed {display_path(self.output_dir)}/{rel}")
