"""What every check reads: one `CheckContext`, with a `Locator` that places a key path in its file.

A check is a function `(ctx: CheckContext) -> Iterable[Diagnostic]` listed in `checks.registry`;
it reads the typed spec and says each problem at a key path (`ctx.at.problem(...)`), which the
locator turns into the file:line:col that wrote it. Which findings are said, and which an earlier
problem makes an echo, is the registry's to decide (`run_checks`), never a check's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from generator.diagnostics import Diagnostic, Mark, Severity, key_path
from generator.installed_map import MapLookup
from generator.spec.locate import locate
from generator.spec.model import Spec
from generator.spec.patterns.expansion import Use
from generator.spec.resolve import ResolvedSpec, Rules
from generator.targets import Target

Path = tuple[str | int, ...]
# A spec tree as loaded and merged (mappings with text keys, lists, scalars): a variant's is made of
# spec.load.SpecMap/SpecList, which remember where each key and value was written; an imported
# game XML's remembers its XML lines the same way. Checks read the typed `Spec`; the tree is read
# for where things were written (the Locator) and for what the model does not keep (every key).
SpecTree = Mapping[str, object]
# What the rule patterns made: the key path of each entry a use made -> the uses that made it.
Made = Mapping[Path, Sequence[Use]]


@dataclass(frozen=True)
class Locator:
    """Where a key path of the spec was written: the file that set it, at its line and column."""

    tree: SpecTree

    def mark(self, path: Sequence[str | int], *, key: bool = False) -> Mark | None:
        """The value's place (the key's, with `key`), or its deepest written ancestor's (spec.locate)."""
        return locate(self.tree, path, key=key)

    def problem(
        self, path: Sequence[str | int], message: str, severity: Severity = Severity.ERROR, *, key: bool = False
    ) -> Diagnostic:
        """`message` said of `path`, at the line that wrote it (at its key, with `key`)."""
        return Diagnostic(message, self.mark(path, key=key), key_path(path), severity)


@dataclass(frozen=True)
class CheckContext:
    """One spec as the checks see it: a variant's (with its name, rules and board) or a game XML's."""

    spec: Spec  # the typed spec; with structural errors, a repaired copy (spec.salvage)
    tree: SpecTree  # the expanded tree the spec was validated from
    target: Target = "portable"  # the engines the game must load in
    name: str | None = None  # the variant's name (None: a game XML)
    made: Made = field(default_factory=dict)  # what each rule pattern use made (Expansion.made)
    maps: MapLookup | None = None  # where its board is looked for (None: the board is not checked)
    resolved: ResolvedSpec | None = None  # the variant as resolved from its files and its ancestors'
    rules: Rules | None = None  # the rules folder it was read from

    @cached_property
    def at(self) -> Locator:
        """Places the spec's key paths in the files that wrote them."""
        return Locator(self.tree)
