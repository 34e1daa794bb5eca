"""The package's folders are the pipeline's stages, and a stage never imports a later one.

spec ← checks ← emit ← importer, engine ← diff, balance ← release ← cli: each sub-package may import the
shared modules at the package's top (diagnostics, paths, safe_xml, catalog) and the stages before
it, never one after it, nor a sibling of the same rank. Read from every module's imports (also
those inside functions), so a lazy import cannot hide a circle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "generator"
# The rank of each stage; a module may import its own stage and stages of a lower rank only.
RANK = {
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
}
STAGES = ("spec", "checks", "emit", "importer", "engine", "diff", "balance", "release", "cli")


def _stage(module: str) -> str:
    """The stage of a dotted module name inside the package ('generator.diff.render' -> 'diff')."""
    parts = module.split(".")
    if len(parts) == 1:
        return "base"
    if parts[1] == "__main__":
        return "main"
    return parts[1] if parts[1] in RANK else "base"


def _module_name(path: Path, package: Path) -> str:
    rel = path.relative_to(package.parent).with_suffix("")
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
    found = []
    for path in sorted(package.rglob("*.py")):
        importer = _module_name(path, package)
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
    """The check itself can fail: an emit module importing the CLI is caught (the probe is written
    in a temporary folder laid out as the package: the source tree is never written)."""
    package = tmp_path / "generator"
    bad = package / "emit" / "_layering_probe.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("def f() -> None:\n    from generator.cli.group import cli\n", encoding="utf-8")
    assert _violations(package) == ["generator.emit._layering_probe (emit) imports generator.cli.group.cli (cli)"]


def test_starting_the_cli_loads_no_engine_release_or_diff() -> None:
    code = "import sys, generator.cli; print('\\n'.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    late = [m for m in loaded.split() if _stage(m) in ("engine", "release", "diff") and m.startswith("generator.")]
    assert late == []
