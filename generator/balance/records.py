"""One balance record per game: the harness's play report cut down to what a study compares.

Records are JSON Lines (one game per line, streamed as each game finishes, then rewritten in the
study's order): a study of thousands of games streams to disk and survives an interrupted run, a
line holds the nested per-round figures without flattening, any tool reads it (``jq``,
``pandas.read_json(lines=True)``), and it needs no library the tool does not already have
(Parquet would add pyarrow, about 100 MB, for files that stay a few MB).

Layout of a record::

    {variant, seed, ai, actions, rounds, roundsCompleted, gameOver, winners [player],
     winningSide, sides {player: side}, seconds, cpuSeconds, errors [text],
     perRound [{round, players {player: {income, pus, tuv, territories, victoryCities, units,
                                         unitTypes {type: n}}}}],
     unitCosts {player: {type: PUs}} (at the start of the game: what TUV is priced with),
     actionsOpen [{round, step, player, action}] (each action open at a step the policy played),
     actionsTaken [{round, step, player, action, kind, pusSpent, error}],
     replans [{round, step, player, kind (purchase|placement), refused, asked, bought, preempted | placed,
       units}] (every purchase the harness re-planned, before the engine saw it when preempted, and
       every placement it made elsewhere, as `check` notes them),
     deliveries {unit: {granted, delivered, lost, waiting, atSea}} (the units the rules pay for on
       delivery, lend-lease tokens: paid, sunk, still on their way at the end, of which at sea)}

`seconds` is the game's wall time, `cpuSeconds` the CPU its JVM used (every thread, the JIT and
the collector too) since the game before it in that JVM reported (the first game of a JVM carries
its start); null where the engine did not say.
Round 0 is the start of the game, round r the state after round r; a game won inside round r has
its board at the end as round r (the harness's "end"), so its final state is known. Every player is
in every round (one knocked out holds 0 of everything). A side is the alliance a player is in
(alliances joined with "+" where the game puts a player in several).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from generator.paths import open_output

Record = dict[str, Any]

DELIVERY_COUNTS = ("granted", "delivered", "lost", "waiting", "atSea")
FIGURES = ("income", "pus", "tuv", "territories", "victoryCities", "units")  # the numbers per player and round


def side_of(alliances: Iterable[str], player: str) -> str:
    names = sorted(alliances)
    return "+".join(names) if names else player


def _figures(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {
        "income": int(snapshot.get("income", 0)),
        "pus": int(snapshot.get("resources", {}).get("PUs", 0)),
        "tuv": int(snapshot.get("tuv", 0)),
        "territories": int(snapshot.get("territories", 0)),
        "victoryCities": int(snapshot.get("victoryCities", 0)),
        "units": sum(int(n) for n in snapshot.get("units", {}).values()),
        "unitTypes": {str(t): int(n) for t, n in sorted(snapshot.get("units", {}).items())},
    }


def from_report(variant: str, seed: int, actions: str, report: dict[str, Any]) -> Record:
    """The record of one played game (its play report as the harness wrote it)."""
    players = report.get("game", {}).get("players", [])
    sides = {p["name"]: side_of(p.get("alliances", []), p["name"]) for p in players}
    per_round = []
    if report.get("start"):
        per_round.append({"round": 0, "players": {n: _figures(s) for n, s in report["start"].items()}})
    for entry in report.get("rounds", []):
        per_round.append({"round": entry["round"], "players": {n: _figures(s) for n, s in entry["players"].items()}})
    winners = list(report.get("winners", []))
    end, reported = report.get("end"), per_round[-1]["round"] if per_round else 0
    if winners and report.get("gameOver") and end and end.get("round", 0) > reported:
        per_round.append({"round": end["round"], "players": {n: _figures(s) for n, s in end["players"].items()}})
    winning = sorted({sides.get(w, w) for w in winners})
    errors = [e.get("message", "") for e in report.get("errors", [])]
    if report.get("parse", {}).get("error"):
        errors.insert(0, report["parse"]["error"])
    taken = [
        {k: a.get(k) for k in ("round", "step", "player", "action", "kind", "pusSpent", "error")}
        for a in report.get("actionsTaken", [])
    ]
    opened = [{k: a.get(k) for k in ("round", "step", "player", "action")} for a in report.get("actionsOpen", [])]
    return {
        "variant": variant,
        "seed": seed,
        "ai": report.get("ai"),
        "actions": actions,
        "rounds": report.get("roundsRequested"),
        "roundsCompleted": report.get("roundsCompleted", 0),
        "gameOver": bool(report.get("gameOver")) and bool(winners),
        "winners": winners,
        "winningSide": "+".join(winning) if winning else None,
        "sides": sides,
        "seconds": round(report.get("timings", {}).get("totalMs", 0) / 1000, 3),
        "cpuSeconds": _cpu_seconds(report.get("timings", {}).get("cpuMs")),
        "errors": errors,
        "perRound": per_round,
        "unitCosts": report.get("game", {}).get("unitCosts", {}),
        "actionsOpen": opened,
        "actionsTaken": taken,
        "replans": replans(report),
        "deliveries": deliveries(report),
    }


def replans(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every purchase the harness re-planned and every placement it made elsewhere (ActionLog)."""
    keep = ("round", "step", "player", "refused", "asked")
    purchases = [
        {
            **{k: r.get(k) for k in keep},
            "kind": "purchase",
            "bought": r.get("bought"),
            "preempted": bool(r.get("preempted")),
        }
        for r in report.get("purchaseReplans", [])
    ]
    placements = [
        {**{k: r.get(k) for k in keep}, "kind": "placement", "placed": r.get("placed"), "units": r.get("units")}
        for r in report.get("placementReplans", [])
    ]
    return purchases + placements


def deliveries(report: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per unit paid for on delivery: granted, and how many were delivered (paid), lost (sunk) or
    still waiting at the end, and of those how many at sea."""
    out: dict[str, dict[str, int]] = {}
    for token in report.get("deliveries", []):
        counts = out.setdefault(str(token["unit"]), dict.fromkeys(DELIVERY_COUNTS, 0))
        counts["granted"] += 1
        counts[token["fate"]] = counts.get(token["fate"], 0) + 1
        counts["atSea"] += bool(token["fate"] == "waiting" and token.get("atSea"))
    return out


def _cpu_seconds(milliseconds: Any) -> float | None:
    return round(milliseconds / 1000, 3) if isinstance(milliseconds, int | float) and milliseconds >= 0 else None


def write(path: Path, records: Iterable[Record]) -> None:
    """One record a line; `path` is a regular file or nothing before (else paths.UnwritableFile)."""
    with open_output(path) as out:
        for record in records:
            out.write((dumps(record) + "\n").encode("utf-8"))


def dumps(record: Record) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def read(path: Path) -> Iterator[Record]:
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            if line.strip():
                yield json.loads(line)
