"""Stage 2, resolve: combine a variant's files, follow `extends`, and merge child over parent.

Merge rules (documented in docs/concepts/variants.md):
* mappings merge key by key, recursively; the child's entry wins;
* scalars and lists are replaced whole;
* an entry whose value is `!delete` removes the inherited entry of that key;
* entries keep the parent's order; new entries come after the inherited ones (steps can be moved
  with `after:`/`before:`, see model).
Every value keeps the position of the file that set it, so later errors point at the right file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.diagnostics import Diagnostic, Mark, did_you_mean, key_path
from generator.paths import base_rules_dir, plain_name_problem, spec_files, variant_folders
from generator.spec.load import DELETE, SpecMap, load_file


@dataclass
class ResolvedSpec:
    """A variant's merged spec tree, with where each part came from."""

    name: str
    tree: SpecMap
    chain: list[str]  # the variant first, then its ancestors
    files: list[str] = field(default_factory=list)
    # What a child replaced of its ancestors' tree, by key path: when the child's value is wrong,
    # the checks go on with what it would have inherited (spec.salvage), so one mistake in a mod
    # is one error at its line, not one at every inherited line that used the value it replaced.
    replaced: dict[tuple[str, ...], Any] = field(default_factory=dict)


def shown_path(path: Path) -> str:
    """A folder as messages name it: relative to the working folder when inside it, else absolute
    (a file named in a message must be one the user can open)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path.resolve())


class Rules:
    """The rules/ folder: finds variants and loads each once.

    A parent named by `extends` that the folder does not hold is looked for among the variants
    triplea-forge ships (`lhtr`, `revised`...; `paths.base_rules_dir`), so a mod repository of
    its own extends them without copying them; only the folder's own variants are built.
    """

    def __init__(
        self,
        root: Path,
        display_root: str = "rules",
        staged: dict[str, Path] | None = None,
        bases: Path | None = None,
    ) -> None:
        self.root = root
        self.display_root = display_root
        shipped = bases if bases is not None else base_rules_dir()
        same = shipped.is_dir() and root.is_dir() and shipped.resolve() == root.resolve()
        self.bases: Path | None = None if same or not shipped.is_dir() else shipped
        # Files of the shipped variants are named by where they are on disk.
        self.bases_display = shown_path(self.bases) if self.bases is not None else ""
        # Variants read from another folder under their final name (an import being verified).
        self.staged = dict(staged or {})
        self._raw: dict[str, tuple[SpecMap | None, list[str], list[Diagnostic]]] = {}
        # SHA-256 of each spec file as it was read, for the build cache (see emit.cache).
        self.digests: dict[Path, str] = {}
        # SHA-256 of every other file the checks read (the pictures `image:` names), by its path.
        self.other_reads: dict[Path, str] = {}
        # Each file as last read, by its (modification time, size): a variant read again after
        # one of its files changed (`forget`, the watch loop) parses only that file again.
        self._files: dict[Path, tuple[tuple[int, int], Any, list[Diagnostic]]] = {}

    def variants(self) -> list[str]:
        """The folder's own variants (what `build` builds)."""
        return sorted(set(self.staged) | {p.name for p in variant_folders(self.root)})

    def base_variants(self) -> list[str]:
        """The shipped variants a parent may be, which the folder does not hold itself."""
        own = set(self.variants())
        return [p.name for p in variant_folders(self.bases) if p.name not in own] if self.bases else []

    def exists(self, name: str) -> bool:
        """Whether `name` is in variants() or base_variants(), looking only at its own folder
        (listing every variant's files for each name made a folder of many variants slow)."""
        return name in self.staged or _holds(self.root, name) or (self.bases is not None and _holds(self.bases, name))

    def known(self) -> list[str]:
        """Every name `exists` accepts, for messages that suggest one."""
        return [*self.variants(), *self.base_variants()]

    def forget(self, name: str) -> None:
        """Read the variant's files again next time (they changed on disk)."""
        self._raw.pop(name, None)

    def raw(self, name: str) -> tuple[SpecMap | None, list[str], list[Diagnostic]]:
        """The variant's own files combined into one tree (no inheritance yet)."""
        if name not in self._raw:
            self._raw[name] = self._load_variant(name)
        return self._raw[name]

    def _load_file(self, path: Path, display: str) -> tuple[Any, list[Diagnostic]]:
        stamp = _stamp(path)
        known = self._files.get(path)
        if stamp is not None and known is not None and known[0] == stamp:
            return known[1], known[2]
        tree, found = load_file(path, display, self.digests)
        if stamp is not None:
            self._files[path] = (stamp, tree, found)
        return tree, found

    def folder(self, name: str) -> tuple[Path, str]:
        """Where a variant's files are, and the root its files are shown under in messages."""
        folder = self.staged.get(name, self.root / name)
        if name not in self.staged and not folder.is_dir() and self.bases is not None:
            return self.bases / name, self.bases_display
        return folder, self.display_root

    def declared_parent(self, name: str) -> str | None:
        """The `extends` written in the variant's game.yaml, read cheaply (the file is kept for the
        resolve that follows): a hint for grouping variants, not the resolved chain."""
        folder, display_root = self.folder(name)
        path = folder / "game.yaml"
        if not path.is_file():
            return None
        tree, _ = self._load_file(path, f"{display_root}/{name}/{path.name}")
        parent = tree.get("extends") if isinstance(tree, dict) else None
        return parent if isinstance(parent, str) else None

    def _load_variant(self, name: str) -> tuple[SpecMap | None, list[str], list[Diagnostic]]:
        folder, display_root = self.folder(name)
        combined = SpecMap()
        problems: list[Diagnostic] = []
        files: list[str] = []
        unreadable = False
        for path in spec_files(folder):
            display = f"{display_root}/{name}/{path.name}"
            files.append(display)
            tree, found = self._load_file(path, display)
            problems.extend(found)
            if tree is None:
                unreadable = True  # without this file the variant would be misread
                continue
            if not isinstance(tree, SpecMap):
                problems.append(Diagnostic("a spec file must be a mapping of keys", Mark(display, 1, 1)))
                unreadable = True
                continue
            if combined.mark is None:
                combined.mark = Mark(display, 1, 1)  # where a missing top-level key is reported
            for key, value in tree.items():
                if key in combined:
                    first = combined.key_marks[key]
                    problems.append(
                        Diagnostic(
                            f"'{key}' is already defined in {first.file}:{first.line}; "
                            "a key may appear in one file of a variant only",
                            tree.key_marks[key],
                            key_path([key]),
                        )
                    )
                    continue
                combined[key] = value
                combined.key_marks[key] = tree.key_marks[key]
                combined.value_marks[key] = tree.value_marks[key]
        return (None if unreadable else combined), files, problems


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _holds(rules_dir: Path, name: str) -> bool:
    """Whether paths.variant_folders(rules_dir) lists a folder named `name`."""
    try:
        # Listed as variant_folders lists them: a path such as '../x' or a name the file system
        # matches without regard to case is not one of its entries.
        if name.startswith(".") or name not in os.listdir(rules_dir):
            return False
    except (OSError, ValueError):
        return False
    folder = rules_dir / name
    return folder.is_dir() and bool(spec_files(folder))


def resolve(rules: Rules, name: str) -> tuple[ResolvedSpec | None, list[Diagnostic]]:
    """Resolve `name` and its ancestors into one tree; returns all problems found on the way."""
    problems: list[Diagnostic] = []
    if not rules.exists(name):
        known = rules.known()
        problems.append(Diagnostic(f"no variant named '{name}' in {rules.display_root}/{did_you_mean(name, known)}"))
        return None, problems
    bad_name = plain_name_problem(name, "variant name")
    if bad_name:  # it becomes a file name and is written into map.yml and the XML
        first = rules.raw(name)[1][:1]
        problems.append(Diagnostic(f"{bad_name}; rename the folder", Mark(first[0], 1, 1) if first else None))
        return None, problems
    chain: list[str] = []
    trees: list[SpecMap] = []
    files: list[str] = []
    current: str | None = name
    via: tuple[Mark | None, str] = (None, "")
    while current is not None:
        if current in chain:
            cycle = " -> ".join([*chain, current])
            problems.append(Diagnostic(f"extends cycle: {cycle}", via[0], "extends"))
            return None, problems
        if not rules.exists(current):
            problems.append(
                Diagnostic(
                    f"extends '{current}': no variant of that name in {rules.display_root}/"
                    f"{' or among the variants triplea-forge ships' if rules.bases else ''}"
                    f"{did_you_mean(current, rules.known())}",
                    via[0],
                    "extends",
                )
            )
            return None, problems
        tree, variant_files, found = rules.raw(current)
        problems.extend(found)
        if tree is None:
            return None, problems
        chain.append(current)
        trees.append(tree)
        files.extend(variant_files)
        parent = tree.get("extends")
        if parent is not None and not isinstance(parent, str):
            problems.append(Diagnostic("extends must be a variant name", tree.value_marks["extends"], "extends"))
            return None, problems
        via = (tree.value_marks.get("extends"), current)
        current = parent
    merged = trees[-1]
    replaced: dict[tuple[str, ...], Any] = {}
    for child in reversed(trees[:-1]):
        merged = merge(merged, child, (), problems, replaced)
    _reject_leftover_deletes(merged, (), problems)
    return ResolvedSpec(name, merged, chain, files, replaced), problems


def merge(
    parent: SpecMap,
    child: SpecMap,
    path: tuple[str, ...],
    problems: list[Diagnostic],
    replaced: dict[tuple[str, ...], Any] | None = None,
) -> SpecMap:
    """Child over parent, following the module's merge rules; what the child replaces whole
    goes into `replaced`, by key path."""
    out = SpecMap()
    out.mark = child.mark or parent.mark
    for key, value in parent.items():
        if key in child:
            new = child[key]
            if new is DELETE:
                continue
            if isinstance(new, SpecMap) and isinstance(value, SpecMap):
                out[key] = merge(value, new, (*path, key), problems, replaced)
            else:
                out[key] = new
                if replaced is not None:
                    replaced[(*path, key)] = value
            out.key_marks[key] = child.key_marks[key]
            out.value_marks[key] = child.value_marks[key]
        else:
            out[key] = value
            out.key_marks[key] = parent.key_marks[key]
            out.value_marks[key] = parent.value_marks[key]
    for key, new in child.items():
        if key in parent:
            continue
        if new is DELETE:
            problems.append(
                Diagnostic(
                    f"!delete of '{key}', which is not inherited{did_you_mean(key, parent.keys())}",
                    child.key_marks[key],
                    key_path((*path, key)),
                )
            )
            continue
        out[key] = new
        out.key_marks[key] = child.key_marks[key]
        out.value_marks[key] = child.value_marks[key]
    return out


def _reject_leftover_deletes(tree: Any, path: tuple[str, ...], problems: list[Diagnostic]) -> None:
    """A `!delete` that merged into nothing (no parent, or a new subtree) is a mistake."""
    if not isinstance(tree, SpecMap):
        return
    for key, value in list(tree.items()):
        if value is DELETE:
            problems.append(
                Diagnostic("!delete of an entry that is not inherited", tree.key_marks[key], key_path((*path, key)))
            )
            del tree[key]  # reported once; the rest of the spec is read without it
        else:
            _reject_leftover_deletes(value, (*path, key), problems)


def extends_cycle(rules: Rules, name: str, base: str) -> list[str] | None:
    """The chain `name -> base -> ... -> name` when a new variant `name` extending `base` would
    extend itself (its name hides a shipped variant on the way, or an ancestor extends `name`)."""
    chain = [name]
    current: object = base
    while isinstance(current, str) and current not in chain[1:]:
        chain.append(current)
        if current == name:
            return chain
        if not rules.exists(current):
            return None
        tree = rules.raw(current)[0]
        current = tree.get("extends") if tree is not None else None
    return None  # the chain ends, or loops without `name` (its own problem, which resolve reports)
