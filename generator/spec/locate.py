"""Find where a key path of the resolved spec was written (the file that set it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generator.diagnostics import Mark
from generator.spec.load import SpecList, SpecMap


def locate(tree: Any, path: Sequence[str | int], *, key: bool = False) -> Mark | None:
    """Mark of the value at `path` (of its key when `key`), or of the deepest ancestor that exists."""
    node = tree
    best: Mark | None = getattr(tree, "mark", None)
    for index, part in enumerate(path):
        last = index == len(path) - 1
        if isinstance(node, SpecMap) and str(part) in node:
            name = str(part)
            best = node.key_marks[name] if (last and key) else node.value_marks[name]
            node = node[name]
        elif isinstance(node, SpecList) and isinstance(part, int) and 0 <= part < len(node):
            best = node.item_marks[part]
            node = node[part]
        else:
            break
    return best
