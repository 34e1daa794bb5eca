"""The `after:`/`before:` moves a child spec writes so that it plays its steps in the imported order.

A child inherits its parent's steps where the parent lists them (a merge keeps the parent's key
order; new steps come last) and with the parent's own moves; `Spec.ordered_steps` then applies
every move, the parent's and the child's, in that merged order. The moves are found by playing
that out: first the few that `order_hints` reads off the parent's play order, and when those do
not give the imported order, a move for every step, each placed beside a step placed before it.
"""

from __future__ import annotations

from typing import Any

from generator.spec.load import DELETE
from generator.spec.model import play_order

Moves = dict[str, dict[str, Any]]


def _merged(parent: dict[str, Any], child_order: list[str], moves: Moves) -> list[tuple[str, Any, Any]]:
    """The steps as the child resolves: (name, after, before), in the merged order."""
    names = [n for n in parent if n in child_order] + [n for n in child_order if n not in parent]
    out = []
    for name in names:
        step = {**_moves_of(parent, name), **moves.get(name, {})}
        step = {k: v for k, v in step.items() if v is not DELETE}
        out.append((name, step.get("after"), step.get("before")))
    return out


def _moves_of(parent: dict[str, Any], name: str) -> dict[str, Any]:
    step = parent.get(name)
    return {k: v for k, v in step.items() if k in ("after", "before")} if isinstance(step, dict) else {}


def plays(parent: dict[str, Any], child_order: list[str], moves: Moves) -> list[str]:
    return play_order(_merged(parent, child_order, moves))


def step_moves(parent: dict[str, Any], child_order: list[str], hints: dict[str, str]) -> Moves:
    """The moves the child writes: `hints` (after: anchor) when they give `child_order`, else one
    per step. `parent` is the parent's resolved `sequence` (its steps with their own moves)."""
    moves: Moves = {step: {"after": anchor} for step, anchor in hints.items()}
    if plays(parent, child_order, moves) == child_order:
        return moves
    # Every step placed in the merged order beside the nearest step of the imported order placed
    # before it: the placed steps then always stand in the imported order among themselves.
    moves, placed = {}, []
    for name, _, _ in _merged(parent, child_order, {}):
        at = child_order.index(name)
        before = [s for s in reversed(child_order[:at]) if s in placed]
        after = [s for s in child_order[at + 1 :] if s in placed]
        inherited = _moves_of(parent, name)
        move: dict[str, Any] = {k: DELETE for k in ("after", "before") if k in inherited}  # the parent's, undone
        if before:
            move["after"] = before[0]
        elif after:
            move["before"] = after[0]
        if move:
            moves[name] = move
        placed.append(name)
    return moves
