"""The turn, the bids and convoy raids as the real TripleA 1.9 engine plays them, in every variant.

`turn-steps` (generator/engine/java/ScenarioTurn.java) runs two rounds without a move and records
every step the engine ran: which nation played it, in what order, how often; and two rounds more
with a bid entered in the game options. `convoy-zones` (ScenarioConvoyZones.java) puts an enemy
submarine in each sea zone in turn, next to land of each nation, and records what the engine's
income step takes off that nation for it.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from tests.proofs import Facts, proves

# The nation whose step names begin so: a nation's step is played by that nation.
PREFIXES = {
    "russian": "Russians",
    "german": "Germans",
    "british": "British",
    "japanese": "Japanese",
    "american": "Americans",
    "italian": "Italians",
}
BID = 7  # the bid the scenario enters for each bidding nation (ScenarioTurn.BID)


def _nation_of(step: str) -> str | None:
    return next((nation for prefix, nation in PREFIXES.items() if step.startswith(prefix)), None)


def _turns(steps: list[dict[str, Any]]) -> list[tuple[int, str | None, list[str]]]:
    """(round, player, the delegates of its steps in order) for each run of steps of one player."""
    return [
        (round_, player, [s["delegate"] for s in group])
        for (round_, player), group in groupby(steps, key=lambda s: (s["round"], s["player"]))
    ]


def _check_turn(f: Facts, order: dict[int, list[str]], turn: list[str]) -> None:
    """Each round runs the nations in ORDER, each nation's turn the delegates TURN (once each), every
    step played by the nation it belongs to, between the game's start and the end of each round."""
    for step in f["steps"]:
        assert step["player"] == _nation_of(step["step"]), step
    _check_research(f)
    turns = _turns(f["steps"])
    assert turns[0] == (1, None, ["initDelegate"])
    for round_, nations in order.items():
        played = [(player, delegates) for r, player, delegates in turns if r == round_ and player is not None]
        assert [player for player, _ in played] == nations
        assert all(delegates == turn for _, delegates in played), played
        assert (round_, None, ["endRound"]) in turns


def _check_research(f: Facts) -> None:
    """Every nation with a research step has techs a successful roll could give it."""
    researching = {s["player"] for s in f["steps"] if s["delegate"] == "tech"}
    assert researching and all(f["researchable"][nation] > 0 for nation in researching), f["researchable"]


def _check_bids(f: Facts, bidders: list[str]) -> None:
    """No bid set: the bid steps never run. A bid set in the options: each bidder buys with it in round 1
    (kept as PUs when nothing is bought) and places after, once in the game."""
    assert not [s for s in f["steps"] if s["delegate"] in ("bid", "placeBid")]
    bid = f["bid"]
    assert bid["accepted"] == dict.fromkeys(sorted(bid["accepted"]), True)
    assert set(bidders) <= set(bid["accepted"])
    runs = [s for s in bid["steps"] if s["delegate"] in ("bid", "placeBid")]
    assert [(s["round"], s["player"], s["delegate"]) for s in runs] == [
        (1, nation, delegate) for nation in bidders for delegate in ("bid", "placeBid")
    ]
    assert all(s["pusAfter"] - s["pus"] == (BID if s["delegate"] == "bid" else 0) for s in runs), runs


LHTR_NATIONS = ["Russians", "Germans", "British", "Japanese", "Americans"]


@proves("turn-steps", "aare", "aare-2x")  # aare-2x: the same game as engine 1.9 reads it
def test_aare_turn_advantages_research_at_mobilize_and_axis_bids(f: Facts) -> None:
    turn = ["userActions", "tech", "purchase", "move", "battle", "move", "place", "userActions", "tech_activation"]
    _check_turn(f, {1: LHTR_NATIONS, 2: LHTR_NATIONS}, [*turn, "endTurn"])
    _check_bids(f, ["Germans", "Japanese"])


@proves("turn-steps", "expansion")
def test_expansion_italy_after_germany_and_axis_bids(f: Facts) -> None:
    nations = ["Russians", "Germans", "Italians", "British", "Japanese", "Americans"]
    for step in f["steps"]:
        assert step["player"] == _nation_of(step["step"]), step
    _check_research(f)
    for round_ in (1, 2):
        played = [(p, d) for r, p, d in _turns(f["steps"]) if r == round_ and p is not None]
        assert [p for p, _ in played] == nations
        # Only the treaty's two sides have a user-actions step, first in their turn.
        for player, delegates in played:
            actions = ["userActions"] if player in ("Russians", "Japanese") else []
            turn = ["tech", "purchase", "move", "battle", "move", "place", "tech_activation", "endTurn"]
            assert delegates == [*actions, *turn]
    _check_bids(f, ["Germans", "Japanese"])


AARHE_ROUND = ["Germans", "Japanese", "Italians", "Russians", "British", "Americans"]


@proves("turn-steps", "aarhe", "aarhe-2x")
def test_aarhe_soviet_opening_then_axis_and_allies(f: Facts) -> None:
    turn = ["purchase", "userActions", "endTurn", "move", "battle", "move", "place", "tech", "tech_activation"]
    _check_turn(f, {1: ["Russians", *AARHE_ROUND], 2: AARHE_ROUND}, turn)
    opening = [s for s in f["steps"] if s["step"].startswith("russianOpening")]
    assert opening and {s["round"] for s in opening} == {1}
    _check_bids(f, LHTR_NATIONS)


@proves("turn-steps", "aarhe-draft")
def test_aarhe_draft_turn_and_fifteen_city_points_each(f: Facts) -> None:
    turn = ["purchase", "userActions", "endTurn", "move", "battle", "move", "place", "tech", "tech_activation"]
    _check_turn(f, {1: LHTR_NATIONS, 2: LHTR_NATIONS}, turn)
    assert f["victoryCityPoints"] == dict.fromkeys(LHTR_NATIONS, 15)
    _check_bids(f, LHTR_NATIONS)


@proves("turn-steps", "aarhe-phase1")
def test_aarhe_phase1_turn_and_fifteen_city_points_each(f: Facts) -> None:
    turn = ["purchase", "endTurn", "move", "battle", "place", "move", "tech", "tech_activation"]
    _check_turn(f, {1: LHTR_NATIONS, 2: LHTR_NATIONS}, turn)
    assert f["victoryCityPoints"] == dict.fromkeys(LHTR_NATIONS, 15)
    _check_bids(f, LHTR_NATIONS)


# AARe and Expansion: the sea zones next to the starting complexes (United Kingdom, Eastern and
# Western United States, Japan).
STARTING_CONVOY_ZONES = {f"{n} Sea Zone" for n in (2, 3, 6, 7, 8, 10, 54, 55, 60, 61)}


def _check_immune(losses: dict[str, Any], immune: set[str]) -> None:
    assert {nation for nation, zones in losses.items() if not zones} == immune


@proves("convoy-zones", "aare", "aare-2x", "expansion")
def test_convoy_zones_cost_two_pus_a_submarine_except_to_the_immune(f: Facts) -> None:
    losses = f["losses"]
    immune = {"Russians", "Germans"} | ({"Italians"} if "Italians" in losses else set())
    _check_immune(losses, immune)
    for nation in set(losses) - immune:
        assert set(losses[nation]) == STARTING_CONVOY_ZONES, nation
        assert all(zone == {"loss": 2, "dice": 0} for zone in losses[nation].values()), nation


@proves("convoy-zones", "aarhe", "aarhe-2x")
def test_every_sea_zone_carries_convoys_but_not_for_germany_and_russia(f: Facts) -> None:
    losses = f["losses"]
    _check_immune(losses, {"Russians", "Germans"})
    for nation in set(losses) - {"Russians", "Germans"}:
        # One submarine: one die rolled for its cost in every zone next to the nation's land.
        assert set(losses[nation]) == set(f["zonesWithIncomeLand"]), nation
        assert all(zone["dice"] == 1 for zone in losses[nation].values()), nation
