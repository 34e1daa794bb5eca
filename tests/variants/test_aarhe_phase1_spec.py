"""The AARHE Phase 1 notes variant (seed 004): an earlier AARHE revision built on `aarhe`."""

from __future__ import annotations

from collections import Counter

from tests.helpers import ROOT, run_cli, variant_spec

NATIONS = ["russian", "german", "british", "japanese", "american"]
PHASES = ["Purchase", "EndTurn", "CombatMove", "Battle", "Place", "NonCombatMove", "Tech", "TechActivation"]

# 004 "Victory Cities": seven cities per nation worth 5/3/2/2/1/1/1.
VCS = {
    "Russia": 5,
    "Caucasus": 3,
    "Karelia S.S.R.": 2,
    "Novosibirsk": 2,
    "Archangel": 1,
    "Kazakh S.S.R.": 1,
    "Buryatia S.S.R.": 1,
    "Germany": 5,
    "Southern Europe": 3,
    "Western Europe": 2,
    "Ukraine S.S.R.": 2,
    "Eastern Europe": 1,
    "Norway": 1,
    "West Russia": 1,
    "United Kingdom": 5,
    "Eastern Canada": 3,
    "India": 2,
    "Australia": 2,
    "Anglo Egypt": 1,
    "Trans-Jordan": 1,
    "Union of South Africa": 1,
    "Japan": 5,
    "Manchuria": 3,
    "Kwantung": 2,
    "French Indochina": 2,
    "Philipine Islands": 1,
    "Solomon Islands": 1,
    "New Guinea": 1,
    "Eastern United States": 5,
    "Western United States": 3,
    "Central United States": 2,
    "China": 2,
    "Sinkiang": 1,
    "Hawaiian Islands": 1,
    "Brazil": 1,
}


def test_ledger_grades() -> None:
    """(What every ledger shares is in tests/variants/test_variant_ledgers.py.)"""
    ledger = variant_spec("aarhe-phase1").rule_ledger
    grades = Counter(entry.fidelity.grade for entry in ledger.values())
    assert grades == {"exact": 12, "approximate": 12, "notes-only": 14}


def test_rules_of_the_full_rules_absent_from_004_are_gone() -> None:
    ledger = variant_spec("aarhe-phase1").rule_ledger
    full = variant_spec("aarhe").rule_ledger
    # Ids kept from the full rules are the ones 004 states (the same or differently).
    kept = {i for i in ledger if not i.startswith("aarhe4-")}
    assert kept < set(full)
    assert len(kept) == 21
    for gone in (
        "aarhe-seq-01",
        "aarhe-seq-06",
        "aarhe-p3-08",
        "aarhe-p3-09",
        "aarhe-unit-03",
        "aarhe-p7-12",
        "aarhe-vc-06",
        "aarhe-ter-01",
        "aarhe-p8-01",
    ):
        assert gone not in ledger
    # Summaries of rules 004 states differently are rewritten.
    for changed in ("aarhe-vc-01", "aarhe-p1-01", "aarhe-p1-03", "aarhe-seq-03", "aarhe-mode-03", "aarhe-p7-02"):
        assert ledger[changed].summary != full[changed].summary


def test_victory_cities_are_004s_weighted_cities() -> None:
    spec = variant_spec("aarhe-phase1")
    vcs = {name: t.options["victoryCity"] for name, t in spec.territories.items() if t.options.get("victoryCity")}
    assert vcs == VCS
    assert sum(vcs.values()) == 75
    for name in ("Balkans", "Borneo", "Turkey", "Spain", "Persia", "East Indies"):
        assert "victoryCity" not in spec.territories[name].options
    assert spec.properties["Axis Total Victory VCs"].value == 45
    assert spec.properties["Allies Total Victory VCs"].value == 55
    assert spec.properties["Total Victory"].value is True


def test_turn_order_is_lhtr_with_placement_before_non_combat_move() -> None:
    steps = [name for name in variant_spec("aarhe-phase1").ordered_steps() if not name.endswith(("Bid", "BidPlace"))]
    expected = [f"{n}{p}" for n in NATIONS for p in PHASES]
    assert steps == ["gameInitDelegate", *expected, "endRoundStep"]
    assert not any("Opening" in name for name in steps)


def test_initial_complexes_and_lhtr_units_again() -> None:
    spec = variant_spec("aarhe-phase1")
    assert spec.territories["Manchuria"].units["Japanese"]["factory"] == 1
    assert spec.territories["Eastern Canada"].units["British"]["factory"] == 1
    destroyer = spec.units["destroyer"]
    assert (destroyer.attack, destroyer.defense, destroyer.movement, destroyer.isDestroyer) == (3, 3, 2, True)
    assert not hasattr(spec.units["battleship"], "typeAA")
    assert spec.production_rules["buyBattleship"].cost == {"PUs": 24}
    assert "aarhe-p1-01" in spec.production_rules["buyFactory"].ledger


def test_complex_price_is_15_minus_income_times_points() -> None:
    """004's IC cost: one factory type per price, placeable only where that price applies."""
    spec = variant_spec("aarhe-phase1")
    assert spec.properties["Unit Placement Restrictions"].value is True
    frontier = spec.production_frontiers["production"]
    initial = {name for name, t in spec.territories.items() if any("factory" in u for u in t.units.values())}
    assert initial == {
        "Russia",
        "Caucasus",
        "Germany",
        "Southern Europe",
        "United Kingdom",
        "Eastern Canada",
        "Japan",
        "Manchuria",
        "Eastern United States",
        "Western United States",
    }
    priced = {}
    for rule_name in frontier:
        rule = spec.production_rules[rule_name]
        (unit,) = rule.result or {"factory": 1}
        if not unit.startswith("factory"):
            continue
        unit_type = spec.units[unit]
        allowed = getattr(unit_type, "unitPlacementOnlyAllowedIn", None)
        for territory in allowed or []:
            priced[territory] = rule.cost["PUs"]
        if unit == "factory":
            assert rule.cost == {"PUs": 15}
            barred = set(unit_type.unitPlacementRestrictions)
    for name, price in priced.items():
        t = spec.territories[name].options
        assert price == 15 - t["production"] * t["victoryCity"], name
    # Every victory city territory without an initial complex has its own price; the plain
    # 15-PU complex is barred from all victory city territories.
    assert set(priced) == set(VCS) - initial - {"Solomon Islands"}
    assert barred == set(VCS) - {"Solomon Islands"}
    assert priced["Western Europe"] == 3
    assert priced["India"] == 9


def test_full_rules_mechanics_not_in_004_are_removed() -> None:
    spec = variant_spec("aarhe-phase1")
    # Radar is the engine's AA Radar (aarhe-p7-10); Advanced Production and the heavy units' techs are gone.
    assert set(spec.technologies) == {"jetPower", "longRangeAir", "heavyBomber", "rocket", "superSub", "aARadar"}
    assert not spec.relationship_types
    assert spec.players["Germans"].relationships == {}
    assert "Italians" not in spec.players
    # The only triggers left play Total Victory (aarhe-mode-01).
    triggers = {name for p in spec.players.values() for name in p.attachments if name.startswith("trigger")}
    assert triggers == {"triggerAttachmentAxisTotalVictory", "triggerAttachmentAlliesTotalVictory"}
    assert "Turkey" not in spec.territories["Balkans"].connections
    assert not spec.territory_effects
    assert spec.properties["LHTR Heavy Bombers"].value is True


def test_diff_against_the_full_rules_names_the_differences() -> None:
    result = run_cli("diff", "aarhe", "aarhe-phase1", cwd=ROOT)
    assert result.code == 0, result.err
    assert "Southern Europe: owner Italians → Germans; victoryCity 5 → 3" in result.out
    assert "Balkans \u2013 Turkey removed" in result.out
    assert "industrialTechnology removed" in result.out
    assert "Manchuria (Japanese): factory 0 → 1" in result.out
