"""A mutation sweep's record (output/mutation/<variant>.json) read as a file from elsewhere.

The record is committed with the variant, so it goes through merges: a conflict left in it, a
hand edit, a record of another shape. Each is said at its place in one line (exit 1), never
raised as a JSON or type error (exit 3), and the record is read against a size cap.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator.diagnostics import Diagnostic, ForgeError, Mark, key_path
from generator.paths import UnreadableFile, read_regular_file

MAX_RECORD = 64 << 20  # the biggest sweep records are a few hundred kB
_AGAIN = "sweep again (coverage VARIANT --mutate) or take the record from git"
_COUNTS = ("mutants", "killed", "same_game", "stillborn")
_LISTS = ("survivors", "equivalent")
_CONFLICT = ("<<<<<<< ", "=======", ">>>>>>> ", "||||||| ")


def _refuse(shown: str, message: str, line: int = 0, col: int = 0) -> ForgeError:
    if line:
        return ForgeError([Diagnostic(f"{message}; {_AGAIN}", Mark(shown, line, col))])
    return ForgeError([Diagnostic(f"{shown}: {message}; {_AGAIN}")])


def read_record(path: Path, shown: str) -> dict[str, Any]:
    """The record at `path` (named `shown` in messages), checked to be of the shape a sweep writes."""
    try:
        data = read_regular_file(path, MAX_RECORD)
    except UnreadableFile as exc:
        raise _refuse(shown, f"cannot be read as a mutation record ({exc})") from exc
    text = data.decode("utf-8", "replace")
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(_CONFLICT):
            raise _refuse(shown, "a git merge conflict is left in the mutation record", number, 1)
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _refuse(shown, f"not a mutation record: {exc.msg}", exc.lineno, exc.colno) from exc
    if not isinstance(record, dict):
        raise _refuse(shown, "not a mutation record (a JSON object of variant, fingerprint and entries)")
    problem = _shape_problem(record)
    if problem is not None:
        raise _refuse(shown, problem)
    return record


def _shape_problem(record: dict[str, Any]) -> str | None:
    """Where the record is not what a sweep writes (sweep.SweepResult.as_json), or None."""
    if not isinstance(record.get("fingerprint", ""), str):
        return "fingerprint: is not a text"
    entries = record.get("entries", {})
    if not isinstance(entries, dict):
        return "entries: is not a mapping of rule ids to results"
    problem = _counts_problem(record.get("operators", {}), ["operators"], nested=True)
    if problem is not None:
        return problem
    for rule_id, result in entries.items():
        if not isinstance(result, dict):
            return f"{key_path(['entries', rule_id])}: is not a mapping of counts and lists"
        problem = _counts_problem(result.get("operators", {}), ["entries", rule_id, "operators"])
        if problem is not None:
            return problem
        for name in _COUNTS:
            value = result.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                return f"{key_path(['entries', rule_id, name])}: {value!r:.40} is not a count"
        for name in _LISTS:
            value = result.get(name, [])
            if not isinstance(value, list) or not all(isinstance(edit, str) for edit in value):
                return f"{key_path(['entries', rule_id, name])}: is not a list of edits"
    return None


def _counts_problem(counts: Any, where: list[str], *, nested: bool = False) -> str | None:
    """Where the mutants counted per operator are not counts (NESTED: a mapping of counts each)."""
    if not isinstance(counts, dict):
        return f"{key_path(where)}: is not a mapping of operators"
    for operator, value in counts.items():
        if nested:
            problem = _counts_problem(value, [*where, operator])
            if problem is not None:
                return problem
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"{key_path([*where, operator])}: {value!r:.40} is not a count"
    return None
