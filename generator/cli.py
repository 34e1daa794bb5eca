"""The `triplea-forge` command: wires the pipeline stages together, nothing more."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

import click

from generator.diagnostics import Diagnostic, ForgeError, Severity

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
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except Exception as exc:
            if os.environ.get("TRIPLEA_FORGE_TRACEBACK"):
                raise
            click.echo(f"internal error, please report it (TRIPLEA_FORGE_TRACEBACK=1 shows details): {exc!r}", err=True)
            sys.exit(3)


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
    from generator.build import build_outputs
    from generator.resolve import Rules
    from generator.write import orphans, remove_files, stale_files, write_files

    rules = Rules(rules_dir, _display(rules_dir))
    if not rules.variants():
        raise click.ClickException(f"no variants found in {_display(rules_dir)}/ (expected <variant>/*.yaml)")
    files, problems = build_outputs(rules, list(variants), target)
    _report(problems, strict)
    out = _display(output_dir)
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
        click.echo(f"{out}/ is up to date ({len(files)} files)")
        return
    written = write_files(output_dir, files)
    remove_files(output_dir, leftovers)
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


@cli.command()
@click.argument("targets", nargs=-1)
@click.option(
    "--rounds",
    default=2,
    show_default=True,
    type=click.IntRange(min=0),
    help="Rounds of all-AI play per game; 0 only parses.",
)
@click.option(
    "--ai",
    type=click.Choice(["fast", "pro"]),
    default="fast",
    show_default=True,
    help="Who plays every side: TripleA's Fast AI or its Hard (Pro) AI.",
)
@click.option("--seed", default=1, show_default=True, type=int, help="Seed of the dice (the AIs still vary).")
@click.option(
    "--report",
    "report_path",
    default=None,
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write everything the engine reported, per game, to this JSON file.",
)
@click.option(
    "--jobs", "-j", default=1, show_default=True, type=click.IntRange(min=1), help="Games played at the same time."
)
@click.option(
    "--timeout",
    default=None,
    type=click.FloatRange(min=1),
    help="Seconds allowed per game (default: by rounds and AI).",
)
@OUTPUT_OPTION
def check(
    targets: tuple[str, ...],
    rounds: int,
    ai: str,
    seed: int,
    report_path: Path | None,
    jobs: int,
    timeout: float | None,
    output_dir: Path,
) -> None:
    """Prove TARGETS in the real TripleA engine: parse, then all-AI play for some rounds.

    A TARGET is a variant name (OUTPUT/games/<name>.xml) or the path of any TripleA game XML;
    without TARGETS every built variant is checked. Exit 1 when a game fails: a parse or DTD
    error, an engine error, rounds not reached, a player who never buys, no battle, units
    bought but never placed.
    """
    from generator.check import CheckUsageError, run
    from generator.engine import EngineError

    try:
        ok = run(
            targets,
            output_dir / "games",
            rounds=rounds,
            ai=ai,
            seed=seed,
            jobs=jobs,
            timeout=timeout,
            report_path=report_path,
        )
    except CheckUsageError as exc:
        raise click.UsageError(str(exc)) from exc
    except EngineError as exc:
        error = click.ClickException(str(exc))
        error.exit_code = 2
        raise error from exc
    if not ok:
        sys.exit(1)


@cli.command()
@click.argument("variants", nargs=-1)
@click.option(
    "--base-map",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Installed map whose art the standalone package carries (a downloadedMaps/<map> folder).",
)
@click.option(
    "--out",
    "out_dir",
    default="dist",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the standalone package goes: <map>/ and <map>-master.zip.",
)
@click.option(
    "--overlay",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Instead: add the games into this installed map folder (its games/ and map.yml only).",
)
@click.option(
    "--previous",
    type=click.Path(exists=True, path_type=Path),
    help="Previous release (folder or zip) to write CHANGELOG.md against.",
)
@click.option("--release", default="Unreleased", show_default=True, help="Heading of this release in CHANGELOG.md.")
@click.option("--force", is_flag=True, help="Replace files that triplea-forge did not write.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@TARGET_OPTION
@RULES_OPTION
def package(
    variants: tuple[str, ...],
    base_map: Path | None,
    out_dir: Path,
    overlay: Path | None,
    previous: Path | None,
    release: str,
    force: bool,
    strict: bool,
    target: str,
    rules_dir: Path,
) -> None:
    """Package VARIANTS (default: all) as an installable TripleA map.

    With --base-map: a standalone map folder OUT/<map>/ (the base map's art, map.yml, games,
    .properties, description.html, CHANGELOG.md) and the same as a reproducible
    OUT/<map>-master.zip, which TripleA 1.9 and 2.6+ both take as it is in downloadedMaps/.
    With --overlay: the games are added to an installed map; only its games/ and map.yml change.
    """
    from generator import package as stage
    from generator.resolve import Rules

    if (base_map is None) == (overlay is None):
        raise click.UsageError("give either --base-map (standalone package) or --overlay (add into a map)")
    if overlay is not None and previous is not None:
        raise click.UsageError("--previous applies to a standalone package (--base-map) only")
    rules = Rules(rules_dir, _display(rules_dir))
    names = list(variants) or rules.variants()
    if not names:
        raise click.ClickException(f"no variants found in {_display(rules_dir)}/ (expected <variant>/*.yaml)")
    compiled, problems = stage.compile_variants(rules, names, target)
    _report(problems, strict)
    if overlay is not None:
        plan, found = stage.plan_overlay(overlay, compiled, force)
        _report(found, strict)
        written = stage.apply_overlay(plan)
        for path in written:
            click.echo(f"wrote {_display(path)}")
        click.echo(f"{len(written)} file{'s' if len(written) != 1 else ''} written into {_display(overlay)}")
        return
    assert base_map is not None
    built, found = stage.standalone(base_map, compiled, previous, release)
    found += stage.check_folder_target(built, out_dir, force) if built is not None else []
    _report(found, strict)
    assert built is not None
    folder = stage.write_folder(built, out_dir)
    archive = stage.write_zip(built, out_dir)
    click.echo(f"wrote {_display(folder)}/ ({len(built.files)} files)")
    click.echo(f"wrote {_display(archive)}")


@cli.command(name="init-ci")
@click.argument("folder", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--base-map-repo",
    default=None,
    help="GitHub repository of the base map's art (default: triplea-maps/<map of the variants>).",
)
@click.option(
    "--install",
    "install_spec",
    default="triplea-forge",
    show_default=True,
    help="What CI gives `pip install` to get triplea-forge (a version, a git URL...).",
)
@click.option("--force", is_flag=True, help="Replace an existing workflow file.")
@RULES_OPTION
def init_ci(folder: Path, base_map_repo: str | None, install_spec: str, force: bool, rules_dir: Path) -> None:
    """Write FOLDER/.github/workflows/triplea-forge.yml, a GitHub Actions workflow for a mod repository.

    On every push and pull request it runs `build --check`, `validate` and `check`, and puts the
    `diff` against the pull request's base branch in the job summary; on a tag it builds the
    package and attaches its zip to the GitHub release.
    """
    from generator.ci import CiUsageError, write_workflow

    try:
        written = write_workflow(folder, folder / rules_dir, base_map_repo, install_spec, force)
    except CiUsageError as exc:
        raise click.UsageError(str(exc)) from exc
    click.echo(f"wrote {_display(written)}")


@cli.command()
@click.argument("variants", nargs=-1)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "markdown"]),
    default="table",
    show_default=True,
    help="A terminal table, or Markdown for reports and pull requests.",
)
@RULES_OPTION
def coverage(variants: tuple[str, ...], fmt: str, rules_dir: Path) -> None:
    """Count each variant's rule ledger by fidelity grade and section, for TripleA 1.9 and 2.x.

    Without VARIANTS, every variant in rules/ that has a rule ledger. The 2.x grade is the rule's
    `fidelity_2x` where it has one, else its 1.9 grade.
    """
    from rich.console import Console

    from generator.build import load_spec
    from generator.coverage import Coverage, render_markdown, render_table
    from generator.coverage import coverage as ledger_coverage
    from generator.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    known = rules.variants()
    for name in variants:
        if name not in known:
            raise click.BadParameter(f"no variant '{name}' in {_display(rules_dir)}/", param_hint="VARIANTS")
    problems: list[Diagnostic] = []
    reports: list[Coverage] = []
    for name in variants or tuple(known):
        loaded, found = load_spec(rules, name)
        problems += found
        if loaded is None:
            continue
        if not loaded.spec.rule_ledger:
            if variants:
                raise click.ClickException(f"variant '{name}' has no rule ledger (rule_ledger: in its spec)")
            continue
        reports.append(ledger_coverage(name, loaded.spec))
    _report(problems)
    if not reports:
        raise click.ClickException(f"no variant in {_display(rules_dir)}/ has a rule ledger")
    if fmt == "markdown":
        click.echo(render_markdown(reports), nl=False)
    else:
        console = Console()
        if not console.is_terminal:
            console.width = max(console.width, 120)
        render_table(reports, console)


@cli.command()
@click.argument("sides", nargs=-1, required=True, metavar="OLD NEW | VARIANT")
@click.option("--from", "from_rev", default=None, help="Git revision of the rules folder to compare VARIANT from.")
@click.option("--to", "to_rev", default=None, help="Git revision to compare VARIANT to (default: the working tree).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="text: coloured terminal view; markdown: for a PR comment or CI summary; json: for tools.",
)
@click.option("--exit-code", is_flag=True, help="Exit 1 when there are changes (like git diff --exit-code).")
@RULES_OPTION
def diff(
    sides: tuple[str, ...], from_rev: str | None, to_rev: str | None, fmt: str, exit_code: bool, rules_dir: Path
) -> None:
    """What changed between two rule sets, in words a reviewer reads, grouped by domain.

    OLD and NEW are variants of the rules folder or TripleA game XML files (*.xml), in any mix.
    With --from REV, give one VARIANT: it is compared at REV and at --to REV (default: the
    working tree), reading the rules folder from git. Reordering is never a change, except the
    steps' play order and a frontier's display order.
    """
    from generator.diff import DiffError, diff_revisions, diff_sides
    from generator.diff_render import json_text, markdown, print_text
    from generator.resolve import Rules

    try:
        if from_rev is not None or to_rev is not None:
            if from_rev is None:
                raise click.UsageError("--to needs --from (the revision to compare from)")
            if len(sides) != 1:
                raise click.UsageError("with --from/--to give exactly one VARIANT")
            result = diff_revisions(sides[0], rules_dir, _display(rules_dir), from_rev, to_rev)
        else:
            if len(sides) != 2:
                raise click.UsageError("give two variants or XML files (OLD NEW), or one VARIANT with --from")
            shown = {s: _display(Path(s)) for s in sides if s.lower().endswith(".xml")}
            result = diff_sides(sides[0], sides[1], Rules(rules_dir, _display(rules_dir)), shown)
    except DiffError as exc:
        raise click.ClickException(str(exc)) from exc
    if fmt == "json":
        click.echo(json_text(result), nl=False)
    elif fmt == "markdown":
        click.echo(markdown(result), nl=False)
    else:
        print_text(result)
    if exit_code and result.changes:
        sys.exit(1)
