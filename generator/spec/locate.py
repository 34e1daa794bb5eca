"""Find where a key path of the resolved spec was written (the file that set it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


def node_at(tree: Any, path: Sequence[Any]) -> Any:
    """The value at `path` of a (resolved or raw) spec tree, or None where the path leaves it."""
    node = tree
    for part in path:
        if (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        ):
            node = node[part]
        else:
            return None
    return node


def written_by(
    tree: Any, path: Sequence[str | int], own: Callable[[Mark], bool]
) -> tuple[Mark, tuple[str, ...]] | None:
    """Where a variant itself wrote the part of `path` that changed what it inherits, or None.

    `path` is the place of a problem located in an ancestor's file, which the ancestor alone does
    not have: something the variant wrote (`own` tells its marks) made it. That is, first, an
    entry on the path the variant changed (a unit it made a sea unit, whose inherited isAir now
    clashes), else an entry named on the path that it wrote or changed (the unit a placement
    names, a unit named like an inherited player). Returns the mark of what it wrote there (the
    value it changed, or the name of an entry it added) and that place's key path.
    """
    nodes = [tree]
    for part in path:
        node = nodes[-1]
        if isinstance(node, SpecMap) and str(part) in node:
            nodes.append(node[str(part)])
        elif isinstance(node, SpecList) and isinstance(part, int) and 0 <= part < len(node):
            nodes.append(node[part])
        else:
            break
    # Entries on the path, the deepest first (not a whole collection: any of its entries would do).
    for depth in range(len(nodes) - 1, 1, -1):
        holder, key = nodes[depth - 1], path[depth - 1]
        found = _own_part(holder, str(key), own) if isinstance(holder, SpecMap) else None
        if found is not None:
            return found[0], (*(str(p) for p in path[: depth - 1]), *found[1])
    if isinstance(tree, SpecMap):
        for part in reversed(path):
            for collection, entries in tree.items():
                if isinstance(entries, SpecMap) and isinstance(part, str) and part in entries:
                    found = _own_part(entries, part, own)
                    if found is not None:
                        return found[0], (collection, *found[1])
    return None


def _own_part(holder: SpecMap, key: str, own: Callable[[Mark], bool]) -> tuple[Mark, tuple[str, ...]] | None:
    """What the variant wrote of `holder[key]`: the entry's name when it is wholly the variant's, else
    the first key it changed in it (a mapping merged with the inherited one), else None."""
    mark = holder.value_marks.get(key)
    if mark is None or not own(mark):
        return None
    node = holder[key]
    if isinstance(node, SpecMap) and any(not own(m) for m in node.value_marks.values()):
        for inner in node:
            found = _own_part(node, inner, own)
            if found is not None:
                return found[0], (key, *found[1])
    if isinstance(node, SpecMap | SpecList):
        return holder.key_marks.get(key, mark), (key,)
    return mark, (key,)
