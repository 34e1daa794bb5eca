"""`triplea-forge` commands that play and release games, and count their ledgers (registered on the main group)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.bounds import GAMES, MAX_SECONDS, ROUNDS, SEED, WORKERS, FiniteFloat, check_seeds
from generator.cli.group import (
    ACTIONS_OPTION,
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
from generator.errors import TripleaForgeError
from generator.targets import Target

if TYPE_CHECKING:
    from generator.emit.build import Compiled
    from generator.engine.rule_activity import RuleLine
    from generator.spec.resolve import Rules


@cli.command()
@click.argument("targets", nargs=-1)
@click.option(
    "--rounds",
    default=2,
    show_default=True,
    type=ROUNDS,
    help="Rounds of all-AI play per game; 0 only parses.",
)
@click.option(
    "--ai",
    type=click.Choice(["fast", "pro"]),
    default="fast",
    show_default=True,
    help="Who plays every side: TripleA's Fast AI or its Hard (Pro) AI.",
)
@click.option("--seed", default=1, show_default=True, type=SEED, help="Seed of the first game's dice and actions.")
@click.option(
    "--games",
    "-n",
    default=1,
    show_default=True,
    type=GAMES,
    help="Games per target, with seeds SEED..SEED+N-1 (with --actions cover, enough games take every action).",
)
@ACTIONS_OPTION
@CHOICE_RATE_OPTION
@click.option(
    "--report",
    "report_path",
    default=None,
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write everything the engine reported, per game, to this JSON file.",
)
@click.option("--force", is_flag=True, help="Replace the --report file even if it is not a check report.")
@click.option("--jobs", "-j", default=1, show_default=True, type=WORKERS, help="Games played at the same time.")
@click.option(
    "--timeout",
    default=None,
    type=FiniteFloat(1, MAX_SECONDS),
    help="Seconds allowed per game (default: by rounds and AI).",
)
@click.option(
    "--expect-fire",
    is_flag=True,
    help="Fail when a rule that acts on its own never did in the games played: a trigger that never fired, "
    "a national objective never paid, an action never offered (a rule's own `expect:` applies without it).",
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
    force: bool,
    jobs: int,
    timeout: float | None,
    expect_fire: bool,
    rules_dir: Path,
    output_dir: Path,
) -> None:
    """Prove TARGETS in the real TripleA engine: parse, then all-AI play for some rounds.

    A TARGET is a variant name or the path of any TripleA game XML; without TARGETS every variant
    is checked. The variants are built first, as `build` builds them, so a game is never played
    stale: the rules folder's own into OUTPUT/games/, one triplea-forge ships (lhtr...) into a
    temporary folder. Exit 1 when a game fails: a parse or DTD error, an
    engine error (a purchase, move or placement the engine refuses included; a purchase the AI
    planned before a price change is re-planned first and shown as a note), rounds not reached, a
    player who never buys, no battle, units bought but never placed.

    After the table, each game's rules at work: how often each trigger fired, each national
    objective paid, each action was offered and taken, by round; a rule that never did is said at
    its line. A rule fails the check when it does not do what its `expect:` says (fires, offered,
    never), and with --expect-fire when it acts on its own and never did.
    """
    from generator.engine.check import CheckPlan, run

    plan = CheckPlan(
        rounds=rounds, ai=ai, seed=seed, actions=action_policy(actions, choice_rate), games=games, jobs=jobs,
        timeout=timeout, report_path=report_path, reproducible=reproducible, expect_fire=expect_fire,
    )  # fmt: skip
    _refuse_early(seed, games, report_path, force, output_dir)
    names, games_dir, rules = _games_to_play(targets, rounds, rules_dir, output_dir)
    if not run(names, games_dir, plan, rules=rules):
        sys.exit(1)


def _games_to_play(
    targets: tuple[str, ...], rounds: int, rules_dir: Path, output_dir: Path
) -> tuple[list[str], Path, dict[Path, list[RuleLine]]]:
    """The games `check` plays, built first (never a stale game), and the rules of each to say at
    their lines: the rules folder's own variants into OUTPUT/games/, a shipped one (lhtr...) into a
    temporary folder that lives as long as the command, any other TARGET a game file."""
    from generator.cli.targets import built_games, find_variants, refuse_unknown_games
    from generator.engine.played import played_rules
    from generator.spec.resolve import Rules

    # A name is the rules folder's own variant, else a shipped one (cli.targets), else a game file.
    specs = Rules(rules_dir, _display(rules_dir))
    found = find_variants(targets, specs)
    refuse_unknown_games(found.neither, specs, output_dir / "games")
    shipped = built_games(found, specs, output_dir, every=not targets)  # none named: every variant
    games_dir = output_dir / "games"
    rules = played_rules(specs, targets, found.own, found.neither, games_dir, shipped) if rounds > 0 else {}
    return [str(shipped.get(t, t)) for t in targets], games_dir, rules  # a shipped variant's game by its path


def _refuse_early(seed: int, games: int, report_path: Path | None, force: bool, output_dir: Path) -> None:
    """What `check` refuses before hours of play, not after: seeds beyond a Java long, a --report
    file of the user's without --force; and an output folder a killed build left is settled."""
    from generator.cli.outputs import CHECK_REPORT, check_file_target
    from generator.emit.write import settle

    check_seeds(seed, games)  # every seed played is a Java long, as the harness reads it
    if report_path is not None:
        check_file_target(report_path, CHECK_REPORT, force, "--report")
    if output_dir.is_dir():
        settle(output_dir)  # a build killed while switching its files is finished first


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
    target: Target,
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
    from generator.release.package import folder as stage
    from generator.spec.resolve import Rules

    if base_map is not None and overlay is not None:
        raise click.UsageError("give either --base-map (standalone package) or --overlay (add into a map)")
    if overlay is not None and previous is not None:
        raise click.UsageError("--previous applies to a standalone package (--base-map) only")
    check_package_target(overlay or out_dir, "--overlay" if overlay is not None else "--out", rules_dir)
    rules = Rules(rules_dir, _display(rules_dir))
    names = list(variants) or rules.variants()
    if not names:
        raise TripleaForgeError(f"no variants found in {_display(rules_dir)}/ (expected <variant>/*.yaml)")
    given = overlay or base_map
    # A map given is checked against while compiling; one looked up is known only after.
    lookup = MapLookup(base_map=given, search=[]) if given is not None else None
    compiled, problems = stage.compiled_by_name(rules, names, target, lookup)
    _report(problems, strict)
    if overlay is not None:
        _add_into(overlay, compiled, rules, force, strict)
    else:
        _standalone(compiled, rules, base_map, lookup is not None, previous, release, out_dir, force, strict)


def _add_into(overlay: Path, compiled: Mapping[str, Compiled], rules: Rules, force: bool, strict: bool) -> None:
    """`package --overlay`: the games added into an installed map (stage release.overlay), said."""
    from generator.release.package import overlay as add_into

    plan, found = add_into.plan_overlay(overlay, compiled, force, rules)
    _report(found, strict)
    written = add_into.apply_overlay(plan)
    for path in written:
        click.echo(f"wrote {_display(path)}")
    click.echo(f"{len(written)} file{'s' if len(written) != 1 else ''} written into {_display(overlay)}")


def _standalone(
    compiled: Mapping[str, Compiled],
    rules: Rules,
    base_map: Path | None,
    board_checked: bool,
    previous: Path | None,
    release: str,
    out_dir: Path,
    force: bool,
    strict: bool,
) -> None:
    """`package` into a standalone map folder and zip on the base map (stage release.package), said."""
    from generator.release.maps import base as maps
    from generator.release.package import folder as stage

    _report(stage.one_map(compiled))
    if base_map is None:  # the variants' board, by the rule every command follows (checks.board.find_board)
        base_map, said = maps.installed_board(rules, compiled)
        for line in said:
            click.echo(line)
    with maps.opened(base_map) as base:
        built, found = stage.checked_standalone(
            base, compiled, previous, release, rules, out_dir, force=force, board_checked=board_checked
        )
        _report(found, strict)
        assert built is not None
        folder, archive = stage.write_package(built, out_dir)
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
    from generator.release.repo.scaffold import PIN_FILE, default_pin
    from generator.release.repo.workflow import write_workflow

    written = write_workflow(folder, folder / rules_dir, base_map_repo, force)
    click.echo(f"wrote {_display(written)}")
    pin_file = folder / PIN_FILE
    if not pin_file.exists():
        pin, note = (install_spec, None) if install_spec else default_pin()
        pinned = f"# The triplea-forge this mod is built with; its CI installs exactly this.\n{pin}\n"
        write_file(pin_file, pinned.encode("utf-8"))
        click.echo(f"wrote {_display(pin_file)}")
        if note:
            click.echo(f"note: {note}", err=True)
