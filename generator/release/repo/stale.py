"""What `build --check` says of a mod repository's output folder that is not what a build makes:
files never committed or missing (git knows which), files stale and why (the spec files saved
since, and the rule changes the specs make now), files no variant makes any more.
"""

from __future__ import annotations

from pathlib import Path

from generator.diff.sides import describe
from generator.emit.ownership import variant_of
from generator.emit.project import ProjectBuild, Staleness
from generator.release.repo.mod_repo import tracked
from generator.spec.resolve import Rules, resolve


def stale_lines(build: ProjectBuild, found: Staleness) -> list[str]:
    """One line for each file of `found` (emit.project.check_project), in the order a reader fixes them."""
    out = build.out
    lines = _absent_lines(build.output_dir, out, found.absent, len(found.absent) == len(build.files))
    for rel in found.changed:
        lines.append(f"stale: {out}/{rel}{_why_stale(build.rules, build.output_dir, rel, build.files[rel])}")
    lines += [f"stale: {out}/{rel} (no variant makes it; a build removes it)" for rel in found.leftovers]
    return lines


def _absent_lines(output_dir: Path, out: str, absent: list[str], every: bool) -> list[str]:
    """What is said of the files a build would make that are not there: never committed (a clone
    of a repository whose output/ was not committed, as its CI has), or missing (deleted since, or
    no git here). Not stale: there is nothing older to be stale."""
    held = tracked([output_dir / rel for rel in absent])
    never = [rel for rel in absent if held is not None and output_dir / rel not in held]
    lines = []
    if every and never == absent and absent:  # the whole output: one thing to do
        return [f"not committed: {out}/ (run `triplea-forge build`, then commit {out}/ with the specs)"]
    for rel in absent:
        name = variant_of(rel)
        build = f"triplea-forge build{f' {name}' if rel != 'map.yml' else ''}"
        if rel in never:
            lines.append(f"not committed: {out}/{rel} (run `{build}`, then commit it)")
        else:
            since = ": deleted since the last commit" if held is not None else ""
            lines.append(f"missing: {out}/{rel} (run `{build}`{since})")
    return lines


def _why_stale(rules: Rules, output_dir: Path, rel: str, made: bytes) -> str:
    """Why a built file is stale: the spec files saved since, and what the specs say differently now."""
    variant = Path(rel).name.removesuffix(".notes.html").removesuffix(".xml")
    path = output_dir / rel
    if variant not in rules.variants() or not path.is_file():
        return " (run `triplea-forge build`)"
    built = path.stat().st_mtime
    resolved = resolve(rules, variant)[0]
    files = (
        {shown: rules.root / Path(shown).parent.name / Path(shown).name for shown in resolved.files} if resolved else {}
    )
    saved = [shown for shown, spec in files.items() if spec.is_file() and spec.stat().st_mtime > built]
    reasons = [f"{', '.join(saved)} saved since"] if saved else []
    if rel.endswith(".xml"):
        changes = describe(path.read_bytes(), made)
        shown = "; ".join(changes[:3]) + (f"; and {len(changes) - 3} more" if len(changes) > 3 else "")
        reasons += [f"the specs now say: {shown}"] if changes else []
    why = "; ".join(reasons) or f"rules/{variant}/ makes something else now"
    return f" ({why}; run `triplea-forge build {variant}`)"
