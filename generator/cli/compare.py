"""`triplea-forge diff`: what changed between two rule sets (registered on the main group)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import BOARD_OPTION, RULES_OPTION, _display, cli
from generator.errors import TripleaForgeError

if TYPE_CHECKING:
    from generator.diff.compare import Diff
    from generator.spec.resolve import Rules


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
    from generator.diff.markdown import markdown
    from generator.diff.render import json_text, print_text
    from generator.spec.resolve import Rules

    if picture is not None:
        from generator.cli.outputs import PICTURE, STDOUT, check_output_file

        if picture == STDOUT:
            raise click.UsageError("--picture -: the diff itself goes to the standard output; give a file name")
        check_output_file(picture, PICTURE, force, "--picture")
    result = _compared(sides, from_rev, to_rev, rules_dir)
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


def _compared(sides: tuple[str, ...], from_rev: str | None, to_rev: str | None, rules_dir: Path) -> Diff:
    """The diff the arguments ask for (stage diff.sides): one VARIANT at two revisions, or two sides."""
    from generator.diff.sides import diff_revisions, diff_sides
    from generator.spec.resolve import Rules

    if from_rev is not None or to_rev is not None:
        if from_rev is None:
            raise click.UsageError("--to needs --from (the revision to compare from)")
        if len(sides) != 1:
            raise click.UsageError("with --from/--to give exactly one VARIANT")
        return diff_revisions(sides[0], rules_dir, _display(rules_dir), from_rev, to_rev)
    if len(sides) != 2:
        raise click.UsageError("give two variants or XML files (OLD NEW), or one VARIANT with --from")
    shown = {s: _display(Path(s)) for s in sides if s.lower().endswith(".xml")}
    return diff_sides(sides[0], sides[1], Rules(rules_dir, _display(rules_dir)), shown)


def _diff_picture(result: object, picture: Path, base_map: Path | None, rules: Rules, variant: str | None) -> None:
    """NEW's board with the changes drawn, on the board `variant` has by the one rule of every
    command (checks.board), or the map NEW's game names (a game XML)."""
    from generator.checks.board import board_missing, find_named_board, get_hint
    from generator.diff.compare import Diff
    from generator.emit.write import write_file
    from generator.installed_map import MapLookup
    from generator.release.pictures.diff import diff_picture
    from generator.release.pictures.png import png_bytes

    assert isinstance(result, Diff) and result.specs is not None
    old, new = result.specs
    maps = MapLookup(base_map=base_map)
    installed, names = find_named_board(rules, variant, new.game.map, maps)
    if installed is None:
        raise TripleaForgeError(f"--picture: {board_missing(names, maps)}: {get_hint(names)}")
    for line in maps.board_lines():
        click.echo(line, err=True)
    title = f"{result.old.label} -> {result.new.label}: where the board differs"
    write_file(picture, png_bytes(diff_picture(old, new, installed, title)))
    click.echo(f"wrote {_display(picture)}", err=True)
