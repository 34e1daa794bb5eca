"""A variant's balance studies on its pages: the charts `balance` drew of every study that played it.

A study is a folder `balance` wrote (games.jsonl, report.md, the charts); it is the variant's when
one of its records is a game of that variant. Its charts are copied as they are, and the lines that
open its report (one per variant played) said above them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from generator.balance import records
from generator.balance.render import CHARTS
from generator.paths import UnreadableFile, read_regular_file

RECORDS = "games.jsonl"
WORTH = ("worth", "What each rule is worth to the side that holds it")
MAX_CHART = 8 << 20
MAX_REPORT = 16 << 20


@dataclass(frozen=True)
class Chart:
    title: str
    picture: str  # relative to the variant's pages


@dataclass
class Study:
    name: str
    folder: str  # where it is, as given
    lines: list[str] = field(default_factory=list)  # the report's opening lines, one per variant
    charts: list[Chart] = field(default_factory=list)


def study_folders(places: Iterable[Path]) -> list[Path]:
    """Every study in `places`: each place that is one, and each folder in it that is one."""
    found: list[Path] = []
    for place in places:
        if (place / RECORDS).is_file():
            found.append(place)
        elif place.is_dir():
            found += sorted(p for p in place.iterdir() if (p / RECORDS).is_file())
    return found


def _variants(folder: Path) -> set[str]:
    try:
        return {str(r.get("variant")) for r in records.read(folder / RECORDS) if isinstance(r, dict)}
    except (OSError, ValueError):
        return set()  # a study being written, or not one: no charts from it


def _opening(folder: Path) -> list[str]:
    """The report's first list: one line per variant played (and the study's speed, its stopping rule)."""
    try:
        text = read_regular_file(folder / "report.md", MAX_REPORT).decode("utf-8", "replace")
    except UnreadableFile:
        return []
    lines: list[str] = []
    for line in text.splitlines()[1:]:
        if line.startswith("- "):
            lines.append(line[2:])
        elif lines:
            break
    return lines


def studies_of(variant: str, folders: Iterable[Path]) -> tuple[list[Study], dict[str, bytes]]:
    """The studies that played `variant`, and their charts by their path beside its pages."""
    studies: list[Study] = []
    files: dict[str, bytes] = {}
    for folder in folders:
        if variant not in _variants(folder):
            continue
        study = Study(folder.name, str(folder), _opening(folder))
        for figure, title in (*CHARTS, WORTH):
            try:
                data = read_regular_file(folder / f"{figure}.png", MAX_CHART)
            except UnreadableFile:
                continue
            rel = f"balance/{len(studies)}/{figure}.png"
            files[rel] = data
            study.charts.append(Chart(title, rel))
        studies.append(study)
    return studies, files
