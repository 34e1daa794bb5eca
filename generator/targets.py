"""The engines a game is made for, spelled once: a spec's `game.target`, every command's `--target`
and every check read this type."""

from __future__ import annotations

from typing import Literal, get_args

# portable: both TripleA 1.9 and 2.x; "1.9" or "2.x": that engine alone.
Target = Literal["portable", "1.9", "2.x"]
TARGETS: tuple[Target, ...] = get_args(Target)
