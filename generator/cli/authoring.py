"""`triplea-forge` commands for writing a game: build, validate, schema, import."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.group import (
    BOARD_OPTION,
    JOBS_OPTION,
    OUTPUT_OPTION,
    RULES_OPTION,
    TARGET_OPTION,
    TEXT_OUTPUT_OPTION,
    _display,
    _report,
    cli,
)
from generator.diagnostics import Diagnostic, Severity
from generator.targets import TARGETS, Target


@cli.command()
@click.argument("variants", nargs=-1)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 and list the files that are stale.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@JOBS_OPTION
@TARGET_OPTION
@BOARD_OPTION
@RULES_OPTION
@OUTPUT_OPTION
def build(
    variants: tuple[str, ...],
    check: bool,
    strict: bool,
    jobs: int,
    target: Target,
    base_map: Path | None,
    rules_dir: Path,
    output_dir: Path,
) -> None:
    """Build VARIANTS (default: every variant in rules/) into the output folder.

    Writes games/<variant>.xml, games/<variant>.notes.html and map.yml. Writes are atomic and only
    touch files whose content changed; a second build changes no byte. Where the map is known, its
    territories and unit pictures are checked too (see --base-map).
    """
    if variants:  # the output folder holds the rules folder's own variants, never a shipped one
        from generator.cli.targets import refuse_shipped
        from generator.spec.resolve import Rules

        refuse_shipped(variants, Rules(rules_dir, _display(rules_dir)), "build", _display(output_dir))
    build_variants(variants, check, strict, target, rules_dir, output_dir, base_map, jobs)


def build_variants(
    variants: tuple[str, ...],
    check: bool,
    strict: bool,
    target: Target,
    rules_dir: Path,
    output_dir: Path,
    base_map: Path | None = None,
    jobs: int = 0,
) -> None:
    """The `build` command (stage emit.project), said; also done by `check` before it plays what was built."""
    from generator.emit.project import build_project, check_project, write_project
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    built = build_project(rules, output_dir, _display(output_dir), variants, target, strict, base_map, jobs)
    for warning in built.warnings:
        click.echo(warning, err=True)
    for line in built.boards:
        click.echo(line)
    if check:
        from generator.release.repo.stale import stale_lines

        found = None if built.recalled else check_project(built)
        for line in stale_lines(built, found) if found else []:
            click.echo(line, err=True)
        if found:
            sys.exit(1)
        click.echo(f"{built.out}/ is up to date ({built.made} files)")
        return
    written, removed = ([], []) if built.recalled else write_project(built)
    for rel in written:
        click.echo(f"wrote {built.out}/{rel}")
    for rel in removed:
        click.echo(f"removed {built.out}/{rel}")
    click.echo(f"{len(written)} file{'s' if len(written) != 1 else ''} written, {built.made - len(written)} unchanged")


@cli.command()
@click.argument("targets", nargs=-1)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--target",
    type=click.Choice(TARGETS),
    default=None,
    help="Engines the game must load in (portable = both). Default: portable for variants; for a game "
    "XML, the one engine its options are meant for when only one takes them, else both.",
)
@JOBS_OPTION
@BOARD_OPTION
@RULES_OPTION
def validate(
    targets: tuple[str, ...], strict: bool, target: Target | None, jobs: int, base_map: Path | None, rules_dir: Path
) -> None:
    """Check variants (default: all in rules/) or any TripleA game XML files; write nothing.

    Reports every problem at once, each at its file:line: spec errors, unknown or badly typed
    options for the target engines, dangling references, every DTD message of the XML, and, where
    the map is known, territories the map lacks and units without a picture.
    """
    from generator.emit.outputs import compile_side_by_side
    from generator.importer.validate import validate_xml_file
    from generator.installed_map import MapLookup
    from generator.spec.resolve import Rules

    maps = MapLookup(base_map=base_map)
    rules = Rules(rules_dir, _display(rules_dir))
    problems: list[Diagnostic] = []
    items = targets or tuple(rules.variants())
    for item in items:
        if item.endswith(".xml"):
            path = Path(item)
            if not path.is_file():
                raise click.BadParameter(f"no such file: {item}", param_hint="TARGETS")
            problems += validate_xml_file(path, _display(path), target, maps)
    variants = [item for item in items if not item.endswith(".xml")]
    for outcome in compile_side_by_side(rules, variants, target or "portable", maps, jobs):
        problems += outcome.problems
    _report(problems, strict)
    for line in maps.board_lines():
        click.echo(line)
    click.echo(f"{len(items)} checked{f' for {target}' if target else ''}: no errors")


@cli.command()
@TEXT_OUTPUT_OPTION
@click.option("--force", is_flag=True, help="Replace the file even if it is not a schema.")
def schema(out: Path | None, force: bool) -> None:
    """Print the JSON Schema of spec files, for editor completion and squiggles.

    Put `# yaml-language-server: $schema=<path to the schema>` at the top of a spec file.
    """
    from generator.cli.outputs import SCHEMA, print_or_write
    from generator.spec.schema import schema_text

    print_or_write(out, schema_text(), SCHEMA, force)


@cli.command()
@click.argument("name", required=False)
@TEXT_OUTPUT_OPTION
@click.option("--force", is_flag=True, help="Replace the file even if it is not a pattern reference.")
def patterns(name: str | None, out: Path | None, force: bool) -> None:
    """Print the reference of the rule patterns (NAME: one of them): parameters and an example each.

    A rule pattern writes one rule of a rules document as one spec entry (a national advantage, a
    treaty, a turn order...); triplea-forge makes it into the triggers and steps that enforce it.
    """
    from generator.cli.outputs import PATTERNS, print_or_write
    from generator.spec.patterns.reference import pattern_names, reference_markdown

    if name is not None and name not in pattern_names():
        raise click.UsageError(f"no pattern '{name}' (patterns: {', '.join(pattern_names())})")
    print_or_write(out, reference_markdown(name), PATTERNS, force)


@cli.command(name="import")
@click.argument("xml_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", required=True, help="Variant name: the folder rules/NAME/ to create.")
@click.option("--extends", "parent", default=None, help="Write only what differs from this variant.")
@click.option("--force", is_flag=True, help="Replace rules/NAME/ if it exists.")
@click.option("--report", is_flag=True, help="End with what was not represented and what was normalised.")
@RULES_OPTION
def import_(xml_file: Path, name: str, parent: str | None, force: bool, report: bool, rules_dir: Path) -> None:
    """Import an existing TripleA game XML into rules/NAME/ as YAML specs.

    With --extends PARENT the new variant holds only what differs from PARENT (removed entries as
    `!delete`, moved steps as `after:`). After import the YAML is the source of truth. Anything the
    spec cannot represent stops the import with its line; anything written differently but read
    the same by the engine (expanded variables, replaced duplicates...) is a warning.
    """
    from generator.importer.validate import import_checked
    from generator.importer.variant_files import write_variant

    tree, problems = import_checked(xml_file, _display(xml_file))
    _report(problems)
    assert tree is not None
    written, found = write_variant(rules_dir, _display(rules_dir), name, tree, parent, force)
    _report(found)
    for rel in written:
        click.echo(f"wrote {rel}")
    if report:
        normalised = sorted({p for p in problems if p.severity is Severity.WARNING}, key=Diagnostic.sort_key)
        click.echo("not represented: nothing")
        click.echo(f"normalised: {len(normalised) or 'nothing'}")
        for item in normalised:
            click.echo(f"  {item.mark}: {item.message}" if item.mark else f"  {item.message}")


@cli.command()
@click.argument("name")
@click.option("--extends", "base", default="lhtr", show_default=True, help="The variant the new one changes.")
@click.option(
    "--in",
    "folder",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help="Start a whole mod repository in this new folder instead of a variant here.",
)
@click.option("--install", "install_spec", default=None, help="The pin its CI installs triplea-forge from.")
@RULES_OPTION
def new(name: str, base: str, folder: Path | None, install_spec: str | None, rules_dir: Path) -> None:
    """Start variant NAME (extending --extends) in rules/, or a mod repository with --in FOLDER.

    A mod repository holds rules/NAME/, the editor schema, requirements.txt (the triplea-forge its
    CI installs), a .gitignore, a README to start from and the CI workflow; its variants extend
    the ones triplea-forge ships, so nothing else is copied.
    """
    from generator.release.repo.scaffold import new_variant, next_steps, scaffold_repository
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    if not rules.exists(base):
        known = sorted({*rules.variants(), *rules.base_variants()})
        raise click.BadParameter(f"no variant named '{base}' (there are: {', '.join(known)})", param_hint="--extends")
    notes: list[str] = []
    if folder is None:
        made, note = new_variant(rules_dir, name, base)
        written, notes = [made], [note] if note else []
    else:
        written, notes = scaffold_repository(folder, name, base, install_spec)
    for path in written:
        click.echo(f"wrote {_display(path)}")
    for note in notes:
        click.echo(f"note: {note}", err=True)
    rules_shown = None if folder is not None or rules_dir == Path("rules") else _display(rules_dir)
    click.echo(f"next: {next_steps(name, None if folder is None else _display(folder), base, rules_shown)}")
