"""The `triplea-forge` command: wires the pipeline stages together, nothing more."""

from __future__ import annotations

import gc
import os
import sys
from dataclasses import replace
from pathlib import Path

import click

from generator.diagnostics import Diagnostic, ForgeError, Severity
from generator.paths import template_dir

RULES_OPTION = click.option(
    "--rules",
    "rules_dir",
    default="rules",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of variant specs (one sub-folder each).",
)
TARGET_OPTION = click.option(
    "--target",
    type=click.Choice(["portable", "1.9", "2.x"]),
    default="portable",
    show_default=True,
    help="Engines the game must load in: portable = both TripleA 1.9 and 2.x.",
)
OUTPUT_OPTION = click.option(
    "--output",
    "output_dir",
    default="output",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder the generated map files go to.",
)


def _display(path: Path) -> str:
    """A path as shown in messages: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _report(problems: list[Diagnostic], strict: bool = False) -> None:
    """Print warnings; raise (exit 1) with every error at once.

    With errors, warnings are left out: they are often consequences of an error and the error is
    what to fix first. With --strict, warnings count as errors.
    """
    if strict:
        problems = [replace(p, severity=Severity.ERROR) for p in problems]
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if errors:
        raise ForgeError(errors)
    for warning in sorted(set(problems), key=Diagnostic.sort_key):
        click.echo(str(warning), err=True)


class _Group(click.Group):
    """Turns a bug of ours into one clear line and exit code 3 instead of a traceback.

    Set TRIPLEA_FORGE_TRACEBACK=1 to see the traceback when reporting the bug.
    """

    def invoke(self, ctx: click.Context) -> object:
        # A command allocates many small objects and frees them at exit: the cyclic collector's
        # passes cost up to half the time of big builds and find nothing to collect.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except Exception as exc:
            if os.environ.get("TRIPLEA_FORGE_TRACEBACK"):
                raise
            click.echo(f"internal error, please report it (TRIPLEA_FORGE_TRACEBACK=1 shows details): {exc!r}", err=True)
            sys.exit(3)
        finally:
            if collecting:
                gc.enable()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="triplea-forge")
def cli() -> None:
    """Compile TripleA mods written as YAML specs into game XML, notes and map files."""


@cli.command()
@click.argument("variants", nargs=-1)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 and list the files that are stale.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@TARGET_OPTION
@RULES_OPTION
@OUTPUT_OPTION
def build(variants: tuple[str, ...], check: bool, strict: bool, target: str, rules_dir: Path, output_dir: Path) -> None:
    """Build VARIANTS (default: every variant in rules/) into the output folder.

    Writes games/<variant>.xml, games/<variant>.notes.html and map.yml. Writes are atomic and only
    touch files whose content changed; a second build changes no byte.
    """
    from generator import buildcache
    from generator.write import orphans, remove_files, stale_files, write_files

    out = _display(output_dir)
    key = buildcache.fingerprint(rules_dir, template_dir(), [*variants, "--", target, str(strict)])
    done = buildcache.recall(key, output_dir)
    if done is not None and not (orphans(output_dir, done["files"]) if not variants else []):
        # Same inputs, same code, and every file it made is unchanged on disk: nothing to do.
        for warning in done["warnings"]:
            click.echo(warning, err=True)
        made = len(done["files"])
        click.echo(f"{out}/ is up to date ({made} files)" if check else f"0 files written, {made} unchanged")
        return
    from generator.build import build_outputs
    from generator.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    if not rules.variants():
        raise click.ClickException(f"no variants found in {_display(rules_dir)}/ (expected <variant>/*.yaml)")
    files, problems = build_outputs(rules, list(variants), target)
    _report(problems, strict)
    warnings = [str(w) for w in sorted(set(problems), key=Diagnostic.sort_key)]
    # Only a build of every variant knows which files in games/ no variant makes any more.
    leftovers = orphans(output_dir, files) if not variants else []
    if check:
        stale = stale_files(output_dir, files)
        for rel in stale:
            click.echo(f"stale: {out}/{rel}", err=True)
        for rel in leftovers:
            click.echo(f"stale: {out}/{rel} (no variant makes it; a build removes it)", err=True)
        if stale or leftovers:
            sys.exit(1)
        buildcache.remember(key, files, warnings)
        click.echo(f"{out}/ is up to date ({len(files)} files)")
        return
    written = write_files(output_dir, files)
    remove_files(output_dir, leftovers)
    buildcache.remember(key, files, warnings)
    for rel in written:
        click.echo(f"wrote {out}/{rel}")
    for rel in leftovers:
        click.echo(f"removed {out}/{rel}")
    click.echo(f"{len(written)} file{'s' if len(written) != 1 else ''} written, {len(files) - len(written)} unchanged")


@cli.command()
@click.argument("targets", nargs=-1)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@TARGET_OPTION
@RULES_OPTION
def validate(targets: tuple[str, ...], strict: bool, target: str, rules_dir: Path) -> None:
    """Check variants (default: all in rules/) or any TripleA game XML files; write nothing.

    Reports every problem at once, each at its file:line: spec errors, unknown or badly typed
    options for the target engines, dangling references, and every DTD message of the XML.
    """
    from generator.build import compile_variant
    from generator.resolve import Rules
    from generator.validate_xml import validate_xml_file

    rules = Rules(rules_dir, _display(rules_dir))
    problems: list[Diagnostic] = []
    checked = 0
    for item in targets or tuple(rules.variants()):
        if item.endswith(".xml"):
            path = Path(item)
            if not path.is_file():
                raise click.BadParameter(f"no such file: {item}", param_hint="TARGETS")
            problems += validate_xml_file(path, _display(path), target)
        else:
            problems += compile_variant(rules, item, target)[1]
        checked += 1
    _report(problems, strict)
    click.echo(f"{checked} checked for {target}: no errors")


@cli.command()
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path), help="Write here, not stdout.")
def schema(out: Path | None) -> None:
    """Print the JSON Schema of spec files, for editor completion and squiggles.

    Put `# yaml-language-server: $schema=<path to the schema>` at the top of a spec file.
    """
    from generator.schema import schema_text
    from generator.write import write_files

    if out is None:
        click.echo(schema_text(), nl=False)
    else:
        write_files(out.parent, {out.name: schema_text().encode("utf-8")})
        click.echo(f"wrote {_display(out)}")


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
    from generator.importer import import_xml
    from generator.spec_io import write_variant

    tree, problems = import_xml(xml_file, _display(xml_file))
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


# Commands about playing, releasing and comparing games live in cli_release.py; importing it
# registers them on this group.
from generator import cli_release  # noqa: E402,F401
