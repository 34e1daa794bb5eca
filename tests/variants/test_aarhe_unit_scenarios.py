"""AARHE unit options proven in the real TripleA 1.9 engine: anti-aircraft fire of every AA unit type
(guns, complexes, warships) on loaded dice, where each complex type may be placed, and aircraft in the
air (dogfights, scrambling, interception and escort). See rules/aarhe/proofs/ScenarioAarheAntiAir.java,
ScenarioAarheComplexes.java and ScenarioAarheAirBattle.java.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.proofs import Facts, proves

AARHE = ("aarhe", "aarhe-2x")  # aarhe-2x: the same game as engine 1.9 reads it


def _anti_air(f: Facts, *, aa_type: str, every_round: bool, ships: dict[str, int], raids: bool) -> None:
    """The battles of aarhe-anti-air: its dice show 2, 5 and 36 in turn (a d6: 2, 5, 6); the
    British miss in the first round and hit in the second; German dice miss."""
    assert set(f["moves"].values()) == {"null"}, f["moves"]
    b = f["battles"]
    guns = {"aaGun": 1, "factory": 3, "factory5": 3, "factory10": 3}
    for gun, dice in guns.items():
        for aircraft in (1, 8):
            battle = b[f"{gun} defending against {aircraft}"]
            rolls = [(r["type"], r["sides"], r["count"]) for r in battle["antiAir"]]
            if every_round:
                # 1 in 36 misses the 2: the aircraft fight on; the guns fire again in round 2.
                assert rolls == [(aa_type, 36, dice)] * 2, (gun, aircraft, rolls)
                assert (battle["aircraftLost"], battle["britishRolls"]) == (0, 2), (gun, aircraft)
            else:
                # 4 in 36 hits the 2 (not the 5), in the first round only.
                assert rolls == [(aa_type, 36, dice)], (gun, aircraft, rolls)
                assert (battle["aircraftLost"], battle["britishRolls"]) == (1, 0 if aircraft == 1 else 2), gun
        if raids and gun != "aaGun":
            # A lone bomber raiding the complex meets its three dice (4 in 36 hits the 2).
            raid = b[f"{gun} raided by 1 bomber"]
            assert [(r["type"], r["sides"], r["count"]) for r in raid["antiAir"]] == [(aa_type, 36, dice)], gun
            assert raid["aircraftLost"] == 1, gun
    for ship in ("battleship", "carrier", "destroyer", "cruiser"):
        battle = b.get(f"{ship} attacking 1 fighter")
        if ship not in ships:
            assert battle is None or battle["antiAir"] == [], ship
            continue
        # An attacking warship's dice (1 in 6) miss the 2 and fire again in round 2.
        rolls = [(r["type"], r["sides"], r["count"]) for r in battle["antiAir"]]
        assert rolls == [("NavalAA", 6, ships[ship])] * 2, (ship, rolls)
        assert (battle["aircraftLost"], battle["britishRolls"]) == (1, 2), ship


@proves("aarhe-anti-air", *AARHE)
def test_each_anti_aircraft_unit_fires_its_dice_every_round(f: Facts) -> None:
    # Complexes: three IDs each, an ID gun one; warships 3 (BB), 2 (CV, DD), 4 (CA), also attacking.
    ships = {"battleship": 3, "carrier": 2, "destroyer": 2, "cruiser": 4}
    _anti_air(f, aa_type="ID", every_round=True, ships=ships, raids=False)


@proves("aarhe-anti-air", "aarhe-draft")
def test_draft_guns_and_complexes_fire_in_the_first_round_only(f: Facts) -> None:
    # A complex counts as three AA guns, each hitting on 4 in 36 in the first round, and against
    # bombers raiding it; no ship anti-air.
    _anti_air(f, aa_type="AA", every_round=False, ships={}, raids=True)


def _complexes_placed(
    f: Facts, price_of: dict[str, int], price: Callable[[Facts], int], *, initial_complexes_stay: bool
) -> None:
    """Each complex type is placed exactly where its price applies (with the board's complexes
    taken off); where an initial complex can never go, nowhere it stood."""
    lands = f["lands"]
    assert len(lands) > 50 and set(f["placeable"]) == set(price_of)
    assert any(land["complex"] for land in lands.values())
    for complex_type, where in f["placeable"].items():
        expected = {
            t
            for t, land in lands.items()
            if price(land) == price_of[complex_type] and not (initial_complexes_stay and land["complex"])
        }
        assert expected, complex_type
        assert sorted(where) == sorted(expected), complex_type


@proves("aarhe-complex-places", *AARHE, "aarhe-draft")
def test_complexes_go_where_their_price_applies(f: Facts) -> None:
    # 5 in a victory city of 2 points or more, 10 in a 1-point city, 15 elsewhere.
    _complexes_placed(
        f,
        {"factory": 15, "factory5": 5, "factory10": 10},
        lambda land: {0: 15, 1: 10}.get(land["victoryCity"], 5),
        initial_complexes_stay=False,
    )


@proves("aarhe-complex-places", "aarhe-phase1")
def test_phase1_complexes_cost_15_less_income_times_city_points(f: Facts) -> None:
    prices = {"factory": 15, **{f"factory{n}": n for n in (3, 9, 11, 12, 13, 14)}}
    # Capitals and major cities keep their initial complex for good (aarhe4-ic-03): no type goes there.
    _complexes_placed(
        f, prices, lambda land: 15 - land["production"] * land["victoryCity"], initial_complexes_stay=True
    )


@proves("aarhe-air-battle", *AARHE)
def test_naval_fighters_and_dive_bombers_dogfight_scramble_intercept_and_escort(f: Facts) -> None:
    assert (f["move"], f["airBattle"]) == ("null", "null")
    # One dogfight die per aircraft on each side (naval fighter 2/2, dive bomber 1/2): the British
    # dice hit, so one round ends the dogfight with the German aircraft down.
    assert (f["attackersDice"], f["defendersDice"]) == ([2], [2])
    assert f["germanAircraftLeft"] == 0
    # Defensive air support: from a complex next to the battle, not from one two spaces away.
    s = f["scramble"]
    assert s["move"] == "null"
    assert (s["navalFighterInBattle"], s["diveBomberInBattle"]) == (1, 1), s["places"]
    # A naval fighter intercepts a raid on its complex and escorts a bomber raiding one: one
    # dogfight die each (the bomber has no dogfight attack).
    r = f["raid"]
    assert r["move"] == "null"
    assert (r["attackersDice"], r["defendersDice"]) == ([1], [1])
