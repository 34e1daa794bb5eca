"""Synthetic specs at scale: a Revised-like variant with any number of territories.

    python -m bench.scale 10000 /tmp/big      # writes /tmp/big/rules/big/*.yaml

The players, units, production and turn sequence are those of `rules/revised` (read at run time,
so the synthetic variant follows the real one); the territories are generated on a grid, in
Revised's proportions: about 60% land (owned by one of the five players, production 1-4, about
three units each), 40% sea zones (a quarter of them with a ship), every border listed on both
sides (about five per territory), a capital and a few victory cities per player, and a canal
(a `canalAttachment` on two sea zones) every ~200 territories. The same size always gives the
same bytes.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.spec.dump import dump_yaml

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "rules" / "revised"
PLAYERS = ("Russians", "Germans", "British", "Japanese", "Americans")
# (unit, how many) groups a land territory may hold; about three units on average.
LAND_GROUPS: tuple[dict[str, int], ...] = (
    {"infantry": 3},
    {"infantry": 2, "artillery": 1},
    {"infantry": 2, "armour": 1},
    {"infantry": 1, "armour": 1, "fighter": 1},
    {"infantry": 2, "aaGun": 1},
    {"armour": 2, "bomber": 1},
)
SEA_GROUPS: tuple[dict[str, int], ...] = (
    {"destroyer": 1},
    {"submarine": 1},
    {"transport": 1},
    {"battleship": 1},
    {"carrier": 1, "fighter": 1},
)
BASE_FILES = ("game.yaml", "units.yaml", "sequence.yaml")


@dataclass(frozen=True)
class Synthetic:
    """What was written: the rules folder, the variant and its counts."""

    rules: Path
    variant: str
    territories: int
    land: int
    sea: int
    borders: int
    units: int
    attachments: int


def territories(count: int, seed: int = 9) -> dict[str, dict[str, Any]]:
    """`count` territories on a grid of 4-neighbour borders plus every other diagonal."""
    rng = random.Random(seed * 1_000_003 + count)
    width = max(2, round(count**0.5))
    sea = [rng.random() < 0.4 for _ in range(count)]
    sea[0] = False  # at least one land territory for the first capital
    names = [f"{i} Sea Zone" if sea[i] else f"Land {i}" for i in range(count)]
    borders: list[list[str]] = [[] for _ in range(count)]

    def link(a: int, b: int) -> None:
        borders[a].append(names[b])
        borders[b].append(names[a])

    for i in range(count):
        x, y = i % width, i // width
        if x + 1 < width and i + 1 < count:
            link(i, i + 1)
        if i + width < count:
            link(i, i + width)
        if (x + y) % 2 == 0 and x + 1 < width and i + width + 1 < count:
            link(i, i + width + 1)
    land = [i for i in range(count) if not sea[i]]
    # Five contiguous-ish blocks of land, one per player; the first land territory of each is its capital.
    owner = {i: PLAYERS[min(len(PLAYERS) - 1, k * len(PLAYERS) // max(1, len(land)))] for k, i in enumerate(land)}
    capitals: dict[str, int] = {}
    for i in land:
        capitals.setdefault(owner[i], i)
    capital_of = {i: player for player, i in capitals.items()}
    out: dict[str, dict[str, Any]] = {}
    canal = 0
    for i in range(count):
        entry: dict[str, Any] = {}
        if sea[i]:
            entry["sea"] = True
            if rng.random() < 0.25:
                entry["units"] = {rng.choice(PLAYERS): dict(rng.choice(SEA_GROUPS))}
            # A canal: this sea zone and its right-hand neighbour, when that is sea too, every ~200 territories.
            if i % 200 == 199 and i + 1 < count and sea[i + 1] and (i % width) + 1 < width:
                canal += 1
                shores = sorted(n for n in borders[i] if n.startswith("Land ") and n in borders[i + 1])
                if shores:
                    attachment = {"canalName": f"Canal {canal}", "landTerritories": shores}
                    out.setdefault(names[i + 1], {})["attachments"] = {"canalAttachment": dict(attachment)}
                    entry["attachments"] = {"canalAttachment": attachment}
        else:
            player = owner[i]
            entry["owner"] = player
            entry["production"] = 10 if i in capital_of else rng.randint(1, 4)
            if i in capital_of:
                entry["capital"] = player
                entry["victoryCity"] = 1
            elif len(out) < 30 or rng.random() < 0.08:  # Revised's victory conditions need 12 VCs
                entry["victoryCity"] = 1
            units = dict(rng.choice(LAND_GROUPS))
            if i in capital_of:
                units["factory"] = 1
            entry["units"] = {player: units}
        entry["connections"] = borders[i]
        earlier = out.pop(names[i], {})
        entry.update(earlier)
        out[names[i]] = entry
    return out


def write_rules(folder: Path, count: int, variant: str = "synthetic") -> Synthetic:
    """Write `folder/rules/<variant>/` (revised's players, units and sequence; generated territories)."""
    rules = folder / "rules"
    target = rules / variant
    target.mkdir(parents=True, exist_ok=True)
    for name in BASE_FILES:
        tree = yaml.safe_load((BASE / name).read_text(encoding="utf-8"))
        if name == "game.yaml":
            tree["game"] = {**tree["game"], "name": f"Synthetic {count}", "version": "1.0"}
            tree["notes"] = f"A synthetic Revised-like game of {count} territories (bench/scale.py)."
        _write(target / name, tree)
    land_territories = territories(count)
    _write(target / "territories.yaml", {"territories": land_territories})
    values = land_territories.values()
    sea = sum(1 for t in values if t.get("sea"))
    return Synthetic(
        rules=rules,
        variant=variant,
        territories=count,
        land=count - sea,
        sea=sea,
        borders=sum(len(t["connections"]) for t in values) // 2,
        units=sum(n for t in values for group in t.get("units", {}).values() for n in group.values()),
        attachments=sum(("production" in t) + len(t.get("attachments", {})) for t in values),
    )


def _write(path: Path, tree: dict[str, Any]) -> None:
    # As `import` writes specs: block structure, short leaf collections inline.
    path.write_text(dump_yaml(tree), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.split("\n\n")[0])
    parser.add_argument("territories", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--variant", default="synthetic")
    args = parser.parse_args(argv)
    made = write_rules(args.folder, args.territories, args.variant)
    print(made)
    return 0


if __name__ == "__main__":
    sys.exit(main())
