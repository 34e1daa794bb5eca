"""Stage 1, load: read spec YAML safely, keeping the position of every key and value.

The loader builds `SpecMap`/`SpecList` (dict/list subclasses) that remember where each entry was
written, so every later stage can point at `file:line:col`. It refuses what a spec never needs and
an attacker might use: duplicate keys, Python tags, and alias expansion beyond a fixed budget.
`!delete` is the one custom tag: it marks an inherited entry for removal (see resolve).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.diagnostics import Diagnostic, Mark

# A spec document never needs more than this many nodes once aliases are expanded; the limit
# stops "billion laughs" documents before any later stage walks the expanded tree.
MAX_EXPANDED_NODES = 2_000_000
MAX_FILE_BYTES = 32 * 1024 * 1024


class Delete:
    """The value of an entry written as `!delete`: remove the inherited entry of that key."""

    _instance: Delete | None = None

    def __new__(cls) -> Delete:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "!delete"


DELETE = Delete()


class SpecMap(dict[str, Any]):
    """A mapping that remembers where each key and each value was written."""

    def __init__(self) -> None:
        super().__init__()
        self.mark: Mark | None = None
        self.key_marks: dict[str, Mark] = {}
        self.value_marks: dict[str, Mark] = {}


class SpecList(list[Any]):
    """A sequence that remembers where it and each item were written."""

    def __init__(self) -> None:
        super().__init__()
        self.mark: Mark | None = None
        self.item_marks: list[Mark] = []


def _mark(node: Node, file: str) -> Mark:
    return Mark(file, node.start_mark.line + 1, node.start_mark.column + 1)


# LibYAML's parser when PyYAML has it (several times faster on big specs), else the pure one.
_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_STR = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_SCALAR_TAGS = {_STR, _INT_TAG, "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}
# A plain scalar starting with none of these characters can only be a string (YAML 1.1 rules).
_MAYBE_NOT_STR = set("0123456789+-.~nNtTfFyYoO=<")


class _SpecLoader(_BaseLoader):  # type: ignore[valid-type,misc]
    """Safe loader that composes only; construction is done by `_Builder` below."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        # Called by the parser for every node; most spec scalars are names, answered at once.
        if kind is ScalarNode:
            if implicit[0] and value and value[0] not in _MAYBE_NOT_STR:
                return _STR
        elif implicit:
            return _MAP if kind is MappingNode else _SEQ
        resolved: str = super().resolve(kind, value, implicit)
        return resolved


class _PureLoader(yaml.SafeLoader):
    """The pure-Python parser: slower, but its syntax errors say more; used to word them."""


def _short_tag(tag: str) -> str:
    return "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml.org,2002:") else tag


def _expanded_size(node: Node, memo: dict[int, int], depth: int = 0) -> int:
    if depth > 200:
        return MAX_EXPANDED_NODES + 1
    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = MAX_EXPANDED_NODES + 1  # a cycle counts as unbounded
    size = 1
    if isinstance(node, SequenceNode):
        for child in node.value:
            size += _expanded_size(child, memo, depth + 1)
    elif isinstance(node, MappingNode):
        for k, v in node.value:
            size += _expanded_size(k, memo, depth + 1) + _expanded_size(v, memo, depth + 1)
    memo[key] = min(size, MAX_EXPANDED_NODES + 1)
    return memo[key]


class _Builder:
    """Turns composed YAML nodes into SpecMap/SpecList/scalars, collecting every problem."""

    def __init__(self, file: str, loader: _SpecLoader) -> None:
        self.file = file
        self.loader = loader
        self.problems: list[Diagnostic] = []

    def build(self, node: Node, path: Any = None) -> Any:
        """`path` is a chain (parent chain, key) built cheaply; it is spelled out only for a problem."""
        if node.tag == "!delete":
            if not (isinstance(node, ScalarNode) and node.value == ""):
                self._problem(node, path, "!delete takes no value")
            return DELETE
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return self._sequence(node, path)
        if isinstance(node, ScalarNode):
            return self._scalar(node, path)
        self._problem(node, path, "unsupported YAML node")
        return None

    def _problem(self, node: Node, path: Any, message: str) -> None:
        from generator.diagnostics import key_path

        parts: list[str] = []
        while path is not None:
            path, key = path
            parts.append(key)
        self.problems.append(Diagnostic(message, _mark(node, self.file), key_path(reversed(parts))))

    def _scalar(self, node: ScalarNode, path: Any) -> Any:
        tag = node.tag
        if tag == _STR:
            return node.value
        if tag == _INT_TAG and node.value.isdigit() and node.value[0] != "0":
            return int(node.value)
        if tag in _SCALAR_TAGS:
            try:
                return self.loader.construct_object(node, deep=True)
            except (yaml.YAMLError, ValueError, TypeError) as exc:  # e.g. `!!int x`
                self._problem(node, path, f"'{node.value}' is not a valid {tag.rsplit(':', 1)[1]}: {exc}")
                return None
        self._problem(node, path, f"tag {_short_tag(node.tag)} is not allowed in a spec")
        return None

    def _sequence(self, node: SequenceNode, path: Any) -> SpecList:
        out = SpecList()
        out.mark = _mark(node, self.file)
        if node.tag not in ("tag:yaml.org,2002:seq",):
            self._problem(node, path, f"tag {_short_tag(node.tag)} is not allowed in a spec")
        for index, child in enumerate(node.value):
            out.append(self.build(child, (path, str(index))))
            out.item_marks.append(_mark(child, self.file))
        return out

    def _mapping(self, node: MappingNode, path: Any) -> SpecMap:
        out = SpecMap()
        out.mark = _mark(node, self.file)
        if node.tag not in ("tag:yaml.org,2002:map",):
            self._problem(node, path, f"tag {_short_tag(node.tag)} is not allowed in a spec")
        self.loader.flatten_mapping(node)  # applies `<<` merge keys
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                self._problem(key_node, path, "a key must be a plain name, not a collection")
                continue
            raw_key = self._scalar(key_node, path)
            if raw_key is None or isinstance(raw_key, bool | float):
                self._problem(key_node, path, f"key {key_node.value!r} must be a name")
                continue
            key = str(raw_key)
            if key in out:
                first = out.key_marks[key]
                self._problem(key_node, (path, key), f"duplicate key (first defined at line {first.line})")
                continue
            out[key] = self.build(value_node, (path, key))
            out.key_marks[key] = _mark(key_node, self.file)
            out.value_marks[key] = _mark(value_node, self.file)
        return out


def load_text(text: str, file: str) -> tuple[Any, list[Diagnostic]]:
    """Parse one YAML document; returns the located tree and every problem found."""
    loader = _SpecLoader(text)
    try:
        root = loader.get_single_node()
    except yaml.YAMLError:
        loader.dispose()
        return None, [_syntax_error(text, file)]
    if root is None:
        return SpecMap(), []
    if "*" in text and _expanded_size(root, {}) > MAX_EXPANDED_NODES:  # no '*', no alias
        return None, [
            Diagnostic(
                f"document expands to more than {MAX_EXPANDED_NODES} nodes through aliases; refusing it",
                _mark(root, file),
            )
        ]
    builder = _Builder(file, loader)
    # Building allocates one container per node and nothing here forms cycles: pausing the
    # cyclic garbage collector meanwhile saves a third of the time on big maps.
    collecting = gc.isenabled()
    gc.disable()
    try:
        tree = builder.build(root)
    finally:
        if collecting:
            gc.enable()
    loader.dispose()
    return tree, builder.problems


def _syntax_error(text: str, file: str) -> Diagnostic:
    """The syntax error as the pure-Python parser words it (clearer than LibYAML's)."""
    loader = _PureLoader(text)
    try:
        loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Mark(file, mark.line + 1, mark.column + 1) if mark else Mark(file, 1, 1)
        problem = exc.problem or str(exc)
        lines = text.splitlines()
        line = lines[where.line - 1] if 0 < where.line <= len(lines) else ""
        if problem.startswith("expected ' '") and "!" in line:
            problem += " (a tag such as !delete needs a space after it: `{capital: !delete }`)"
        return Diagnostic(f"YAML syntax error: {problem}", where)
    except yaml.YAMLError as exc:
        return Diagnostic(f"YAML error: {exc}", Mark(file, 1, 1))
    finally:
        loader.dispose()
    return Diagnostic("YAML syntax error", Mark(file, 1, 1))


def load_file(path: Path, display: str) -> tuple[Any, list[Diagnostic]]:
    """Load one spec file; `display` is the path shown in messages (relative, never absolute)."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [Diagnostic(f"file is larger than {MAX_FILE_BYTES} bytes", Mark(display, 1, 1))]
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return None, [Diagnostic(f"file is not UTF-8 ({exc.reason})", Mark(display, 1, 1))]
    except OSError as exc:
        return None, [Diagnostic(f"cannot read file: {exc.strerror}", Mark(display, 1, 1))]
    return load_text(text, display)
