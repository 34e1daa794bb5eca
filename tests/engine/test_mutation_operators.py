"""The mutation sweep's operators and claims, without the engine (issue 49).

The sweep makes the slips an author makes (generator/engine/operators.py): a name swapped for the
one a sibling element holds, a neighbour's, another player's; a list item dropped or written
twice; every switch flipped, every number moved by one or doubled; a trigger's `uses` and `when`
changed, a condition inverted. It mutates what the ledger claims (generator/spec/claims.py),
conditions and triggers named by a claiming element included. How the sweep plays its scenarios
(generator/engine/sweep_play.py): once for mutants the engine dumps alike, in waves that stop at a
mutant's first failed proof.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.engine import sweep_play
from generator.engine.mutation import Mutator, mutants_of
from generator.engine.sweep_games import Game
from generator.spec.claims import Claims, expanded_tree, parent_tree
from generator.spec.resolve import Rules
from tests.helpers import ROOT

# Two actions of one rule, written by copying one another: each places in its own territory when
# the nation holds it (a shared condition, claimed by no entry, that the actions name).
_TREE: dict[str, Any] = {
    "players": {
        "Reds": {
            "attachments": {
                "conditionAttachmentRedsAtPlace": {"ledger": ["r-turn"], "switch": False},
                "conditionAttachmentRedsOwnsAlpha": {"directOwnershipTerritories": ["Alpha"]},
                "conditionAttachmentRedsOwnsBeta": {"directOwnershipTerritories": ["Beta"]},
                "userActionAttachmentRedsInAlpha": {
                    "ledger": ["r-place"],
                    "conditions": ["conditionAttachmentRedsAtPlace", "conditionAttachmentRedsOwnsAlpha"],
                    "activateTrigger": [["triggerAttachmentRedsInAlpha", 1, False, False, False, False]],
                },
                "userActionAttachmentRedsInBeta": {
                    "ledger": ["r-place"],
                    "conditions": ["conditionAttachmentRedsAtPlace", "conditionAttachmentRedsOwnsBeta"],
                    "activateTrigger": [["triggerAttachmentRedsInBeta", 1, False, False, False, False]],
                },
                "triggerAttachmentRedsInAlpha": {
                    "ledger": ["r-place"],
                    "players": ["Reds"],
                    "when": ["after", "redsPlace"],
                    "placement": [["Alpha", "infantry"]],
                },
                "triggerAttachmentRedsInBeta": {
                    "ledger": ["r-place"],
                    "players": ["Reds"],
                    "when": ["after", "redsPlace"],
                    "placement": [["Beta", "infantry"]],
                },
            }
        },
        "Blues": {},
    },
    "units": {"infantry": {}},
    "territories": {"Alpha": {"connections": ["Beta"]}, "Beta": {}, "Gamma": {"connections": ["Beta"]}},
    "sequence": {"redsPurchase": {}, "redsPlace": {}, "redsEndTurn": {}},
}


def _edits(rule: str, limit: int = 1000) -> set[str]:
    return {m.edit for m in mutants_of(_TREE, rule, limit)}


def test_a_name_is_swapped_for_the_one_its_sibling_holds_there() -> None:
    """The copy-paste slip of issue 49: an action's chain names its sibling's territory."""
    edits = _edits("r-place")
    actions = "players.Reds.attachments.userActionAttachmentReds"
    assert (
        f"{actions}InBeta.conditions[1]: conditionAttachmentRedsOwnsBeta -> conditionAttachmentRedsOwnsAlpha" in edits
    )
    assert (
        f"{actions}InAlpha.activateTrigger[0][0]: triggerAttachmentRedsInAlpha -> triggerAttachmentRedsInBeta" in edits
    )
    # The chain's first condition is alike in both: its sibling gives no other name, the most alike does.
    assert (
        f"{actions}InAlpha.conditions[0]: conditionAttachmentRedsAtPlace -> conditionAttachmentRedsOwnsAlpha" in edits
    )


def test_every_switch_number_and_list_item_of_a_value_is_edited() -> None:
    edits = _edits("r-place")
    action = "players.Reds.attachments.userActionAttachmentRedsInAlpha"
    assert {f"{action}.activateTrigger[0][{i}]: False -> True" for i in (2, 3, 4, 5)} <= edits
    assert {f"{action}.activateTrigger[0][1]: 1 -> {n}" for n in (2, 0)} <= edits  # doubled: 2 again, made once
    assert {
        f"{action}.conditions: item 1 of 2 dropped",
        f"{action}.conditions: last of 2 items dropped",
        f"{action}.conditions: item 2 of 2 written twice",
        f"{action}.conditions: removed",
    } <= edits
    # The fields of one record are not a list of alike items: never dropped or doubled.
    assert not [e for e in edits if "activateTrigger[0]: " in e]


def test_a_triggers_players_when_and_uses_and_a_conditions_invert_are_changed() -> None:
    edits = _edits("r-place")
    trigger = "players.Reds.attachments.triggerAttachmentRedsInAlpha"
    assert {
        f"{trigger}.players[0]: Reds -> Blues",  # the same trigger for another player
        f"{trigger}.players: widened by Blues",
        f"{trigger}.when[0]: after -> before",
        f"{trigger}.when[1]: redsPlace -> redsPurchase",  # the steps either side
        f"{trigger}.when[1]: redsPlace -> redsEndTurn",
        f"{trigger}.uses: added: 1",  # fired once only
        f"{trigger}.placement[0][0]: Alpha -> Beta",  # a neighbour
    } <= edits
    held = "players.Reds.attachments.conditionAttachmentRedsOwnsAlpha"
    assert f"{held}.invert: added: True" in edits


def test_a_condition_the_claiming_elements_name_serves_their_rule() -> None:
    """The shared 'Reds hold Alpha' claims nothing itself: the actions naming it give it their rule,
    so its territory is swapped too; a condition no claiming element names stays unclaimed."""
    claims = Claims.of(_TREE)
    held = ("players", "Reds", "attachments", "conditionAttachmentRedsOwnsAlpha")
    assert claims.derived[held] == ("r-place",)
    assert "players.Reds.attachments.conditionAttachmentRedsOwnsAlpha.directOwnershipTerritories[0]: Alpha -> Beta" in (
        _edits("r-place")
    )
    assert ("players", "Reds", "attachments", "conditionAttachmentRedsAtPlace") not in claims.derived  # its own
    assert [m for m in mutants_of(_TREE, "r-turn", 1000) if "OwnsAlpha" in m.edit.split(":")[0]] == []


def test_a_capped_entry_gets_every_operator_and_its_sibling_swaps_first() -> None:
    mutants = mutants_of(_TREE, "r-place", 12)
    assert len(mutants) == 12
    assert {m.operator for m in mutants} == {"removed", "flip", "number", "list", "swap", "added"}
    swaps = [m.edit for m in mutants if m.operator == "swap"]
    assert swaps[0].endswith("conditionAttachmentRedsOwnsAlpha -> conditionAttachmentRedsOwnsBeta")


def _game(edit: str, tmp_path: Path) -> Game:
    return Game(edit, ("r",), "flip", tmp_path / f"{edit}.xml")


def test_scenarios_play_once_for_mutants_dumped_alike_cheapest_first_until_a_proof_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[list[tuple[str, str]]] = []
    took = {"first": 2.0, "second": 1.0}  # "second" is the cheaper: every mutant plays it first

    def run(runs: list[tuple[str, Path]], seconds: list[float] | None = None, **_: Any) -> list[dict[str, Any]]:
        played.append([(name, path.stem) for name, path in runs])
        if seconds is not None:
            seconds[:] = [took[name] for name, _ in runs]
        # "second" fails on the mutant "c"; "first" on "a" (and so on "b", dumped alike).
        return [{"held": (name, path.stem) not in {("second", "c"), ("first", "a")}} for name, path in runs]

    monkeypatch.setattr(sweep_play, "run_scenarios", run)
    games = [_game(e, tmp_path) for e in ("a", "b", "c")]
    dumps = {str(g.path): {"same": g.edit != "c"} for g in games}
    scenarios = {g.edit: ["first", "second"] for g in games}
    original = tmp_path / "original.xml"
    runs = sweep_play.play(games, scenarios, dumps, original, lambda _, f: bool(f["held"]), None, None)  # type: ignore[arg-type]
    assert played == [
        [("first", "original"), ("second", "original")],  # each once on the game itself, timed
        [("second", "a"), ("second", "c")],  # a and b dumped alike: one run; the cheaper first
        [("first", "a")],  # c is dead: a (and b) alone play on
    ]
    assert runs == 5
    assert [g.killed for g in games] == [True, True, True]


def test_every_enforced_entry_of_a_shipped_variant_gets_each_kind_of_slip_it_can_have() -> None:
    """Capped at 32, an entry's mutants still hold every operator that has an edit to make on it
    (a swap wherever the rule names something, a flip wherever it has a switch)."""
    rules = Rules(ROOT / "rules")
    for variant in ("aare", "aarhe", "aarhe-draft", "aarhe-phase1", "expansion"):
        tree, parent = expanded_tree(rules, variant), parent_tree(rules, variant)
        mutator = Mutator(tree, parent)
        for rule_id, entry in tree["rule_ledger"].items():
            if entry["fidelity"]["grade"] == "notes-only":
                continue
            candidates = mutator.candidates(rule_id) or mutator.candidates(rule_id, own_only=False)
            made = {m.operator for m in mutants_of(tree, rule_id, parent=parent, mutator=mutator)}
            assert made == {c.edit.operator for c in candidates}, (variant, rule_id)
