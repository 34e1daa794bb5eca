"""`triplea-forge` commands that play, release and compare games (registered on the main group)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import (
    ACTION_POLICIES,
    BOARD_OPTION,
    CHOICE_RATE_OPTION,
    OUTPUT_OPTION,
    REPRODUCIBLE_OPTION,
    RULES_OPTION,
    TARGET_OPTION,
    _display,
    _report,
    action_policy,
    cli,
)
from generator.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from generator.spec.resolve import Rules


class EngineUnusable(click.ClickException):
    """The engine could not be run at all (not a verdict on the games): exit code 2."""

    exit_code = 2


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
@click.option("--seed", default=1, show_default=True, type=int, help="Seed of the first game's dice and actions.")
@click.option(
    "--games",
    "-n",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Games per target, with seeds SEED..SEED+N-1 (with --actions cover, enough games take every action).",
)
@click.option(
    "--actions",
    type=click.Choice(ACTION_POLICIES),
    default="rules",
    show_default=True,
    help="How the AIs take the variant's user and political actions (the 1.9 AIs take none themselves): "
    "rules takes gains whenever open, price advantages before a purchase, scorched earth only when threatened, "
    "choices at --choice-rate; cover takes each action once in the run's games, as soon as it is open; "
    "random flips a coin per open action; an action whose trigger throws fails the game.",
)
@CHOICE_RATE_OPTION
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
@REPRODUCIBLE_OPTION
@RULES_OPTION
@OUTPUT_OPTION
def check(
    targets: tuple[str, ...],
    rounds: int,
    ai: str,
    seed: int,
    games: int,
    actions: str,
    choice_rate: float,
    reproducible: bool,
    report_path: Path | None,
    jobs: int,
    timeout: float | None,
    rules_dir: Path,
    output_dir: Path,
) -> None:
    """Prove TARGETS in the real TripleA engine: parse, then all-AI play for some rounds.

    A TARGET is a variant name (OUTPUT/games/<name>.xml) or the path of any TripleA game XML;
    without TARGETS every variant is checked. The variants are built first, as `build` builds
    them, so a game is never played stale. Exit 1 when a game fails: a parse or DTD error, an
    engine error (a purchase, move or placement the engine refuses included; a purchase the AI
    planned before a price change is re-planned first and shown as a note), rounds not reached, a
    player who never buys, no battle, units bought but never placed.
    """
    from generator.cli.authoring import build_variants
    from generator.emit.write import settle
    from generator.engine.check import CheckUsageError, run
    from generator.engine.harness import EngineError
    from generator.paths import variant_folders

    if report_path is not None:
        from generator.cli.outputs import check_writable

        check_writable(report_path)  # said before hours of play, not after
    if output_dir.is_dir():
        settle(output_dir)  # a build killed while switching its files is finished first
    # Never play a stale game: the variants named (or all of them) are built first.
    known = {folder.name for folder in variant_folders(rules_dir)}
    named = tuple(t for t in targets if t in known)  # anything else is a file, or a usage error below
    if known and (named or not targets):
        build_variants(named, False, False, "portable", rules_dir, output_dir)
    try:
        ok = run(
            targets,
            output_dir / "games",
            rounds=rounds,
            ai=ai,
            seed=seed,
            actions=action_policy(actions, choice_rate),
            reproducible=reproducible,
            games=games,
            jobs=jobs,
            timeout=timeout,
            report_path=report_path,
        )
    except CheckUsageError as exc:
        raise click.UsageError(str(exc)) from exc
    except EngineError as exc:
        raise EngineUnusable(str(exc)) from exc
    if not ok:
        sys.exit(1)


@cli.command()
@click.argument("variants", nargs=-1)
@click.option(
    "--base-map",
    type=click.Path(exists=True, path_type=Path),
    help="Map whose art the standalone package carries: a folder or a <map>-master.zip "
    "(default: the variants' map in the player's TripleA folder, ~/triplea/downloadedMaps).",
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
    from generator.cli.outputs import check_package_target
    from generator.installed_map import MapLookup
    from generator.release import maps
    from generator.release import package as stage
    from generator.spec.resolve import Rules

    if base_map is not None and overlay is not None:
        raise click.UsageError("give either --base-map (standalone package) or --overlay (add into a map)")
    if overlay is not None and previous is not None:
        raise click.UsageError("--previous applies to a standalone package (--base-map) only")
    check_package_target(overlay or out_dir, "--overlay" if overlay is not None else "--out", rules_dir)
    rules = Rules(rules_dir, _display(rules_dir))
    names = list(variants) or rules.variants()
    if not names:
        raise click.ClickException(f"no variants found in {_display(rules_dir)}/ (expected <variant>/*.yaml)")
    given = overlay or base_map
    # A map given is checked against while compiling; one looked up is known only after.
    lookup = MapLookup(base_map=given, search=[]) if given is not None else None
    compiled, problems = stage.compile_variants(rules, names, target, lookup)
    _report(problems, strict)
    if overlay is not None:
        plan, found = stage.plan_overlay(overlay, compiled, force, rules)
        _report(found, strict)
        written = stage.apply_overlay(plan)
        for path in written:
            click.echo(f"wrote {_display(path)}")
        click.echo(f"{len(written)} file{'s' if len(written) != 1 else ''} written into {_display(overlay)}")
        return
    by_map: dict[str, list[str]] = {}
    for name, item in sorted(compiled.items()):
        by_map.setdefault(item.spec.game.map, []).append(name)
    if len(by_map) > 1:  # one map folder holds one map's games
        uses = "; ".join(f"{', '.join(v)} on map '{m}'" for m, v in sorted(by_map.items()))
        raise click.ClickException(f"a package holds one map's games, these variants use several: {uses}; "
                                   "package them apart (`triplea-forge package VARIANT...`)")  # fmt: skip
    if base_map is None:
        try:  # the variants' board, by the rule every command follows (checks.board.find_board)
            base_map, said = maps.installed_board(rules, compiled)
        except maps.BaseMapError as exc:
            raise click.UsageError(str(exc)) from exc
        for line in said:
            click.echo(line)
    try:
        with maps.opened(base_map) as base:
            if lookup is None:
                _report(stage.board_problems(compiled, rules, base), strict)
            built, found = stage.standalone(base, compiled, previous, release, rules, out_dir)
            if built is not None and built.map_name == maps.own_name(base):
                found.append(Diagnostic(
                    f"the package is named '{built.map_name}', as the map it is made from: a player who installs it "
                    f"replaces that map; give the mod a map name of its own (game.map)", severity=Severity.WARNING,
                ))  # fmt: skip
            found += stage.check_folder_target(built, out_dir, force) if built is not None else []
            if built is None and not any(p.severity is Severity.ERROR for p in found):
                found.append(Diagnostic("nothing to package"))
            _report(found, strict)
            assert built is not None
            folder, archive = stage.write_package(built, out_dir)
    except maps.BaseMapError as exc:
        raise click.ClickException(str(exc)) from exc
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
    default=None,
    help="The pin CI installs triplea-forge from, written to FOLDER/requirements.txt when it has none "
    "(a git URL: 'triplea-forge @ git+https://...@v1.2'; default: where this triplea-forge comes from).",
)
@click.option("--force", is_flag=True, help="Replace an existing workflow file.")
@RULES_OPTION
def init_ci(folder: Path, base_map_repo: str | None, install_spec: str | None, force: bool, rules_dir: Path) -> None:
    """Write FOLDER/.github/workflows/triplea-forge.yml, a GitHub Actions workflow for a mod repository.

    On every push and pull request it runs `build --check`, `validate` and `check`, and puts the
    `diff` against the pull request's base branch in the job summary; on a tag it builds the
    package and attaches its zip to the GitHub release. It installs triplea-forge from the
    repository's requirements.txt (written with --install, or this triplea-forge's source, if
    missing).
    """
    from generator.emit.write import write_file
    from generator.release.scaffold import PIN_FILE, default_pin
    from generator.release.workflow import CiUsageError, write_workflow

    try:
        written = write_workflow(folder, folder / rules_dir, base_map_repo, force)
    except CiUsageError as exc:
        raise click.UsageError(str(exc)) from exc
    click.echo(f"wrote {_display(written)}")
    pin_file = folder / PIN_FILE
    if not pin_file.exists():
        pin, note = (install_spec, None) if install_spec else default_pin()
        pinned = f"# The triplea-forge this mod is built with; its CI installs exactly this.\n{pin}\n"
        write_file(pin_file, pinned.encode("utf-8"))
        click.echo(f"wrote {_display(pin_file)}")
        if note:
            click.echo(f"note: {note}", err=True)


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
@click.option(
    "--mutation-results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("output/mutation"),
    show_default=True,
    help="Folder of the mutation sweep's <variant>.json (pytest -m mutation --update-goldens writes them).",
)
@RULES_OPTION
def coverage(variants: tuple[str, ...], fmt: str, mutation_results: Path, rules_dir: Path) -> None:
    """Count each variant's rule ledger by fidelity grade and section, for TripleA 1.9 and 2.x.

    Without VARIANTS, every variant in rules/ that has a rule ledger. The 2.x grade is the rule's
    `fidelity_2x` where it has one, else its 1.9 grade. The proof column counts the enforced rules
    an engine scenario shows, those only pinned by dump facts, and those without a proof; the
    mutation line gives the sweep's score where it has been recorded.
    """
    from rich.console import Console

    from generator.checks.variant import check_variant
    from generator.emit.coverage import Coverage, render_markdown, render_table
    from generator.emit.coverage import coverage as ledger_coverage
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    known = rules.variants()
    for name in variants:
        if name not in known:
            raise click.BadParameter(f"no variant '{name}' in {_display(rules_dir)}/", param_hint="VARIANTS")
    problems: list[Diagnostic] = []
    reports: list[Coverage] = []
    for name in variants or tuple(known):
        loaded, found = check_variant(rules, name)
        problems += found
        if loaded is None:
            continue
        if not loaded.spec.rule_ledger:
            if variants:
                raise click.ClickException(f"variant '{name}' has no rule ledger (rule_ledger: in its spec)")
            continue
        reports.append(ledger_coverage(name, loaded.spec, mutation_results))
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
@click.option("--brief", is_flag=True, help="The short form: long runs named up to five, nothing folded.")
@click.option(
    "--picture",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also draw NEW's board with every territory that changed outlined, numbered and listed (PNG).",
)
@click.option("--force", is_flag=True, help="With --picture: replace the file even if it is not a PNG picture.")
@BOARD_OPTION
@RULES_OPTION
def diff(
    sides: tuple[str, ...],
    from_rev: str | None,
    to_rev: str | None,
    fmt: str,
    exit_code: bool,
    brief: bool,
    picture: Path | None,
    force: bool,
    base_map: Path | None,
    rules_dir: Path,
) -> None:
    """What changed between two rule sets, in words a reviewer reads, grouped by domain.

    OLD and NEW are variants of the rules folder or TripleA game XML files (*.xml), in any mix.
    With --from REV, give one VARIANT: it is compared at REV and at --to REV (default: the
    working tree), reading the rules folder from git. Reordering is never a change, except the
    steps' play order and a frontier's display order. Every change is shown (long runs grouped,
    folded in Markdown); --brief gives the short form. --picture draws where on the board the two
    differ (owners, production, units, attachments, borders), on --base-map or the installed map.
    """
    from generator.diff.compare import DiffError
    from generator.diff.markdown import markdown
    from generator.diff.render import json_text, print_text
    from generator.diff.sides import diff_revisions, diff_sides
    from generator.spec.resolve import Rules

    if picture is not None:
        from generator.cli.outputs import PICTURE, STDOUT, check_output_file

        if picture == STDOUT:
            raise click.UsageError("--picture -: the diff itself goes to the standard output; give a file name")
        check_output_file(picture, PICTURE, force, "--picture")
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
        click.echo(markdown(result, brief), nl=False)
    else:
        print_text(result, brief)
    if picture is not None:  # after the text: a picture that cannot be drawn loses nothing else
        new_variant = sides[-1] if not sides[-1].lower().endswith(".xml") else None
        _diff_picture(result, picture, base_map, Rules(rules_dir, _display(rules_dir)), new_variant)
    if exit_code and result.changes:
        sys.exit(1)


def _diff_picture(result: object, picture: Path, base_map: Path | None, rules: Rules, variant: str | None) -> None:
    """NEW's board with the changes drawn, on the board `variant` has by the one rule of every
    command (checks.board), or the map NEW's game names (a game XML)."""
    from generator.checks.board import board_missing, find_named_board, get_hint
    from generator.diff.compare import Diff
    from generator.emit.write import write_file
    from generator.installed_map import MapLookup
    from generator.release.diff_picture import diff_picture
    from generator.release.pictures import png_bytes

    assert isinstance(result, Diff) and result.specs is not None
    old, new = result.specs
    maps = MapLookup(base_map=base_map)
    installed, names = find_named_board(rules, variant, new.game.map, maps)
    if installed is None:
        raise click.ClickException(f"--picture: {board_missing(names, maps)}: {get_hint(names)}")
    for line in maps.board_lines():
        click.echo(line, err=True)
    title = f"{result.old.label} -> {result.new.label}: where the board differs"
    write_file(picture, png_bytes(diff_picture(old, new, installed, title)))
    click.echo(f"wrote {_display(picture)}", err=True)
