"""`map get` and `map list`: the maps TripleA's download window offers, from the command line.

A mod's board is its base variant's map until the mod is released (checks.board), so a new mod
maker's first need is `triplea-forge map get world_war_ii_revised`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import _display, cli
from generator.diagnostics import one_line

if TYPE_CHECKING:
    from generator.installed_map import MapLookup
    from generator.release.maps.download import IndexEntry

INDEX_OPTION = click.option(
    "--index",
    "index",
    default=None,
    metavar="URL",
    help="The map index (TripleA's YAML list of maps). Default: $TRIPLEA_MAP_INDEX, else TripleA's own.",
)
INTO_OPTION = click.option(
    "--into",
    "into",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help="The maps folder. Default: TripleA's, $TRIPLEA_MAPS or ~/triplea/downloadedMaps.",
)


@cli.group(name="map")
def map_group() -> None:
    """Get the maps games are played on, as TripleA's download window does."""


@map_group.command(name="list")
@INDEX_OPTION
@INTO_OPTION
def list_maps(index: str | None, into: Path | None) -> None:
    """The maps the index offers: the name to give `map get`, its version, and whether it is installed."""
    from generator.installed_map import MapLookup, default_maps_folder

    folder = into or default_maps_folder()
    entries = _index(index)
    lookup = MapLookup(search=[folder])
    width = max((len(e.folder_name) for e in entries), default=4)
    for entry in entries:
        installed = "installed" if lookup.find(entry.name) is not None else ""
        kind = "" if entry.kind == "MAP" else f" [{entry.kind}]"
        version = f"v{entry.version}" if entry.version else ""
        click.echo(f"{entry.folder_name:<{width}}  {version:<5} {installed:<9} {entry.name}{kind}".rstrip())
    click.echo(f"{len(entries)} maps; `triplea-forge map get NAME` installs one into {_display(folder)}")


@map_group.command(name="get")
@click.argument("names", nargs=-1, required=True)
@click.option("--force", is_flag=True, help="Download and replace a map installed already.")
@INDEX_OPTION
@INTO_OPTION
def get(names: tuple[str, ...], force: bool, index: str | None, into: Path | None) -> None:
    """Download and install NAMES (a map's name as `map list` shows it, or its title) where TripleA keeps maps."""
    from generator.installed_map import MapLookup, default_maps_folder
    from generator.release.maps import download as md

    folder = into or default_maps_folder()
    for name in names:  # a name becomes a folder in the maps folder: never '../x', never too long
        problem = md.map_name_problem(name)
        if problem is not None:
            raise click.BadParameter(f"{one_line(repr(name[:100]))} {problem}", param_hint="NAMES")
    lookup = MapLookup(search=[folder])
    missing = _missing(names, lookup, force)
    if not missing:
        return
    entries = _index(index)
    wanted = [md.find_entry(entries, name) for name in missing]
    for entry in wanted:
        found = lookup.find(entry.name)
        if found is not None and not force:  # given by its title, installed by its folder name
            click.echo(f"{entry.folder_name}: installed already at {_display(found.location)} (--force gets it again)")
            continue
        path = _install(entry, folder, force)
        version = f" v{entry.version}" if entry.version else ""
        click.echo(f"{entry.folder_name}{version}: installed at {_display(path)}")


def _missing(names: tuple[str, ...], lookup: MapLookup, force: bool) -> list[str]:
    """The names to download (all with --force); each map installed already said so. A map
    installed already needs no index: a CI run with its maps cached works offline."""
    from generator.installed_map import normalized_map_name

    missing = [name for name in names if force or lookup.find(name) is None]
    for name in names:
        if name not in missing:
            found = lookup.find(name)
            assert found is not None
            shown = normalized_map_name(name)
            click.echo(f"{shown}: installed already at {_display(found.location)} (--force gets it again)")
    return missing


def _index(index: str | None) -> list[IndexEntry]:
    """The index's maps; each entry it holds that cannot be installed said as a warning."""
    from generator.release.maps import download as md

    found = md.fetch_index(md.index_url(index))
    for line in found.skipped:
        click.echo(f"warning: {line}", err=True)
    return found.entries


def _install(entry: IndexEntry, folder: Path, force: bool) -> Path:
    """One map downloaded and installed, with a progress bar on stderr; Ctrl-C leaves nothing."""
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

    from generator.release.maps import download as md

    console = Console(stderr=True)
    bar = Progress(
        TextColumn(entry.folder_name), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
        console=console, transient=True, disable=not console.is_terminal,  # logs get the result line only
    )  # fmt: skip
    task = bar.add_task("download", total=entry.size)

    def advance(done: int, total: int | None) -> None:
        bar.update(task, completed=done, total=total)

    try:
        with bar:
            return md.install(entry, folder, force, advance)
    except KeyboardInterrupt:
        click.echo(f"{entry.folder_name}: interrupted; nothing installed", err=True)
        sys.exit(130)
