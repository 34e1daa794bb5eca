"""Write an imported spec tree into rules/<name>/, as a full variant or as a child of another."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from generator.catalog.checks import rule_checks, shortcuts
from generator.checks.references import check_spec
from generator.diagnostics import Diagnostic, Severity
from generator.emit.view import AttachmentView, GameView, build_view
from generator.importer.convert import FILE_LAYOUT, Tree
from generator.importer.step_order import step_moves
from generator.paths import file_kind, output_folder_problem, plain_name_problem
from generator.spec.dump import dump_yaml
from generator.spec.expand import expand_templates
from generator.spec.load import DELETE, SpecList, SpecMap
from generator.spec.model import play_order
from generator.spec.resolve import Rules, extends_cycle, resolve
from generator.spec.validation import validate_spec
from generator.targets import ENGINES


def plain(value: Any) -> Any:
    """A located tree as plain dicts and lists (for comparing and dumping)."""
    if isinstance(value, SpecMap | dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, SpecList | list):
        return [plain(v) for v in value]
    return value


def write_variant(
    rules_dir: Path, display_root: str, name: str, tree: dict[str, Any], parent: str | None, force: bool
) -> tuple[list[str], list[Diagnostic]]:
    """Write the spec files of `name`; with `parent`, only what differs from the resolved parent."""
    bad_name = plain_name_problem(name, "variant name")
    if bad_name:
        return [], [Diagnostic(bad_name)]
    target = rules_dir / name
    shown = f"{display_root}/{name}"
    if target.is_symlink():  # --force would replace the link, or delete what it leads to: neither is asked
        return [], [Diagnostic(f"{shown} is a symbolic link; remove it or import under another --name")]
    if target.exists() and not target.is_dir():
        kind = file_kind(target.stat().st_mode)
        return [], [Diagnostic(f"{shown} is {kind}, not a variant folder; remove it or import under another --name")]
    if target.exists() and not force:
        return [], [Diagnostic(f"{shown} already exists (use --force to replace it)")]
    blocked = output_folder_problem(rules_dir)
    if blocked:
        return [], [Diagnostic(f"cannot write {display_root}: {blocked}")]
    content = tree
    if parent is not None:
        cycle = extends_cycle(Rules(rules_dir, display_root), name, parent)
        if cycle is not None:
            chain = " -> ".join(cycle)
            return [], [Diagnostic(f"--extends {parent}: the variant '{name}' would extend itself ({chain}); import "
                                   "it under another --name, or extend another variant")]  # fmt: skip
        resolved, problems = resolve(Rules(rules_dir, display_root), parent)
        if resolved is None or problems:
            return [], problems or [Diagnostic(f"cannot resolve parent variant '{parent}'")]
        # The parent's own `extends` is its line to its parent, not content: left in, the overlay
        # would delete it in the child (`extends: !delete`) over the child's own `extends`.
        # Nor are its steps' `after:`/`before:` moves: the child inherits them, and restates only
        # the moves that make its own order (from the order the parent plays).
        base = {key: value for key, value in plain(resolved.tree).items() if key != "extends"}
        sequence = base.get("sequence")
        inherited: dict[str, Any] = sequence if isinstance(sequence, dict) else {}
        parent_order = _play_order(inherited)
        if isinstance(base.get("sequence"), dict):
            base["sequence"] = {name: _without_moves(step) for name, step in base["sequence"].items()}
        content = {"extends": parent, **overlay(base, tree)}
        child_order = list(tree.get("sequence", {}))
        hints = order_hints(parent_order, child_order)
        for step, move in step_moves(inherited, child_order, hints).items():
            content.setdefault("sequence", {}).setdefault(step, {}).update(move)
    files = {}
    for file_name, keys in FILE_LAYOUT.items():
        part = {k: content[k] for k in keys if k in content}
        if part:
            files[file_name] = dump_yaml(part)
    try:
        rules_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=rules_dir))
    except OSError as exc:  # a read-only folder, a full disk
        return [], [Diagnostic(f"cannot write {display_root}: {exc.strerror or exc}")]
    try:
        for file_name, text in files.items():
            (staging / file_name).write_text(text, encoding="utf-8")
        problems = _verify(rules_dir, display_root, name, staging, tree)
        if problems:
            return [], problems
        _switch(staging, target)
    except OSError as exc:
        return [], [Diagnostic(f"cannot write {shown}: {exc.strerror or exc}")]
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [f"{shown}/{f}" for f in files], []


def _switch(staging: Path, target: Path) -> None:
    """Put the staged variant in place of `target`: the old folder is moved aside first, and
    deleted only once the new one is in, so a failure leaves the old variant whole."""
    if not target.exists():
        os.replace(staging, target)
        return
    aside = staging.with_name(staging.name + "-old")
    os.replace(target, aside)
    try:
        os.replace(staging, target)
    except OSError:
        os.replace(aside, target)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def _verify(rules_dir: Path, display_root: str, name: str, staging: Path, tree: dict[str, Any]) -> list[Diagnostic]:
    """The written spec must resolve to exactly what was imported (same XML view)."""
    resolved, problems = resolve(Rules(rules_dir, display_root, staged={name: staging}), name)
    if resolved is None or problems:
        return problems or [Diagnostic("the written spec does not resolve")]
    if "extends" not in tree and resolved.tree.get("extends") is None:
        # A whole variant: the YAML must read back as exactly the tree that was imported, which
        # import_checked has already checked as a spec (at the XML's lines).
        if plain(resolved.tree) == tree:
            return []
        return [Diagnostic("internal: the written spec does not reproduce the imported game; please report")]
    expanded, found = expand_templates(resolved.tree)
    if expanded is None:
        return found
    written, more = validate_spec(expanded)
    if written is None or found:
        return found + more
    # The imported game may itself be broken (dangling names...): say so before rendering it.
    problems = check_spec(written, expanded, "2.x")  # import keeps what any engine accepts
    if any(p.severity is Severity.ERROR for p in problems):
        return problems
    # A child: what it resolves to must make the same game as the import (order aside).
    wanted, found_wanted = validate_spec(expand_templates(tree)[0])
    if wanted is None:
        return found_wanted
    if canonical_view(build_view(written)) != canonical_view(build_view(wanted)):
        return [Diagnostic("internal: the written spec does not reproduce the imported game; please report")]
    return []


def canonical_view(view: GameView) -> dict[str, Any]:
    """The view with order ignored where a child spec cannot (and the engine need not) keep it.

    A border is one whichever side lists it; an inherited attachment keeps its parent's option
    order (the merge cannot reorder keys), which the engine does not mind unless an option's setter
    sets or resets another written beside it (`ordered_pairs`), where the order is kept."""
    out: dict[str, Any] = {}
    for name, value in vars(view).items():
        ordered = name == "steps"  # play order is meaning; other orders are presentation
        if name == "connections":
            value = [tuple(sorted(pair)) for pair in value]
        elif name == "attachments":
            value = [_options_unordered(a) for a in value]
        out[name] = sorted(value, key=repr) if isinstance(value, list) and not ordered else value
    return out


def _options_unordered(attachment: AttachmentView) -> AttachmentView:
    names = {option.name for option in attachment.options}
    if any(pair <= names for pair in ordered_pairs(attachment.java_class.rsplit(".", 1)[-1])):
        return attachment
    # sorted by name only: an option written several times keeps the order of its writes
    return replace(attachment, options=sorted(attachment.options, key=lambda option: option.name))


@cache
def ordered_pairs(cls: str) -> frozenset[frozenset[str]]:
    """Pairs of options of `cls` whose order the engines read: a shortcut and an option it sets
    (`isFactory` and `isConstruction`), or two a rule compares by the order written (engine-checks'
    `writtenBefore`: `isSub` resets `canNotTarget`)."""
    found: set[frozenset[str]] = set()
    for engine in ENGINES:
        for option, values in shortcuts(engine, cls).items():
            found |= {frozenset((option, other)) for sets in values.values() for other in sets if other != option}
        for check in rule_checks(engine, cls):
            cases = [check["rule"], *check["rule"].get("ignored", [])]
            for alternative in (a for case in cases for a in case["alternatives"]):
                for condition in alternative.get("all", []) + alternative.get("any", []):
                    if condition[1] == "writtenBefore":
                        found.add(frozenset((condition[0], condition[2]["option"])))
    return frozenset(found)


def overlay(parent: Tree, child: Tree) -> Tree:
    """The smallest spec that, extending `parent`, resolves to `child` (deletions as !delete)."""
    out: Tree = {}
    for key, value in child.items():
        if key not in parent:
            out[key] = value
        elif isinstance(value, dict) and isinstance(parent[key], dict):
            inner = overlay(parent[key], value)
            if inner:
                out[key] = inner
        elif value != parent[key]:
            out[key] = value
    for key in parent:
        if key not in child:
            out[key] = DELETE
    return out


def order_hints(parent_order: list[str], child_order: list[str]) -> dict[str, str]:
    """`after:` anchors that turn the inherited step order into `child_order` (see Spec.ordered_steps)."""
    order = [s for s in parent_order if s in child_order] + [s for s in child_order if s not in parent_order]
    hints: dict[str, str] = {}
    for name in list(order):
        index = child_order.index(name)
        if index == 0:
            continue
        anchor = child_order[index - 1]
        if order.index(name) != order.index(anchor) + 1:
            order.remove(name)
            order.insert(order.index(anchor) + 1, name)
            hints[name] = anchor
    return hints


def _play_order(sequence: dict[str, Any]) -> list[str]:
    """The parent's steps in the order it plays them (its own `after:`/`before:` moves applied),
    so the child restates only the moves that are its own."""
    moves = {name: step if isinstance(step, dict) else {} for name, step in sequence.items()}
    return play_order([(name, step.get("after"), step.get("before")) for name, step in moves.items()])


def _without_moves(step: Any) -> Any:
    return {k: v for k, v in step.items() if k not in ("after", "before")} if isinstance(step, dict) else step
