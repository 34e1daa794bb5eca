"""Stage 1, load: read spec YAML safely, keeping the position of every key and value.

The loader builds `SpecMap`/`SpecList` (dict/list subclasses) that remember where each entry was
written, so every later stage can point at `file:line:col`. It refuses what a spec never needs and
an attacker might use: duplicate keys, Python tags, alias expansion beyond a fixed budget, nesting
beyond a fixed depth, characters YAML forbids, numbers of absurd length, and files that are not
regular files. Plain scalars are read as YAML 1.2's core schema: `1:30`, `yes` and `0b1` are
text, not the numbers and booleans YAML 1.1 makes of them. `!delete` is the one custom tag: it
marks an inherited entry for removal (see resolve).
"""

from __future__ import annotations

import gc
import hashlib
import re
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.diagnostics import Diagnostic, Mark, key_path
from generator.paths import UnreadableFile, read_regular_file
from generator.spec.yaml_limits import (
    MAX_DEPTH,
    SURROGATE,
    TOO_DEEP,
    deepest,
    forbidden_characters,
    too_deep,
    too_deep_for_libyaml,
    yaml_position,
)
from generator.spec.yaml_words import explain

# A spec document never needs more than this many nodes once aliases are expanded; the limit
# stops "billion laughs" documents before any later stage walks the expanded tree.
MAX_EXPANDED_NODES = 2_000_000
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_NUMBER_CHARS = 100  # TripleA reads 32-bit integers; 100 digits is already nonsense


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
    return yaml_position(node.start_mark, file)


# LibYAML's parser when PyYAML has it (several times faster on big specs), else the pure one.
_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_STR = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT, _BOOL, _NULL = "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_SCALAR_TAGS = {_STR, _INT_TAG, _FLOAT, _BOOL, _NULL}
# YAML 1.2 core schema: what a plain scalar is, tried in this order; anything else is text.
_CORE = (
    (_NULL, re.compile(r"~|null|Null|NULL|")),
    (_BOOL, re.compile(r"true|True|TRUE|false|False|FALSE")),
    (_INT_TAG, re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")),
    (_FLOAT, re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")),
    (_FLOAT, re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")),
    (_MERGE, re.compile(r"<<")),
)
_BAD_MERGE = "`<<` merges a mapping (or a list of mappings) into this one; give it one"
# A plain scalar starting with none of these characters can only be text.
_MAYBE_NOT_STR = set("0123456789+-.~nNtTfF<")


def plain_scalar_tag(value: str) -> str:
    """The tag a plain (unquoted) scalar gets in a spec: YAML 1.2 core, plus the `<<` merge key."""
    if value and value[0] not in _MAYBE_NOT_STR:
        return _STR
    for tag, pattern in _CORE:
        if pattern.fullmatch(value):
            return tag
    return _STR


class _SpecLoader(_BaseLoader):  # type: ignore[valid-type,misc]
    """Safe loader that composes only; construction is done by `_Builder` below."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        # Called by the parser for every node; most spec scalars are names, answered at once.
        if kind is ScalarNode:
            if implicit[0]:
                return plain_scalar_tag(value)
            if implicit[1]:
                return _STR
        elif implicit:
            return _MAP if kind is MappingNode else _SEQ
        resolved: str = super().resolve(kind, value, implicit)
        return resolved


class _PureLoader(yaml.SafeLoader):
    """The pure-Python parser: slower, but its syntax errors say more; used to word them."""

    resolve = _SpecLoader.resolve


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


_COLLECTIONS = (MappingNode, SequenceNode)


class _Builder:
    """Turns composed YAML nodes into SpecMap/SpecList/scalars, collecting every problem."""

    def __init__(self, file: str, loader: yaml.SafeLoader, escapes: bool = True) -> None:
        self.file = file
        self.loader = loader
        # Whether the text has a \u or \U escape, the only way a scalar can hold a lone surrogate
        # (the text itself may not: forbidden_characters): without one, no scalar is searched.
        self.escapes = escapes
        self.problems: list[Diagnostic] = []
        self.depth = 0

    def build(self, node: Node, path: Any = None) -> Any:
        """`path` is a chain (parent chain, key) built cheaply; it is spelled out only for a problem."""
        if isinstance(node, _COLLECTIONS):
            if self.depth >= MAX_DEPTH:
                # no key path: it would be MAX_DEPTH keys long; the line and column say where
                self.problems.append(Diagnostic(TOO_DEEP, _mark(node, self.file)))
                return None
            self.depth += 1
            try:
                return self._mapping(node, path) if isinstance(node, MappingNode) else self._sequence(node, path)
            finally:
                self.depth -= 1
        if node.tag == "!delete":
            if not (isinstance(node, ScalarNode) and node.value == ""):
                self._problem(node, path, "!delete takes no value")
            return DELETE
        if isinstance(node, ScalarNode):
            return self._scalar(node, path)
        self._problem(node, path, "unsupported YAML node")
        return None

    def _problem(self, node: Node, path: Any, message: str) -> None:
        parts: list[str] = []
        while path is not None:
            path, key = path
            parts.append(key)
        self.problems.append(Diagnostic(message, _mark(node, self.file), key_path(reversed(parts))))

    def _scalar(self, node: ScalarNode, path: Any) -> Any:
        tag, value = node.tag, node.value
        if tag == _STR:
            if self.escapes and SURROGATE.search(value):  # only an escape such as "\ud800" can make one
                self._problem(node, path, "half of a character (a lone surrogate escape such as \\ud800); remove it")
                return None
            return value
        if tag in _SCALAR_TAGS and len(value) > MAX_NUMBER_CHARS:
            self._problem(node, path, f"number too long ({len(value)} characters); TripleA reads 32-bit integers")
            return None
        if tag == _INT_TAG and node.style is None and plain_scalar_tag(value) == _INT_TAG:
            digits = value.lstrip("+-")
            base = 16 if digits.startswith("0x") else 8 if digits.startswith("0o") else 10
            number = int(digits[2:] if base != 10 else digits, base)
            return -number if value.startswith("-") else number
        if tag == _NULL and node.style is None:
            return None
        if tag == _BOOL and node.style is None:
            return value.lower() == "true"
        if tag == _FLOAT and node.style is None and plain_scalar_tag(value) == _FLOAT:
            return float(value.replace(".", "", 1)) if value.lower().lstrip("+-") in (".inf", ".nan") else float(value)
        if tag in _SCALAR_TAGS:  # an explicit tag: `!!int "5"`
            try:
                return self.loader.construct_object(node, deep=True)
            except (yaml.YAMLError, ValueError, TypeError) as exc:  # e.g. `!!int x`
                self._problem(node, path, f"'{value}' is not a valid {tag.rsplit(':', 1)[1]}: {exc}")
                return None
        self._problem(node, path, f"tag {_short_tag(node.tag)} is not allowed in a spec")
        return None

    def _sequence(self, node: SequenceNode, path: Any) -> SpecList:
        out = SpecList()
        out.mark = self._at(node)
        if node.tag not in ("tag:yaml.org,2002:seq",):
            self._problem(node, path, f"tag {_short_tag(node.tag)} is not allowed in a spec")
        for index, child in enumerate(node.value):
            out.append(self.build(child, (path, str(index))))
            out.item_marks.append(self._at(child))
        return out

    def _mapping(self, node: MappingNode, path: Any) -> SpecMap:
        out = SpecMap()
        out.mark = self._at(node)
        if node.tag not in ("tag:yaml.org,2002:map",):
            self._problem(node, path, f"tag {_short_tag(node.tag)} is not allowed in a spec")
        try:
            self.loader.flatten_mapping(node)  # applies `<<` merge keys
        except yaml.YAMLError:
            self._problem(node, path, _BAD_MERGE)
            node.value = [(k, v) for k, v in node.value if k.tag != _MERGE]
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
            out.key_marks[key] = self._at(key_node)
            out.value_marks[key] = self._at(value_node)
        return out

    def _at(self, node: Node) -> Mark:
        """`_mark(node, self.file)`, inlined: one for each node and key (tens of thousands in a big spec)."""
        start = node.start_mark
        return Mark(self.file, start.line + 1, start.column + 1) if start else Mark(self.file, 1, 1)


def load_text(text: str, file: str) -> tuple[Any, list[Diagnostic]]:
    """Parse one YAML document; returns the located tree and every problem found."""
    forbidden = forbidden_characters(text, file)
    if forbidden:
        return None, forbidden
    deep = too_deep(text, file, _SpecLoader)
    if deep is not None:
        return None, [deep]
    loader: yaml.SafeLoader = _SpecLoader(text)
    try:
        root = loader.get_single_node()
    except yaml.YAMLError as exc:
        loader.dispose()
        deep = too_deep_for_libyaml(exc, text, file, _SpecLoader)
        if deep is not None:
            return None, [deep]
        # LibYAML refuses a few things the YAML spec allows (escapes of lone surrogates...):
        # where the pure parser reads the document, build from its nodes and say what is wrong.
        loader = _PureLoader(text)
        try:
            root = loader.get_single_node()
        except (yaml.YAMLError, RecursionError) as exc:
            loader.dispose()
            return None, [_syntax_error(exc, text, file)]
    if root is None:
        return SpecMap(), []
    if "*" in text and _expanded_size(root, {}) > MAX_EXPANDED_NODES:  # no '*', no alias
        return None, [
            Diagnostic(
                f"document expands to more than {MAX_EXPANDED_NODES} nodes through aliases; refusing it",
                _mark(root, file),
            )
        ]
    builder = _Builder(file, loader, escapes="\\u" in text or "\\U" in text)
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
    if any(p.message == TOO_DEEP for p in builder.problems):
        return None, builder.problems  # what is left of such a document means nothing
    return tree, builder.problems


def _syntax_error(exc: Exception, text: str, file: str) -> Diagnostic:
    """The pure-Python parser's error EXC, as it words it (clearer than LibYAML's)."""
    if isinstance(exc, RecursionError):  # the pure composer recursed; its events do not
        return deepest(text, file, _PureLoader) or Diagnostic(TOO_DEEP, Mark(file, 1, 1))
    if not isinstance(exc, yaml.MarkedYAMLError):
        return Diagnostic(f"YAML error: {exc}", Mark(file, 1, 1))
    mark = exc.problem_mark or exc.context_mark
    where = yaml_position(mark, file)
    lines = text.splitlines()
    line = lines[where.line - 1] if 0 < where.line <= len(lines) else ""
    opened = exc.context_mark.line + 1 if exc.context_mark and exc.problem_mark else None
    opened = opened if opened != where.line else None
    words = explain(exc.problem or str(exc), exc.context, opened, line)
    return Diagnostic(f"YAML syntax error: {words}", where)


def decode_spec(data: bytes, display: str) -> tuple[str | None, list[Diagnostic]]:
    """The text of a spec file, or where it stops being UTF-8."""
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = len(data[data.rfind(b"\n", 0, exc.start) + 1 : exc.start].decode("utf-8", "replace")) + 1
        return None, [
            Diagnostic(f"the file is not UTF-8 here ({exc.reason}); save it as UTF-8", Mark(display, line, col))
        ]


def load_file(path: Path, display: str, digests: dict[Path, str] | None = None) -> tuple[Any, list[Diagnostic]]:
    """Load one spec file; `display` is the path shown in messages (relative, never absolute).

    With `digests`, the SHA-256 of the bytes read is recorded under `path`: what a build made
    is then keyed by what it read, even when the file changes while the build runs.
    """
    try:
        data = read_regular_file(path, MAX_FILE_BYTES)
    except UnreadableFile as exc:
        return None, [Diagnostic(str(exc), Mark(display, 1, 1))]
    if digests is not None:
        digests[path] = hashlib.sha256(data).hexdigest()
    text, problems = decode_spec(data, display)
    if text is None:
        return None, problems
    return load_text(text, display)
