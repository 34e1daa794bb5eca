"""Which variant a name on the command line is, by one rule in every command: the rules folder's
own variant of that name, else the variant triplea-forge ships by that name (lhtr, revised...).

Inside a mod repository `check lhtr` and `balance lhtr mymod` play the shipped lhtr as they play
the mod's own variants, as `diff`, `preview`, `validate` and `play` read it. What a command builds
of a shipped variant goes into a temporary folder for the command's length, never into the mod's
output/: that folder holds the mod's own files (its `build --check` would call a shipped game
there stale, its map.yml lists the mod's variants only). `build` and `watch`, which write the
mod's output/, build its own variants only and say so when given a shipped one.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click

from generator.cli.group import _report
from generator.diagnostics import did_you_mean
from generator.spec.resolve import Rules


@dataclass(frozen=True)
class Found:
    """Names sorted by the one rule: the rules folder's own variants, the shipped ones, neither."""

    own: tuple[str, ...]
    shipped: tuple[str, ...]
    neither: tuple[str, ...]


def find_variants(names: Sequence[str], rules: Rules) -> Found:
    """Each name (once, in the order given) as the variant it is: the folder's own first."""
    own = set(rules.variants())
    shipped = set(rules.base_variants())
    unique = list(dict.fromkeys(names))
    return Found(
        tuple(n for n in unique if n in own),
        tuple(n for n in unique if n not in own and n in shipped),
        tuple(n for n in unique if n not in own and n not in shipped),
    )


def unknown_variant(name: str, rules: Rules) -> str:
    """The one message for a name that is no variant: where it was looked for, and what there is."""
    where = f"{rules.display_root}/" + (" or among the variants triplea-forge ships" if rules.bases else "")
    hint = did_you_mean(name, rules.known())
    if not hint:
        own = ", ".join(rules.variants()) or "none"
        hint = f" ({rules.display_root}/: {own}; shipped: {', '.join(rules.base_variants())})" if rules.bases else ""
        hint = hint or f" (variants: {own})"
    return f"no variant '{name}' in {where}{hint}"


def refuse_unknown_games(names: Sequence[str], rules: Rules, games_dir: Path) -> None:
    """UsageError for a name that is neither a variant nor a game: a game XML by its path, or one
    built before into `games_dir`, is played; anything else is a mistake, said before any build."""
    for name in names:
        if not (name.endswith(".xml") or "/" in name or Path(name).is_file() or (games_dir / f"{name}.xml").is_file()):
            raise click.UsageError(unknown_variant(name, rules))


def refuse_shipped(names: Sequence[str], rules: Rules, command: str, output: str) -> None:
    """UsageError when a command that writes the folder's own output is given a shipped variant."""
    shipped = find_variants(names, rules).shipped
    if shipped:
        one = len(shipped) == 1
        them = ", ".join(shipped)
        raise click.UsageError(
            f"{them} {'is a variant' if one else 'are variants'} triplea-forge ships, not in {rules.display_root}/: "
            f"{command} writes {output}/ for this folder's own variants ({', '.join(rules.variants()) or 'none'}); "
            f"check, balance, play, preview, diff and validate take {them} as {'it is' if one else 'they are'}"
        )


@contextmanager
def shipped_games(names: Sequence[str], rules: Rules) -> Iterator[dict[str, Path]]:
    """Each shipped variant named, compiled as `build` compiles it, by its game XML in a temporary
    folder that is removed when the command is done."""
    if not names:
        yield {}
        return
    from generator.emit.outputs import compile_side_by_side

    # No board check: the shipped variants are checked against their map where they are made.
    outcomes = compile_side_by_side(rules, list(names), "portable", None, 1)
    _report([problem for outcome in outcomes for problem in outcome.problems])
    with tempfile.TemporaryDirectory(prefix="triplea-forge-shipped-") as work:
        games: dict[str, Path] = {}
        for outcome in outcomes:
            games[outcome.name] = Path(work) / f"{outcome.name}.xml"
            games[outcome.name].write_bytes(outcome.files[f"games/{outcome.name}.xml"])
        click.echo(f"{', '.join(names)}: shipped with triplea-forge, built into a temporary folder", err=True)
        yield games


def built_games(found: Found, rules: Rules, output_dir: Path, *, every: bool = False) -> dict[str, Path]:
    """Never a stale game: the folder's own variants found (with `every`, all of its variants when
    none is named) built into OUTPUT/games/ as `build` builds them, each shipped one into a temporary
    folder that lives as long as the command; the shipped ones' games by name."""
    from generator.cli.authoring import build_variants

    if found.own or (every and rules.variants()):
        build_variants(found.own, False, False, "portable", rules.root, output_dir)
    return click.get_current_context().with_resource(shipped_games(found.shipped, rules))
