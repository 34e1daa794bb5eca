"""What a study's records say per variant: win rates, leaders at the last round, per-nation curves,
the games' scores (table.py compares the variants).

Total unit value is priced with one price list for every variant, the baseline's (each player's
unit costs at the start of the baseline's games): a variant that only makes a unit cheaper does
not show a smaller army. A unit type the baseline does not have keeps its own variant's price.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.balance.records import Record
from generator.balance.stats import Interval, quartiles, wilson

Prices = dict[str, dict[str, int]]  # player -> unit type -> PUs

TIE = "tie"


@dataclass
class VariantSummary:
    variant: str
    games: int
    rounds: int
    sides: list[str]
    nations: list[str]
    finished: int = 0
    failed: int = 0
    cut_short: int = 0  # stopped before the last round without an end: in no figure
    wins: Counter[str] = field(default_factory=Counter)
    # seed -> the side with more victory cities / unit value after the last round (a game won early:
    # at its end), TIE for a tie: every game played to its end or its last round
    vc_leader: dict[int, str] = field(default_factory=dict)
    tuv_leader: dict[int, str] = field(default_factory=dict)
    # nation -> figure -> per round (index = round) -> values over the games (a game won early: its
    # final state in the rounds after its end)
    curves: dict[str, dict[str, list[list[float]]]] = field(default_factory=dict)
    # nation -> figure -> seed -> value after the last round (a game won early: at its end)
    last: dict[str, dict[str, dict[int, float]]] = field(default_factory=dict)
    actions: Counter[str] = field(default_factory=Counter)  # action -> games it was taken in
    actions_open: Counter[str] = field(default_factory=Counter)  # action -> turns it was open
    actions_taken: Counter[str] = field(default_factory=Counter)  # action -> turns it was taken
    problems: list[tuple[int, str]] = field(default_factory=list)  # (seed, error) of every game with errors
    replans: list[tuple[int, str]] = field(default_factory=list)  # (seed, what the harness re-planned)
    # unit paid for on delivery -> (seed, {granted, delivered, lost, waiting, atSea}) per game that had one
    deliveries: dict[str, list[tuple[int, dict[str, int]]]] = field(default_factory=dict)
    # seed -> the side that won it ("" for a game played to its last round but not won): every game
    # in the figures, the games that pair up by seed
    outcomes: dict[int, str] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the JVMs' CPU over the games that report it
    cpu_rounds: int = 0  # the rounds those games played

    @property
    def cpu_per_round(self) -> float | None:
        """CPU seconds per game-round (JIT, collector and the JVM's start included), if measured."""
        return self.cpu_seconds / self.cpu_rounds if self.cpu_rounds else None

    @property
    def with_errors(self) -> int:
        return len({seed for seed, _ in self.problems})

    @property
    def unfinished(self) -> int:
        """Games played to their last round without a winner."""
        return self.games - self.failed - self.cut_short - self.finished

    def win_rate(self, side: str) -> Interval:
        return wilson(self.wins[side], len(self.outcomes))

    def at_last_round(self, nation: str, figure: str) -> dict[int, float]:
        """seed -> value after the last round, for the games that reached it."""
        return self.last.get(nation, {}).get(figure, {})

    def band(self, nation: str, figure: str) -> list[tuple[float, float, float]]:
        """(q1, median, q3) per round."""
        return [quartiles(values) for values in self.curves.get(nation, {}).get(figure, []) if values]


def _leader(totals: dict[str, float]) -> str:
    best = max(totals.values(), default=0)
    leaders = [side for side, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else TIE


def prices(records: Sequence[Record]) -> Prices:
    """The unit costs the games of `records` started with (the first record that has them)."""
    return next((r["unitCosts"] for r in records if r.get("unitCosts")), {})


def priced(player: str, figures: dict[str, Any], price_list: Prices, own: Prices) -> float:
    """The player's TUV at `price_list`, a type it lacks at its own variant's price."""
    types: dict[str, int] | None = figures.get("unitTypes")
    if not price_list or types is None:
        return float(figures["tuv"])
    ours, theirs = price_list.get(player, {}), own.get(player, {})
    return float(sum(n * ours.get(unit, theirs.get(unit, 0)) for unit, n in types.items()))


ZERO: dict[str, Any] = {"income": 0, "pus": 0, "tuv": 0, "territories": 0, "victoryCities": 0, "units": 0,
                       "unitTypes": {}}  # fmt: skip


def cut_short(record: Record) -> bool:
    """A game that stopped before its last round without being won (an engine error ended it): what
    it would have been after the last round is unknown, so it is left out of every figure."""
    requested: int = record.get("rounds") or 0
    completed: int = record.get("roundsCompleted", requested)
    return bool(record["perRound"]) and not record["gameOver"] and completed < requested


def states(record: Record, rounds: int) -> dict[int, dict[str, dict[str, Any]]]:
    """round -> every player's figures after it, 0..rounds, for the rounds the game knows: a game won
    early keeps its final state for the rounds after its end (the board does not change once the
    game is over); a player missing from a round (knocked out, or not yet in the game) holds 0 of
    everything. A game cut short has only the rounds it played."""
    seen = {entry["round"]: entry["players"] for entry in record["perRound"]}
    out: dict[int, dict[str, dict[str, Any]]] = {}
    last: dict[str, dict[str, Any]] | None = None
    for number in range(rounds + 1):
        if number in seen:
            last = seen[number]
        elif not (record["gameOver"] and last is not None and number > max(seen)):
            continue
        assert last is not None
        out[number] = {nation: last.get(nation, ZERO) for nation in dict.fromkeys([*record["sides"], *last])}
    return out


def summarize(variant: str, records: Sequence[Record], rounds: int, price_list: Prices | None = None) -> VariantSummary:
    """The summary of one variant's games; TUV at `price_list` (the baseline's), else at each game's own.

    Every figure is defined for every game that was played to its end or to its last round: a game
    won early is counted at its final state; only failed games and games cut short are left out
    (and counted in the headline), so no figure is conditioned on how the game went."""
    sides = sorted({s for r in records for s in r["sides"].values()})
    nations = sorted({n for r in records for n in r["sides"]})
    summary = VariantSummary(variant, len(records), rounds, sides, nations)
    for record in records:
        summary.seconds += record["seconds"]
        if record.get("cpuSeconds") is not None and record["roundsCompleted"]:
            summary.cpu_seconds += record["cpuSeconds"]
            summary.cpu_rounds += record["roundsCompleted"]
        summary.problems += [(record["seed"], error) for error in record["errors"]]
        summary.replans += [(record["seed"], _replan(r)) for r in record.get("replans", [])]
        for unit, counts in record.get("deliveries", {}).items():
            summary.deliveries.setdefault(unit, []).append((record["seed"], counts))
        summary.actions_open.update(a["action"] for a in record.get("actionsOpen", []))
        summary.actions_taken.update(a["action"] for a in record["actionsTaken"] if not a.get("error"))
        summary.actions.update({a["action"] for a in record["actionsTaken"] if not a.get("error")})
        if not record["perRound"]:
            summary.failed += 1
            continue
        if cut_short(record):
            summary.cut_short += 1
        elif record["gameOver"] and record["winningSide"]:
            summary.finished += 1
            summary.wins[record["winningSide"]] += 1
        own = record.get("unitCosts", {})
        for number, players in states(record, rounds).items():
            for nation, figures in players.items():
                per_figure = summary.curves.setdefault(nation, {})
                numbers = {f: float(v) for f, v in figures.items() if f != "unitTypes"}
                numbers["tuv"] = priced(nation, figures, price_list or own, own)
                for figure, value in numbers.items():
                    series = per_figure.setdefault(figure, [])
                    while len(series) <= number:
                        series.append([])
                    series[number].append(value)
                    if number == rounds and not cut_short(record):
                        summary.last.setdefault(nation, {}).setdefault(figure, {})[record["seed"]] = value
            if number == rounds and not cut_short(record):
                summary.outcomes[record["seed"]] = record["winningSide"] if record["gameOver"] else ""
                for figure, leaders in (("victoryCities", summary.vc_leader), ("tuv", summary.tuv_leader)):
                    totals = dict.fromkeys(sides, 0.0)
                    for nation, figures in players.items():
                        side = record["sides"].get(nation, nation)
                        value = priced(nation, figures, price_list or own, own) if figure == "tuv" else figures[figure]
                        totals[side] = totals.get(side, 0.0) + float(value)
                    leaders[record["seed"]] = _leader(totals)
    return summary


def _replan(replan: dict[str, Any]) -> str:
    """'round 1, Americans: purchase re-planned before the engine saw it (Not enough resources: ...)'."""
    at = f"round {replan.get('round')}, {replan.get('player')}"
    if replan.get("kind") != "purchase":
        place = (
            f"placement in {replan.get('asked')} refused ({replan.get('refused')}) and made in {replan.get('placed')}"
        )
        return f"{at}: {place}"
    if replan.get("preempted"):
        return f"{at}: purchase re-planned before the engine saw it ({replan.get('refused')})"
    return f"{at}: purchase refused ({replan.get('refused')}) and re-planned"


def side_score(record: Record, side: str, price_list: Prices) -> float | None:
    """How well `side` did in one game, 0..1: 1 or 0 for a game won, else its share of all unit value
    on the board after the last round (at `price_list`); None for a game that never started or was
    cut short (its last round unknown)."""
    if not record["perRound"] or cut_short(record):
        return None
    if record["gameOver"] and record["winningSide"]:
        return 1.0 if record["winningSide"] == side else 0.0
    own = record.get("unitCosts", {})
    totals: dict[str, float] = {}
    for nation, figures in record["perRound"][-1]["players"].items():
        key = record["sides"].get(nation, nation)
        totals[key] = totals.get(key, 0.0) + priced(nation, figures, price_list or own, own)
    everything = sum(totals.values())
    return totals.get(side, 0.0) / everything if everything else None


def paired_scores(base: Sequence[Record], other: Sequence[Record], side: str, price_list: Prices) -> list[float]:
    """score(other) - score(base) for every seed both variants played to a score, in seed order."""
    first = {r["seed"]: side_score(r, side, price_list) for r in base}
    second = {r["seed"]: side_score(r, side, price_list) for r in other}
    return [
        b - a
        for seed in sorted(first.keys() & second.keys())
        if (a := first[seed]) is not None and (b := second[seed]) is not None
    ]
