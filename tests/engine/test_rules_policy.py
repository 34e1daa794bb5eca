"""The rules-aware action policy plays the variants' own layer as a player would, shown through the
real `check` CLI and the engine: lend-lease is shipped and paid (and counted granted / delivered /
lost / waiting), free units are taken at every step they are open, and `check` fails a game in
which the engine refuses a purchase or a placement."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.engine.judge import action_notes, deliveries, delivery_line, evaluate
from tests.helpers import CHECK_GROUP, ROOT, Result, run_cli


def _check(tmp_path: Path, *args: str) -> tuple[Result, dict[str, Any]]:
    report = tmp_path / "check.json"
    result = run_cli("check", *args, "--report", str(report), cwd=ROOT)
    assert report.is_file(), result.out + result.err
    return result, json.loads(report.read_text(encoding="utf-8"))


def _token(fate: str, unit: str = "lendLease") -> dict[str, Any]:
    return {"unit": unit, "player": "Americans", "granted": 1, "at": "Eastern United States", "fate": fate,
            "round": 3, "where": "4 Sea Zone", "trail": []}  # fmt: skip


def test_deliveries_are_counted_by_fate() -> None:
    report = {"deliveries": [_token("delivered"), _token("lost"), _token("waiting"), _token("delivered"),
                             _token("waiting", "lendLeaseCargo")]}  # fmt: skip
    assert deliveries(report) == {
        "lendLease": {"granted": 4, "delivered": 2, "lost": 1, "waiting": 1},
        "lendLeaseCargo": {"granted": 1, "delivered": 0, "lost": 0, "waiting": 1},
    }
    report["deliveries"][2]["atSea"] = True  # the lendLease token still waiting is on its way
    assert delivery_line(report) == (
        "deliveries: lendLease: 4 granted, 2 delivered, 1 lost, 1 waiting (1 at sea); "
        "lendLeaseCargo: 1 granted, 0 delivered, 0 lost, 1 waiting (0 at sea)"
    )
    assert delivery_line({"deliveries": []}) is None


def test_a_refused_placement_fails_the_game() -> None:
    """The refusal the 40-pair aare study met: check must never pass it."""
    report = {
        "parse": {"error": None, "saxErrors": []},
        "errors": [{"channel": "rejected", "round": 2, "step": "japanesePlace", "player": "Japanese",
                    "message": "delegate place refused placeUnits (1 units in 60 Sea Zone): "
                               "Cannot place these units in 60 Sea Zone"}],
        "roundsCompleted": 2, "gameOver": False, "actionsTaken": [],
        "purchases": [{"player": "Japanese", "units": {"fighter": 1}}], "purchaseSteps": [],
        "battles": [{"round": 1}], "unplaced": [], "rounds": [],
        "game": {"players": []},
    }  # fmt: skip
    assert evaluate(report, 2) == [
        "step japanesePlace: delegate place refused placeUnits (1 units in 60 Sea Zone): "
        "Cannot place these units in 60 Sea Zone"
    ]


def test_a_placement_made_elsewhere_is_a_note_not_a_failure() -> None:
    """The harness puts a refused placement where the engine accepts it (ActionLog): the turn is
    played, so check passes it and shows what was moved."""
    moved = {"round": 2, "step": "japanesePlace", "player": "Japanese", "refused": "Cannot place these units in "
             "60 Sea Zone", "asked": "60 Sea Zone", "placed": "Japan", "units": {"fighter": 1}}  # fmt: skip
    report = {"parse": {"error": None, "saxErrors": []}, "errors": [], "roundsCompleted": 2, "actionsTaken": [],
              "purchases": [{"player": "Japanese", "units": {"fighter": 1}}], "purchaseSteps": [],
              "battles": [{"round": 1}], "unplaced": [], "rounds": [], "game": {"players": []},
              "placementReplans": [moved]}  # fmt: skip
    assert evaluate(report, 2) == []
    assert action_notes(report) == [
        "round 2, Japanese: placement of 1 fighter in 60 Sea Zone refused (Cannot place these units in 60 Sea Zone) "
        "and made in Japan"
    ]


@pytest.mark.engine
def test_expansion_lend_lease_is_shipped_and_paid(tmp_path: Path) -> None:
    """Six rounds of expansion: one 10-PU token a US turn; the convoy ships them to sea zone 4 or 34
    (3 to 5 turns away), where they are paid. Every token is accounted for, and most games that
    last the six rounds have paid at least one (an early Axis win can end a game first; a token
    sunk on the way is lost). `--reproducible`: the AIs walk their options in one order, so a seed
    plays the same game on every run (without it seed 1 paid a token in some runs, none in others)."""
    result, document = _check(tmp_path, "expansion", "--rounds", "6", "--seed", "1", "-n", "3", "--reproducible")
    games = [v for v in document["variants"] if v["report"] is not None]
    assert len(games) == 3
    delivered, lasted = 0, []
    for game in games:
        counts = game["summary"]["deliveries"]["lendLease"]
        # One token at the end of every US turn played.
        assert counts["granted"] >= game["report"]["roundsCompleted"] - 1 > 0
        assert counts["granted"] == counts["delivered"] + counts["lost"] + counts["waiting"]
        assert f"expansion (seed {game['seed']}): {delivery_line(game['report'])}" in result.out
        paid = [a for a in game["report"]["actionsTaken"] if a["action"].startswith("deliver lendLease to ")]
        assert len(paid) >= counts["delivered"]
        if game["report"]["roundsCompleted"] == 6 and not game["report"]["gameOver"]:
            lasted.append(counts["delivered"] >= 1)
        delivered += counts["delivered"]
    assert delivered >= 1, result.out
    assert sum(lasted) > len(lasted) / 2, result.out  # most games of six rounds paid a token
    assert result.code == 0, result.out  # the convoy causes no refused move


@pytest.mark.engine
def test_aare_free_siberian_infantry_is_taken_every_step_it_is_open(tmp_path: Path) -> None:
    """Seed 2: Russia declares its Siberian reserves; a free infantry is then on offer at Russian
    mobilisation steps, and the policy takes one at every step one is offered (the placement limit
    allows one a step). `--reproducible`: the same game on every run."""
    result, document = _check(tmp_path, "aare", "--rounds", "3", "--seed", "2", "--reproducible")
    report = document["variants"][0]["report"]
    opened = sorted({(a["round"], a["step"]) for a in report["actionsOpen"] if "RuSiberianIn" in a["action"]})
    taken = [(a["round"], a["step"]) for a in report["actionsTaken"] if "RuSiberianIn" in a["action"]]
    assert opened, result.out
    assert sorted(taken) == opened


@pytest.mark.engine
@pytest.mark.xdist_group(CHECK_GROUP)
def test_no_purchase_or_placement_is_refused_in_any_variant(
    every_variant_checked: tuple[Result, dict[str, Any]],
) -> None:
    """Two seeded 2-round games of every variant the 1.9 engine plays: check exits 0, so no purchase
    and no placement was refused (test_a_refused_placement_fails_the_game shows it would fail)."""
    result, document = every_variant_checked
    assert document["options"]["seed"] == 11 and document["options"]["games"] == 2
    refused = [(v["name"], v["seed"], e["message"]) for v in document["variants"] if v["report"]
               for e in v["report"]["errors"] if " refused " in e["message"]]  # fmt: skip
    assert refused == []
    assert result.code == 0, result.out
