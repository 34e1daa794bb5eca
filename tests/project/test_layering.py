"""The package's folders are the pipeline's stages, and a stage never imports a later one.

spec ← checks ← emit ← importer, engine ← diff, balance ← release ← cli ← docs: each sub-package may import the
shared modules at the package's top (diagnostics, paths, safe_xml, catalog) and the stages before
it, never one after it, nor a sibling of the same rank; `errors`, the root of every error, and
`targets`, the engines' names, import nothing and are below them all. Read from every module's
imports (also those inside functions), so a lazy import cannot hide a circle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT

PACKAGE = ROOT / "generator"
# The rank of each stage; a module may import its own stage and stages of a lower rank only.
RANK = {
    "errors": -1,  # generator/errors.py imports nothing: every module may derive its errors from it
    "targets": -1,  # generator/targets.py imports nothing: the engines' names, spelled once for every module
    "base": 0,
    "catalog": 0,
    "spec": 1,
    "checks": 2,
    "emit": 3,
    "importer": 4,
    "engine": 4,
    "diff": 5,
    "balance": 5,
    "release": 6,
    "cli": 7,
    "main": 8,
    "docs": 8,  # the site's generated pages read every stage, the CLI's commands included
}
STAGES = ("spec", "checks", "emit", "importer", "engine", "diff", "balance", "release", "cli", "docs")


def _stage(module: str) -> str:
    """The stage of a dotted module name inside the package ('generator.diff.render' -> 'diff')."""
    parts = module.split(".")
    if len(parts) == 1:
        return "base"
    if parts[1] == "__main__":
        return "main"
    return parts[1] if parts[1] in RANK else "base"


def _module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module of the package `path` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "generator")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "generator":
            assert node.level == 0, f"{path}: relative import"
            # `from generator.emit import cache` names a module; `from generator.x import name` a name.
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def _violations(package: Path = PACKAGE) -> list[str]:
    """Every import of a later stage (or a sibling of the same rank) in the `generator` folder `package`."""
    found = []
    for path in sorted(package.rglob("*.py")):
        importer = _module_name(path, package.parent)
        mine = _stage(importer)
        for imported in sorted(_imports(path)):
            theirs = _stage(imported)
            if theirs == mine:
                continue
            if RANK[theirs] >= RANK[mine]:
                found.append(f"{importer} ({mine}) imports {imported} ({theirs})")
    return found


def test_every_stage_is_a_sub_package_with_a_docstring() -> None:
    for stage in STAGES:
        init = PACKAGE / stage / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init} has no docstring"
        lines = [line for line in doc.splitlines() if line.strip()]
        assert 2 <= len(lines) <= 4, f"{init}: say in 2-4 lines what it does, reads and gives"


def test_no_module_imports_a_later_stage() -> None:
    assert _violations() == []


def test_the_layering_check_sees_a_violation(tmp_path: Path) -> None:
    """The check itself can fail: an emit module importing the CLI is caught (in a copy of the package's
    layout, so the source tree is never written to)."""
    copy = tmp_path / "generator"
    (copy / "emit").mkdir(parents=True)
    (copy / "emit" / "build.py").write_text("from generator.checks.variant import check_variant\n", encoding="utf-8")
    lazy = "def f() -> None:\n    from generator.cli.group import cli\n"
    (copy / "emit" / "probe.py").write_text(lazy, encoding="utf-8")
    assert _violations(copy) == ["generator.emit.probe (emit) imports generator.cli.group.cli (cli)"]


def test_starting_the_cli_loads_no_engine_release_or_diff() -> None:
    code = "import sys, generator.cli; print('\\n'.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    late = [m for m in loaded.split() if _stage(m) in ("engine", "release", "diff") and m.startswith("generator.")]
    assert late == []


def test_diff_loads_specs_without_the_build() -> None:
    """Loading and checking a spec is the checks stage's public step (checks.variant): the diff
    reads specs with it and never needs the emit stage."""
    diff = PACKAGE / "diff"
    emit = sorted(m for path in diff.rglob("*.py") for m in _imports(path) if _stage(m) == "emit")
    assert emit == []
