"""`triplea-forge site` and `serve`: a variant's pages, written into a folder or served while you edit."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import BOARD_OPTION, RULES_OPTION, _display, _report, cli
from generator.cli.watch import INTERVAL_OPTION, STOP_AFTER_OPTION
from generator.errors import TripleaForgeError

if TYPE_CHECKING:
    from generator.release.site.build import Built, SiteBuilder
    from generator.release.site.serve import LiveSite
    from generator.spec.resolve import Rules

STUDIES_OPTION = click.option(
    "--studies",
    "studies",
    multiple=True,
    default=[Path("output/balance"), Path("balance")],
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folders of balance studies (or a study's own folder): each variant shows the charts of every study "
    "that played it. Repeat for several.",
)
Say = Callable[[str], None]
MUTATION_OPTION = click.option(
    "--mutation-results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("output/mutation"),
    show_default=True,
    help="Folder of the mutation sweep's <variant>.json, for the ledger's mutation score (as coverage reads it).",
)


def _names(variants: tuple[str, ...], rules: Rules) -> list[str]:
    """The variants named (the folder's own, else one triplea-forge ships), or every one of the folder."""
    from generator.cli.targets import find_variants, unknown_variant

    if not variants:
        if not rules.variants():
            raise TripleaForgeError(f"no variant in {rules.display_root}/ (start one: triplea-forge new NAME)")
        return rules.variants()
    neither = find_variants(variants, rules).neither
    if neither:
        raise click.BadParameter(unknown_variant(neither[0], rules), param_hint="VARIANTS")
    return list(dict.fromkeys(variants))


def _builder(rules_dir: Path, base_map: Path | None, studies: tuple[Path, ...], mutation: Path) -> SiteBuilder:
    from generator.installed_map import MapLookup
    from generator.release.site.build import Settings, SiteBuilder
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    return SiteBuilder(rules, Settings(MapLookup(base_map=base_map), studies, mutation))


def _size(data: int) -> str:
    return f"{data / (1 << 20):.1f} MB" if data >= 1 << 20 else f"{data / 1024:.0f} kB"


@cli.command()
@click.argument("variants", nargs=-1)
@click.option(
    "-o",
    "--out",
    default="site",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of the pages: it holds the site alone (a page of a variant no longer built is removed).",
)
@click.option("--force", is_flag=True, help="Write into --out though it holds files that are not a site of ours.")
@STUDIES_OPTION
@MUTATION_OPTION
@BOARD_OPTION
@RULES_OPTION
def site(
    variants: tuple[str, ...],
    out: Path,
    force: bool,
    studies: tuple[Path, ...],
    mutation_results: Path,
    base_map: Path | None,
    rules_dir: Path,
) -> None:
    """Write the pages of VARIANTS (default: every variant of the rules folder) into --out.

    Per variant: the board at the start (pointing at a territory shows its owner, production,
    victory city, starting units and the YAML file:line that writes it), the units of each nation
    with their pictures and numbers, the rules of each nation in words, what changed from the
    variant it extends (as `diff` says it, and on the board), the rule ledger with each rule's
    grade, proof and what the last `check` saw it do, and the charts of its balance studies. An
    index lists the variants. The pages need no server and nothing from the web: open
    OUT/index.html, or publish the folder (the mod's CI does, on GitHub Pages).
    """
    from generator.release.site.build import site_files
    from generator.release.site.output import write_site

    builder = _builder(rules_dir, base_map, studies, mutation_results)
    built, problems = [], []
    for name in _names(variants, builder.rules):
        item, found = builder.variant(name)
        problems += found
        if item is not None:
            built.append(item)
    _report(problems)
    for line in builder.settings.maps.board_lines():
        click.echo(line, err=True)
    written, removed = write_site(out, site_files(built), force, _display(out))
    for item in built:
        size = sum(len(data) for data in item.files.values())
        click.echo(f"{_display(out)}/{item.name}/: {len(item.files)} files, {_size(size)}")
    changed = f"{len(written)} file{'s' if len(written) != 1 else ''} changed, {len(removed)} removed"
    click.echo(f"wrote {_display(out)}/ ({changed}): open {_display(out)}/index.html")


def _publish(
    builder: SiteBuilder,
    names: list[str],
    built: dict[str, Built],
    failing: dict[str, list[str]],
    live: LiveSite,
    folders: set[str] | None,
) -> None:
    """`serve`: the variants that read a changed folder (all: None), and those that failed (their
    chain may have changed), built again (`_rebuild`); the pages served are then the new ones."""
    from generator.release.site.build import site_files

    if folders is not None:
        builder.forget(folders)
    again = [n for n in names if folders is None or n not in built or n in failing or folders & set(built[n].chain)]
    _rebuild(builder, again, built, failing, click.echo)
    mistakes = [m for n in names for m in failing.get(n, [])]
    live.update(site_files([built[n] for n in names if n in built]), mistakes)


def _rebuild(
    builder: SiteBuilder, names: list[str], built: dict[str, Built], failing: dict[str, list[str]], say: Say
) -> None:
    """Build `names` again: a variant that builds replaces its pages, one that fails keeps its last good
    ones and is listed in `failing` with its mistakes (each at its file:line) until it builds."""
    from generator.diagnostics import Diagnostic, Severity

    for name in names:
        started = time.perf_counter()
        item, problems = builder.variant(name)
        took = time.perf_counter() - started
        errors = sorted({p for p in problems if p.severity is Severity.ERROR}, key=Diagnostic.sort_key)
        if item is not None:
            built[name] = item
            failing.pop(name, None)
        else:
            failing[name] = [str(p) for p in errors] or [f"{name}: no pages (see the terminal)"]
        state = "built" if item is not None else f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
        say(f"  {name}: {state} ({took:.2f} s)")
        for problem in sorted(set(problems), key=Diagnostic.sort_key):
            say(f"    {problem}")


@cli.command()
@click.argument("variants", nargs=-1)
@click.option("--port", default=0, type=click.IntRange(0, 65535), help="Port on 127.0.0.1 (default: a free one).")
@INTERVAL_OPTION
@STOP_AFTER_OPTION
@STUDIES_OPTION
@MUTATION_OPTION
@BOARD_OPTION
@RULES_OPTION
def serve(
    variants: tuple[str, ...],
    port: int,
    interval: float,
    cycles: int,
    studies: tuple[Path, ...],
    mutation_results: Path,
    base_map: Path | None,
    rules_dir: Path,
) -> None:
    """Serve the pages of VARIANTS (default: every variant of the rules folder) on 127.0.0.1, rebuilt on every save.

    The pages `site` writes, from memory: a save rebuilds the variants that read the changed folder
    (as `watch` does) and the page open in the browser reloads itself. A mistake shows at the top of
    every page at its file:line, and the pages stay those of the last good build. Ctrl-C stops.
    """
    from generator.release.site.serve import HOST, LiveSite, start_server
    from generator.spec.follow import follow, snapshot

    builder = _builder(rules_dir, base_map, studies, mutation_results)
    names = _names(variants, builder.rules)
    live = LiveSite()
    server = start_server(live, port)
    built: dict[str, Built] = {}
    failing: dict[str, list[str]] = {}
    try:
        click.echo(f"serving http://{HOST}:{server.server_address[1]}/ (Ctrl-C stops)")
        last = snapshot(rules_dir)
        _publish(builder, names, built, failing, live, None)
        for line in builder.settings.maps.board_lines():
            click.echo(line)
        changed = partial(_publish, builder, names, built, failing, live)
        follow(rules_dir, last, interval, cycles, changed, click.echo)
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.shutdown()
        server.server_close()
