"""`triplea-forge` commands that show a game as a player sees it: preview, play."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import BOARD_OPTION, RULES_OPTION, TARGET_OPTION, _display, _report, cli
from generator.errors import TripleaForgeError
from generator.targets import Target

if TYPE_CHECKING:
    from generator.release.package.play import Playtest


@cli.command()
@click.argument("variant")
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="The PNG file to write ('-': the standard output).",
)
@click.option("--force", is_flag=True, help="Replace the file even if it is not a PNG picture.")
@BOARD_OPTION
@RULES_OPTION
def preview(variant: str, out: Path, force: bool, base_map: Path | None, rules_dir: Path) -> None:
    """Draw VARIANT's starting board as a picture (PNG), from the map's polygons.

    Territories in their owner's colour, capitals (star) and victory cities (ring), production
    values and unit counts where they fit, and a legend of the players. The map is --base-map or
    the one game.map names in ~/triplea/downloadedMaps. The package ships the same picture.
    """
    from generator.checks.board import board_missing, find_board, get_hint, map_names
    from generator.checks.variant import check_variant
    from generator.cli.outputs import PICTURE, check_output_file, write_output
    from generator.installed_map import MapLookup
    from generator.release.pictures.package_art import preview as draw
    from generator.spec.resolve import Rules

    check_output_file(out, PICTURE, force, "-o")
    maps = MapLookup(base_map=base_map)
    rules = Rules(rules_dir, _display(rules_dir))
    loaded, problems = check_variant(rules, variant, maps=maps)
    installed = find_board(loaded.spec, loaded.resolved, rules, maps) if loaded is not None else None
    if loaded is not None and installed is None:  # the error says it all: no warning that it is not checked
        names = map_names(rules, loaded.resolved, loaded.spec.game.map)
        raise TripleaForgeError(f"{board_missing(names, maps)}: {get_hint(names)}")
    _report(problems)
    assert loaded is not None and installed is not None
    for line in maps.board_lines():
        click.echo(line, err=str(out) == "-")  # -o - : the picture alone goes to the standard output
    if write_output(out, draw(loaded.spec, installed)):
        click.echo(f"wrote {_display(out)}")


@cli.command()
@click.argument("variant", required=False)
@click.option("--ai", is_flag=True, help="Every player but one is computer-controlled (TripleA's Fast AI).")
@click.option("--player", default=None, help="With --ai, the player you play (default: the first to move).")
@click.option(
    "--zip",
    "release",
    default=None,
    type=click.Path(exists=True, path_type=Path),
    help="Open a release as players get it instead of building VARIANT: its zip (dist/<map>-master.zip, a "
    "GitHub release's asset) or an installed map folder; VARIANT then names one of its games (default: its only one).",
)
@BOARD_OPTION
@TARGET_OPTION
@RULES_OPTION
def play(
    variant: str | None,
    ai: bool,
    player: str | None,
    release: Path | None,
    base_map: Path | None,
    target: Target,
    rules_dir: Path,
) -> None:
    """Build VARIANT, package it and start the real TripleA client on it: a playtest in one command.

    The package goes into a throw-away TripleA home (nothing of yours is changed; the base map is
    --base-map or your installed copy) and the client opens the game, ready to play; the command
    ends when you close it. With --zip, a release goes into that home as it is, as a player
    installs it, and nothing is built. Without --ai every player is human (hot-seat). Needs
    TripleA (apt-get install triplea) and a display.
    """
    from generator.release.package import play as playtest

    if player is not None and not ai:
        raise click.UsageError("--player says whom you play against the computer: give --ai too")
    if release is None and variant is None:
        raise click.UsageError("give the VARIANT to build and play, or --zip RELEASE to open a release")
    if release is not None and base_map is not None:
        raise click.UsageError("--base-map: a release carries its map's art; give --zip or --base-map, not both")
    playtest.check_display()
    driver = playtest.find_client()
    work = playtest.temporary_folder()
    try:
        prepared = _prepared(variant, release, ai, player, base_map, target, rules_dir, work)
        code = playtest.run(prepared, work, click.echo, driver)
    finally:
        playtest.remove(work)
    click.echo(f"the client closed (exit code {code})")
    sys.exit(0 if code in (0, 143) else 1)


def _prepared(
    variant: str | None,
    release: Path | None,
    ai: bool,
    player: str | None,
    base_map: Path | None,
    target: Target,
    rules_dir: Path,
    work: Path,
) -> Playtest:
    """The game installed into the TripleA home in `work`: the release as it is (stage
    release.play_release), or VARIANT built and packaged (release.play); said."""
    from generator.installed_map import MapLookup
    from generator.release.package import play as playtest
    from generator.release.package.play_release import prepare_release
    from generator.spec.resolve import Rules

    if release is not None:
        prepared = prepare_release(release, variant, work, ai, player)
        click.echo(f"installed {_display(release)} into a TripleA home at {work / 'home'}")
        return prepared
    assert variant is not None
    rules = Rules(rules_dir, _display(rules_dir))
    maps = MapLookup(base_map=base_map)
    built, problems = playtest.prepare(rules, variant, target, maps, work, ai, player)
    _report(problems)
    assert built is not None
    for line in maps.board_lines():
        click.echo(line)
    click.echo(f"packaged {variant} into a TripleA home at {work / 'home'}")
    return built
