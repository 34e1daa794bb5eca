"""Which variants a `check` plays, and the rules of each by the path of the game played: the
rules folder's own (built into the output folder's games/), a game of theirs named by its path,
and the variants triplea-forge ships (built into a temporary folder).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.engine.rule_activity import RuleLine, variant_rules
from generator.spec.resolve import Rules


def played_rules(
    rules: Rules,
    targets: Sequence[str],
    own: Sequence[str],
    others: Sequence[str],
    games_dir: Path,
    shipped: Mapping[str, Path],
) -> dict[Path, list[RuleLine]]:
    """The rules of every variant `targets` play (none named: every variant of the folder), by
    the resolved path of its game: `own` are the folder's variants named, `others` the names
    that are neither its nor shipped (a game's path), `shipped` the shipped ones' built games."""
    paths = {Path(t).resolve() for t in others}
    played = [v for v in rules.variants() if not targets or v in own or (games_dir / f"{v}.xml").resolve() in paths]
    found = variant_rules(rules, played, games_dir)
    for name, game in shipped.items():
        found.update(variant_rules(rules, [name], game.parent))
    return found
