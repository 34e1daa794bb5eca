"""Everything the docs generate, by repository path, and the writing or checking of it.

One call makes every generated page and picture in memory (`generated`); `write` replaces the
committed ones that differ and removes generated files nothing makes any more; `stale` lists what
differs, so a test and `python -m generator.docs --check` fail on a page the code has moved past.
"""

from __future__ import annotations

from pathlib import Path

from generator.docs.catalog_reference import catalog_reference
from generator.docs.cli_reference import cli_reference
from generator.docs.gates_reference import gates_reference
from generator.docs.markdown import GENERATED
from generator.docs.pictures import IMAGES, Made, make_pictures
from generator.docs.spec_reference import spec_reference
from generator.docs.variant_pages import FOLDER, variant_pages
from generator.spec.patterns.reference import reference_markdown
from generator.spec.resolve import Rules
from generator.targets import ENGINES

REFERENCE = "docs/reference"
# Folders holding generated files: a page there is ours when it opens with the GENERATED line (a
# page written by hand beside them is left alone), a file under IMAGES always is.
OWNED = (REFERENCE, FOLDER, IMAGES)
# The official Revised map, kept in the repository for the tests: the same board on every machine.
DEFAULT_BASE_MAP = Path("tests/data/world_war_ii_revised")


def generated(root: Path, base_map: Path, made: Made | None = None) -> dict[str, bytes]:
    """Every generated file of the site (repository path -> content); `made`: the variants compiled already."""
    from generator.cli import cli

    pages = {
        f"{REFERENCE}/commands.md": cli_reference(cli),
        f"{REFERENCE}/spec.md": spec_reference(),
        f"{REFERENCE}/patterns.md": f"{GENERATED}\n\n{reference_markdown()}",
        **{f"{REFERENCE}/catalog-{engine}.md": catalog_reference(engine) for engine in ENGINES},
        f"{REFERENCE}/gates.md": gates_reference(),
    }
    files = {path: text.encode("utf-8") for path, text in pages.items()}
    made = made or make_pictures(Rules(root / "rules", "rules"), base_map)
    files.update(made.files)
    files.update(variant_pages(made, root / "output" / "mutation"))
    return dict(sorted(files.items()))


def _ours(root: Path, path: Path) -> bool:
    if path.is_relative_to(root / IMAGES):
        return True
    with path.open("rb") as opened:
        return opened.read(len(GENERATED)) == GENERATED.encode("utf-8")


def _present(root: Path) -> set[str]:
    """The generated files on disk (those a run made before, wanted now or not)."""
    return {
        path.relative_to(root).as_posix()
        for folder in OWNED
        for path in (root / folder).rglob("*")
        if path.is_file() and _ours(root, path)
    }


def stale(root: Path, files: dict[str, bytes]) -> list[str]:
    """Generated files that differ from what is committed, are missing, or are made by nothing any more."""
    found = [path for path, data in files.items() if not (root / path).is_file() or (root / path).read_bytes() != data]
    found += sorted(_present(root) - set(files))
    return found


def write(root: Path, files: dict[str, bytes]) -> list[str]:
    """Write what differs, remove what nothing makes; returns what changed."""
    changed = stale(root, files)
    for path in changed:
        target = root / path
        if path in files:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[path])
        else:
            target.unlink()
    return changed
