"""What `check` saw each rule do, kept each time it plays a game: the evidence `coverage` shows.

One small JSON file per variant and game played, in the tool's cache (`cache_dir("check")`),
named by the variant and the SHA-256 of the game XML the engine played. Evidence belongs to a
game's bytes, not to a folder: a variant that builds the same game anywhere (a shipped variant
inside a mod repository) finds it, and one edited since, or built from another rules folder,
finds only the check of an earlier build, and is told so. Each game's facts are kept per
attachment (the first round each trigger or objective fired, each action was offered, each was
taken), not per rule: what a rule is comes from the spec `coverage` reads, and which attachments
act for it from that spec too. A record that cannot be read or is not of the shape written here
is ignored, as any cache entry is; failing to write one never fails a check.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from generator.paths import UnreadableFile, cache_dir, read_regular_file

if TYPE_CHECKING:
    from generator.engine.harness_report import GameReport
    from generator.engine.judge import Target, Verdict

RECORD = "triplea-forge check"
VERSION = 1
MAX_RECORD = 4 << 20  # three short lists per game: a record of many games stays far below this
# Records kept per variant, the newest: an edit undone finds the check of its game again.
KEEP = 8
ACTS = ("fired", "offered", "taken")
Attachment = tuple[str, str]  # (name, player): how the engine tells attachments apart
_FILE = re.compile(r"([0-9a-f]{16})-([0-9a-f]{64})\.json")


@dataclass(frozen=True)
class CheckRecord:
    """One check of one game: its options, the rules the game had and what each did, game by game."""

    variant: str
    sha256: str  # of the game XML played
    checked: str  # when, ISO 8601 in UTC
    rounds: int
    ai: str
    seed: int  # of the first game; the others follow
    actions: str
    attachments: frozenset[Attachment]  # every trigger, objective and action the game had
    games: tuple[Mapping[str, Mapping[Attachment, int]], ...]  # per game: act -> attachment -> first round

    def acted(self, act: str, attachments: Iterable[Attachment]) -> tuple[int, int | None]:
        """In how many games any of `attachments` did `act` ("fired", "offered", "taken"), and the
        first round one did (None: never)."""
        mine = set(attachments)
        firsts = [min(r for a, r in game[act].items() if a in mine) for game in self.games if mine & game[act].keys()]
        return len(firsts), min(firsts, default=None)

    @property
    def when(self) -> str:
        """'2025-06-01 14:03 UTC'."""
        return datetime.fromisoformat(self.checked).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def game_digest(path: Path) -> str | None:
    """SHA-256 of a game XML as it is now (None when it cannot be read: nothing is recorded of it)."""
    try:
        with path.open("rb") as file:
            return hashlib.file_digest(file, "sha256").hexdigest()
    except OSError:
        return None


def game_digests(targets: Iterable[Target]) -> dict[Target, str]:
    """Each game's SHA-256, taken before play: the record names the bytes the engine read, even
    when a build replaces the file while the games run."""
    return {t: d for t in targets if (d := game_digest(t.path)) is not None}


def save_records(
    outcomes: Sequence[Verdict], played: Mapping[Target, str], *, rounds: int, ai: str, seed: int, actions: str
) -> None:
    """A record of each game played (`played`: its SHA-256 before play) that reported its rounds."""
    if rounds <= 0:  # a parse alone says nothing of rules in play
        return
    checked = datetime.now(UTC).isoformat(timespec="seconds")
    for target, sha in played.items():
        reports = [o.report for o in outcomes if o.target == target and o.report is not None]
        if not reports:
            continue
        record = {
            "record": RECORD, "version": VERSION, "variant": target.name, "sha256": sha, "checked": checked,
            "rounds": rounds, "ai": ai, "seed": seed, "actions": actions,
            "attachments": sorted(_attachments(reports)), "games": [_firsts(r) for r in reports],
        }  # fmt: skip
        _write(cache_dir("check"), target.name, sha, record)


def _attachments(reports: Sequence[GameReport]) -> set[tuple[str, str]]:
    """The triggers, objectives and actions the engine read (game.rules), and any that acted."""
    found = {(info["name"], info["player"]) for r in reports for info in r.get("game", {}).get("rules", [])}
    for facts in (_firsts(r) for r in reports):
        found |= {(name, player) for act in ACTS for name, player, _ in facts[act]}
    return found


def _firsts(report: GameReport) -> dict[str, list[list[Any]]]:
    """Per act, [name, player, first round] of each attachment that did it in this game; the same
    facts rule_activity counts (an action taken with an error was not taken)."""
    events: dict[str, list[tuple[str, str, int]]] = {act: [] for act in ACTS}
    events["fired"] = [(f["attachment"], f.get("owner", ""), f["round"]) for f in report.get("ruleActivity", [])]
    events["offered"] = [(o["action"], o.get("player") or "", o["round"]) for o in report.get("actionsOpen", [])]
    events["taken"] = [
        (a["action"], a.get("player") or "", a.get("round", 0)) for a in report.get("actionsTaken", [])
        if not a.get("error")
    ]  # fmt: skip
    firsts: dict[str, list[list[Any]]] = {}
    for act, seen in events.items():
        first: dict[tuple[str, str], int] = {}
        for name, player, round_ in seen:
            first[(name, player)] = min(round_, first.get((name, player), round_))
        firsts[act] = [[name, player, r] for (name, player), r in sorted(first.items())]
    return firsts


def _prefix(variant: str) -> str:
    """A variant's part of a record's file name: any name (a game checked by its path) fits."""
    return hashlib.sha256(variant.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _write(folder: Path, variant: str, sha: str, record: Mapping[str, Any]) -> None:
    """Written whole or not at all (a temporary file moved in place), then the oldest beyond KEEP
    of the variant are removed; a cache that cannot be written only loses the evidence."""
    temporary = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".forge-", suffix=".tmp", dir=folder)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(record, file, sort_keys=True)
        os.replace(temporary, folder / f"{_prefix(variant)}-{sha}.json")
        temporary = None
        mine = sorted(_files(folder, _prefix(variant)), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in mine[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


def _files(folder: Path, prefix: str) -> list[Path]:
    """The variant's record files (only names of the form written here: nothing else is touched)."""
    try:
        return [p for p in folder.glob(f"{prefix}-*.json") if (m := _FILE.fullmatch(p.name)) and m[1] == prefix]
    except OSError:
        return []


def evidence(variant: str, sha: str | None) -> tuple[CheckRecord | None, bool]:
    """The record of the check of this very game (and True), else the newest record of the variant
    (of an earlier build: False), else (None, False)."""
    folder, prefix = cache_dir("check"), _prefix(variant)
    if sha is not None:
        exact = read_record(folder / f"{prefix}-{sha}.json", variant)
        if exact is not None:
            return exact, True
    others = [r for p in _files(folder, prefix) if (r := read_record(p, variant)) is not None and r.sha256 != sha]
    return (max(others, key=lambda r: r.checked), False) if others else (None, False)


def read_record(path: Path, variant: str) -> CheckRecord | None:
    """The record at `path`, of `variant` and of the game its name says; None when it is missing,
    unreadable, or of another shape (a foreign or damaged file is no evidence)."""
    named = _FILE.fullmatch(path.name)
    try:
        raw = json.loads(read_regular_file(path, MAX_RECORD).decode("utf-8"))
    except (UnreadableFile, UnicodeDecodeError, ValueError, RecursionError):
        return None
    if named is None or not _well_formed(raw) or raw["variant"] != variant or raw["sha256"] != named[2]:
        return None
    try:
        when = datetime.fromisoformat(raw["checked"])
    except ValueError:
        return None
    games = tuple({act: {(n, p): r for n, p, r in game[act]} for act in ACTS} for game in raw["games"])
    return CheckRecord(
        variant, raw["sha256"], when.astimezone(UTC).isoformat(timespec="seconds"), raw["rounds"], raw["ai"],
        raw["seed"], raw["actions"], frozenset((n, p) for n, p in raw["attachments"]), games,
    )  # fmt: skip


def _well_formed(raw: object) -> TypeGuard[dict[str, Any]]:
    """Whether `raw` has the shape save_records writes, each value of its type."""
    if not isinstance(raw, dict) or raw.get("record") != RECORD or raw.get("version") != VERSION:
        return False
    texts = ("variant", "sha256", "checked", "ai", "actions")
    if not all(isinstance(raw.get(k), str) for k in texts) or not all(_count(raw.get(k)) for k in ("rounds", "seed")):
        return False
    attachments, games = raw.get("attachments"), raw.get("games")
    if not isinstance(attachments, list) or not all(_texts(a, 2) for a in attachments):
        return False
    if not isinstance(games, list) or not games:
        return False
    return all(
        isinstance(g, dict) and all(isinstance(g.get(a), list) and all(_firing(x) for x in g[a]) for a in ACTS)
        for g in games
    )


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(1 << 63) <= value < 1 << 63


def _texts(value: object, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(isinstance(x, str) for x in value)


def _firing(value: object) -> bool:
    """[name, player, round]."""
    return isinstance(value, list) and len(value) == 3 and _texts(value[:2], 2) and _count(value[2])
