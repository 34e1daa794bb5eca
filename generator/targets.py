"""The engines a game is made for, spelled once: a spec's `game.target`, every command's `--target`
and every check read this type; the engines themselves (`EngineName`) the catalogs describe."""

from __future__ import annotations

from typing import Literal, get_args

# portable: both TripleA 1.9 and 2.x; "1.9" or "2.x": that engine alone.
Target = Literal["portable", "1.9", "2.x"]
TARGETS: tuple[Target, ...] = get_args(Target)
# An engine the catalogs describe and a game is checked against; a target names one or both.
EngineName = Literal["1.9", "2.x"]
ENGINES: tuple[EngineName, ...] = get_args(EngineName)
TARGET_ENGINES: dict[Target, tuple[EngineName, ...]] = {"1.9": ("1.9",), "2.x": ("2.x",), "portable": ENGINES}
