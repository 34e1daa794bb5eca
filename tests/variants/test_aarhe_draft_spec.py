"""The AARHE Final Phase 1 Draft variant (seed 001) on the full AARHE rules: its ledger holds the
draft's rules only, and the mechanics it states differently from 000 show in the spec and XML."""

from __future__ import annotations

from tests.helpers import ROOT, attachment_options, built_game, run_cli, variant_spec
from tests.variants.test_variant_ledgers import SEED_OF

# 001 "Victory Conditions": territory -> victory city points (5/3/2/2/1/1/1 per nation).
VC_POINTS = {
    "Russia": 5, "Caucasus": 3, "Karelia S.S.R.": 2, "Novosibirsk": 2, "Archangel": 1, "Kazakh S.S.R.": 1,
    "Buryatia S.S.R.": 1,
    "Germany": 5, "Southern Europe": 3, "Western Europe": 2, "Ukraine S.S.R.": 2, "Eastern Europe": 1, "Norway": 1,
    "West Russia": 1,
    "United Kingdom": 5, "Eastern Canada": 3, "India": 2, "Australia": 2, "Anglo Egypt": 1, "Trans-Jordan": 1,
    "Union of South Africa": 1,
    "Japan": 5, "Manchuria": 3, "Kwantung": 2, "French Indochina": 2, "Philipine Islands": 1, "Solomon Islands": 1,
    "New Guinea": 1,
    "Eastern United States": 5, "Western United States": 3, "Central United States": 2, "China": 2, "Sinkiang": 1,
    "Hawaiian Islands": 1, "Brazil": 1,
}  # fmt: skip


def test_ledger_holds_only_the_drafts_rules() -> None:
    """(What every ledger shares is in tests/variants/test_variant_ledgers.py.)"""
    ledger = variant_spec("aarhe-draft").rule_ledger
    for other in ("000", "002", "003", "004"):
        assert not [i for i, e in ledger.items() if other in e.source], other
    # Rules kept from the full rules keep their ids; the draft's own rule is aarhe1-.
    assert {i for i in ledger if not i.startswith("aarhe-")} == {"aarhe1-vc-01"}
    # The full rules' extras are gone: no Soviet opening, dogfights, terrain, techs, diplomacy, Italy.
    for gone in (
        "aarhe-seq-01",
        "aarhe-p4-02",
        "aarhe-ter-01",
        "aarhe-p7-13",
        "aarhe-p8-01",
        "aarhe-ita-01",
        "aarhe-vc-06",
        "aarhe-nb-02",
        "aarhe-na-02",
        "aarhe-nv-01",
        "aarhe-unit-04",
    ):
        assert gone not in ledger, gone
    # The draft's national builds and attacks are played as the full rules play them (but Shock
    # Troops, which the engine cannot give to three infantry a turn).
    assert {
        i for i, e in ledger.items() if i.startswith(("aarhe-nb-", "aarhe-na-")) and e.fidelity.grade == "notes-only"
    } == {"aarhe-na-04"}


def test_ledger_rewords_what_the_draft_states_differently() -> None:
    draft, full = variant_spec("aarhe-draft").rule_ledger, variant_spec("aarhe").rule_ledger
    for rule_id in (
        "aarhe-seq-03",
        "aarhe-mode-03",
        "aarhe-vc-01",
        "aarhe-p1-01",
        "aarhe-p2-01",
        "aarhe-p2-03",
        "aarhe-p4-14",
        "aarhe-p4-17",
        "aarhe-unit-03",
        "aarhe-unit-08",
        "aarhe-nb-03",
    ):
        assert draft[rule_id].summary != full[rule_id].summary, rule_id
    assert "7 IPC" in draft["aarhe-nb-03"].summary
    assert "4 in 36" in draft["aarhe-unit-08"].fidelity.note
    assert draft["aarhe-p1-01"].reading  # major victory cities missing from the price list
    assert draft["aarhe-seq-03"].reading  # no nation order in the draft: LHTR's
    assert "Edit 1" in (draft["aarhe-p4-17"].reading or "")
    assert "Edit 2" in (draft["aarhe-unit-08"].reading or "")


def test_victory_cities_75_points() -> None:
    root = built_game("aarhe-draft")
    cities = {
        att.get("attachTo"): int(o.get("value"))
        for att in root.iter("attachment")
        if (att.get("javaClass") or "").endswith("TerritoryAttachment")
        for o in att.iter("option")
        if o.get("name") == "victoryCity" and o.get("value") != "0"
    }
    assert cities == VC_POINTS
    assert sum(VC_POINTS.values()) == 75
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert (props["Total Victory"], props["Axis Total Victory VCs"], props["Allies Total Victory VCs"]) == (
        "true",
        "45",
        "55",
    )


def test_turn_order_lhtr_nations_with_the_drafts_phases() -> None:
    steps = list(built_game("aarhe-draft").iter("step"))
    buyers = [(s.get("player"), s.get("maxRunCount")) for s in steps if s.get("delegate") == "purchase"]
    assert buyers == [("Russians", None), ("Germans", None), ("British", None), ("Japanese", None), ("Americans", None)]
    for player in ("Russians", "Germans", "British", "Japanese", "Americans"):
        phases = [s.get("delegate") for s in steps if s.get("player") == player and "Bid" not in (s.get("name") or "")]
        # Scorched Earth (user actions) comes right after the purchase.
        expected = ["purchase", "userActions", "endTurn", "move", "battle", "move", "place", "tech", "tech_activation"]
        assert phases == expected, player
    assert steps[-1].get("delegate") == "endRound"


def test_units_lhtr_values_at_the_drafts_prices() -> None:
    spec, full = variant_spec("aarhe-draft"), variant_spec("aarhe")
    destroyer = spec.units["destroyer"].options
    assert (destroyer["attack"], destroyer["defense"], destroyer["movement"], destroyer["isDestroyer"]) == (
        3,
        3,
        2,
        True,
    )
    assert full.units["destroyer"].options["isDestroyer"] is False
    carrier = spec.units["carrier"].options
    assert (carrier["defense"], carrier["movement"]) == (3, 2) and "hitPoints" not in carrier
    for ship in ("battleship", "carrier", "destroyer"):
        assert "typeAA" not in spec.units[ship].options  # no ship anti-air in the draft
    costs = {name: rule.cost["PUs"] for name, rule in spec.production_rules.items()}
    assert (costs["buyDestroyer"], costs["buyBattleship"], costs["buyAAGun"], costs["buyCarrier"]) == (10, 20, 5, 16)
    assert (costs["buyDestroyerIndustrialTechnology"], costs["buyBattleshipIndustrialTechnology"]) == (9, 19)
    assert costs["buyInfantryIndustrialTechnology"] == 2


def test_aa_guns_and_complexes_four_in_36_first_round_only() -> None:
    root = built_game("aarhe-draft")
    gun = attachment_options(root, "aaGun", "UnitAttachment")
    assert (gun["attackAA"], gun["attackAAmaxDieSides"], gun["maxAAattacks"], gun["maxRoundsAA"]) == (
        "4",
        "36",
        "1",
        "1",
    )
    assert "targetsAA" not in gun
    # A complex counts as three built-in AA guns (also against raiding bombers).
    factory = attachment_options(root, "factory", "UnitAttachment")
    assert (factory["attackAA"], factory["attackAAmaxDieSides"], factory["maxAAattacks"], factory["maxRoundsAA"]) == (
        "4",
        "36",
        "3",
        "1",
    )
    assert factory["isAAforCombatOnly"] == factory["isAAforBombingThisUnitOnly"] == "true"
    assert "targetsAA" not in factory
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["Multiple AA Per Territory"] == "true"


def test_no_full_rules_extras() -> None:
    root = built_game("aarhe-draft")
    assert not list(root.iter("relationship"))  # Germany and Japan plain allies again
    assert not [a for a in root.iter("attachment") if (a.get("javaClass") or "").endswith("PlayerAttachment")]
    # The triggers left are the draft's own rules: Total Victory, Scorched Earth, national builds
    # and attacks.
    triggers = {
        a.get("name") for a in root.iter("attachment") if (a.get("javaClass") or "").endswith("TriggerAttachment")
    }
    assert {t for t in triggers if not t.startswith(("triggerAttachmentScorch", "triggerAttachmentConvert"))} == {
        "triggerAttachmentAxisTotalVictory",
        "triggerAttachmentAlliesTotalVictory",
        "triggerAttachmentNaBlitzkrieg",
        "triggerAttachmentNaLanceTorpedo",
    }
    # The only terrain effect is the UK's Radar (a national attack of the draft).
    effects = {
        a.get("attachTo")
        for a in root.iter("attachment")
        if (a.get("javaClass") or "").endswith("TerritoryEffectAttachment")
    }
    assert effects == {"UkRadar"}
    # Only LHTR's two canals remain (Suez, Panama): no Turkish straits.
    canals = {
        attachment_options(root, zone, "CanalAttachment").get("canalName")
        for zone in ("14 Sea Zone", "15 Sea Zone", "16 Sea Zone")
    }
    assert canals == {None, "Suez Canal"}
    assert "Turkey" not in variant_spec("aarhe-draft").territories["Balkans"].connections
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert "Movement By Territory Restricted" not in props and "Scramble Rules In Effect" not in props
    assert props["LHTR Heavy Bombers"] == "true"
    assert props["Air Battle Rounds"] == "1"


def test_diff_names_the_drafts_differences() -> None:
    result = run_cli("diff", "aarhe", "aarhe-draft", cwd=ROOT)
    assert result.code == 0, result.err
    out = result.out
    assert "aarhe → aarhe-draft" in out
    assert "destroyer:" in out and "attack 2 → 3" in out
    assert "Caucasus 4 → 3" in out and "Balkans \u2013 Turkey removed" in out
    assert "aaGun: attackAA 1 → 4; maxRoundsAA -1 → 1" in out
    # The full rules' opening turn and turn order give way to the draft's LHTR order (rule patterns).
    assert "  - Opening removed (was ledger aarhe-seq-01, players Russians russianOpening, " in out
    assert "  + Draft added: ledger aarhe-seq-03, players Russians russian, Germans german, British british, " in out
    flat = " ".join(out.split())  # the text folds its lines at 160 characters: read across the folds
    assert "Russians (opening turn), Germans, Japanese, Italians, Russians, British, Americans → " in flat
    assert "95 ledger entries removed" in out and "aarhe1-vc-01 added" in out


def test_notes() -> None:
    notes = (ROOT / "output" / "games" / "aarhe-draft.notes.html").read_text(encoding="utf-8")
    assert "Phase 1 Draft" in notes and "[aarhe-p2-01]" in notes
    assert notes.count("<h3>") == len(SEED_OF["aarhe-draft"].sections)
