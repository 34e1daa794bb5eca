"""The two sides of a diff, read: variants, a variant at two git revisions, or game XML files.

Each side becomes a `Spec` (through the build's loader or the importer) and is compared by
diff.compare; only errors that stop loading are shown, a diff does not judge the rules.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from generator.diagnostics import Diagnostic, ForgeError, Severity
from generator.diff.compare import Diff, DiffError, Side, compare
from generator.spec.model import Spec
from generator.spec.resolve import Rules


def _errors_only(problems: list[Diagnostic]) -> None:
    """A diff reads rules, it does not judge them: only errors (that stop loading) are shown."""
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if errors:
        raise ForgeError(errors)


def load_xml(path: Path, display: str) -> Spec:
    from generator.importer.convert import import_located
    from generator.spec.validation import validate_spec

    if not path.is_file():
        raise DiffError(f"no such file: {display}")
    # Located at the XML's lines, so a game the diff cannot read says where.
    tree, problems = import_located(path, display)
    _errors_only(problems)
    spec, found = validate_spec(tree)
    _errors_only(found)
    assert spec is not None
    return spec


def load_variant(rules: Rules, name: str) -> Spec:
    from generator.checks.variant import check_variant

    checked, problems = check_variant(rules, name)
    _errors_only(problems)
    if checked is None:  # only warnings, yet not loaded: say so rather than show nothing
        raise ForgeError(problems or [Diagnostic(f"variant '{name}' could not be loaded")])
    return checked.spec


def diff_sides(first: str, second: str, rules: Rules, display: dict[str, str] | None = None) -> Diff:
    """Two variants of `rules` or two game XML files (any mix): names ending in .xml are files."""
    display = display or {}
    specs: list[Spec] = []
    sides: list[Side] = []
    for item in (first, second):
        if item.lower().endswith(".xml"):
            shown = display.get(item, item)
            specs.append(load_xml(Path(item), shown))
            sides.append(Side(shown, "xml"))
        else:
            specs.append(load_variant(rules, item))
            sides.append(Side(item, "variant"))
    return Diff(sides[0], sides[1], compare(specs[0], specs[1]), (specs[0], specs[1]))


def diff_revisions(variant: str, rules_dir: Path, rules_display: str, old_rev: str, new_rev: str | None) -> Diff:
    """One variant at two git revisions of the rules folder; `new_rev` None is the working tree."""
    from generator.diff.revisions import GitError

    try:
        return _diff_revisions(variant, rules_dir, rules_display, old_rev, new_rev)
    except GitError as exc:
        raise DiffError(str(exc)) from exc


def _diff_revisions(variant: str, rules_dir: Path, rules_display: str, old_rev: str, new_rev: str | None) -> Diff:
    from generator.diff.revisions import export_rules, repository

    top, prefix = repository(rules_dir)
    specs: list[Spec] = []
    sides: list[Side] = []
    with tempfile.TemporaryDirectory(prefix="triplea-forge-diff-") as tmp:
        for n, rev in enumerate((old_rev, new_rev)):
            if rev is None:
                rules = Rules(rules_dir, rules_display)
                where = "in the working tree"
                label = f"{variant} (working tree)"
            else:
                folder = Path(tmp) / str(n)
                export_rules(top, prefix, rev, folder)
                rules = Rules(folder, f"{rev}:{prefix or '.'}")
                where = f"at {rev}"
                label = f"{variant}@{rev}"
            if variant not in rules.variants():
                raise DiffError(f"variant '{variant}' does not exist in {prefix or '.'}/ {where}")
            specs.append(load_variant(rules, variant))
            sides.append(Side(label, "revision" if rev is not None else "variant"))
    return Diff(sides[0], sides[1], compare(specs[0], specs[1]), (specs[0], specs[1]))


def describe(old_xml: bytes, new_xml: bytes) -> list[str]:
    """Rule changes between two builds of one game XML, one line each ("infantry: attack 1 → 2")."""
    from generator.diff.render import line

    with tempfile.TemporaryDirectory(prefix="triplea-forge-diff-") as tmp:
        old_path, new_path = Path(tmp) / "old.xml", Path(tmp) / "new.xml"
        old_path.write_bytes(old_xml)
        new_path.write_bytes(new_xml)
        try:
            changes = compare(load_xml(old_path, "old.xml"), load_xml(new_path, "new.xml"))
        except (DiffError, ForgeError):
            return []  # an output the importer cannot read: the caller says it differs, without words
    return [line(change).text for change in changes]
