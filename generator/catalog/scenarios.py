"""The engine scenarios: each proves rules by playing them in the real engine.

A variant's scenarios live beside its YAML, in `rules/<variant>/proofs/` (`PROOFS`): Java classes
the harness compiles with its driver (`generator/engine/java/Scenario.java`), which
`generator/engine/scenario.py` runs. The proofs folders are those of the variants triplea-forge
ships and of the rules folder in use (`rules/` of the working folder, as the commands read it), so
a mod repository's own proofs are found as the shipped ones are. The list is here, below the
stages, because both the engine stage (which runs a scenario) and the spec checks (a ledger proof
naming a scenario that does not exist or is not run on its variant) read it, and checking a spec
never starts the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PROOFS = "proofs"  # a variant's proofs folder, beside its YAML
RULES = Path("rules")  # the rules folder the commands read unless told another (`--rules`)


def shipped_rules() -> Path:
    """The variants triplea-forge ships: `paths.base_rules_dir`, which the catalog may not import
    (it sits beside `paths` in the layering), so said again here."""
    here = Path(__file__).resolve().parents[1]
    packaged = here / "_rules"
    return packaged if packaged.is_dir() else here.parent / "rules"


def proof_folders() -> list[Path]:
    """The proofs folders of the shipped variants, then of the rules folder in use (each once), in
    name order: what the harness compiles and whose scenarios the checks know."""
    found: list[Path] = []
    for rules in (shipped_rules(), RULES.resolve()):
        if rules.is_dir():
            found += [p / PROOFS for p in sorted(rules.iterdir()) if (p / PROOFS).is_dir() and p / PROOFS not in found]
    return found


@dataclass(frozen=True)
class ScenarioInfo:
    """An engine scenario: what it proves and the variants whose built game the tests run it on."""

    description: str
    variants: tuple[str, ...]


_AARE = ("aare", "aare-2x")
# AARe's national advantages by their user actions' names (userActionAttachment<name>): each has a
# `declare-<name>` scenario (generator/engine/java/ScenarioAdvantages.java).
AARE_ADVANTAGES = (
    "RuWinter", "RuRailway", "RuT34", "RuLendLease", "RuMobileIndustry", "RuSiberian",
    "Ge88s", "GeAfrikaKorps", "GeAtlanticWall", "GeLuftwaffe", "GePanzerblitz", "GeWolfPacks",
    "UkColonialGarrison", "UkCommonwealth", "UkLendLease", "UkRadar", "UkRoyalAirForce", "UkRoyalNavy",
    "JpBanzai", "JpKaiten", "JpKamikaze", "JpTechAdvantage", "JpTokyoExpress", "JpYamato",
    "UsMarines", "UsMechanizedInfantry", "UsNavalIndustry", "UsPacificDivisions", "UsReinforcedCarriers",
    "UsTechInvestment",
)  # fmt: skip
_AARHE = ("aarhe", "aarhe-2x")
SCENARIOS: dict[str, ScenarioInfo] = {
    "advantage-placement": ScenarioInfo(
        "Siberian Conscripts: declared by user action, free infantry placed each Mobilize", _AARE
    ),
    "schedule": ScenarioInfo(
        "national-advantage schedule: one per nation in round 1, Germany, Japan and one Ally in round 2", _AARE
    ),
    "prices": ScenarioInfo(
        "Luftwaffe and Royal Navy: declaring swaps the nation's production rules (trigger cost change)", _AARE
    ),
    "combat-bonus": ScenarioInfo("Severe Winter, Yamato and Banzai: combat strengths the engine computes", _AARE),
    "tech-ability": ScenarioInfo("US Mechanized Infantry: a hidden tech gives infantry 2 moves and blitz", _AARE),
    "immediate-units": ScenarioInfo(
        "Afrika Korps and German 88's: units placed at once move this turn, more at Mobilize", _AARE
    ),
    "treaty": ScenarioInfo("Russia-Japan treaty: no attack while it holds; ending it pays the other side", _AARE),
    "convoy": ScenarioInfo(
        "convoy raids: enemy subs next to UK/US/Japanese complexes cut income, Germany immune", (*_AARE, "expansion")
    ),
    "victory": ScenarioInfo(
        "15 victory cities: Allies win with 11, Axis with 10, at the end of the round", (*_AARE, "expansion")
    ),
    "advantage-strengths": ScenarioInfo(
        "T-34s and Wolf Packs in combat, Radar on the AA dice, fighters bought at the Luftwaffe price", _AARE
    ),
    "advantages-undeclared": ScenarioInfo(
        "no advantage declared: the switches as the game starts, what each nation's steps offer", _AARE
    ),
    "advantages-second": ScenarioInfo(
        "second advantages declared in round 2 after none in round 1: Russia's and Britain's take the Allies' "
        "slot, Germany's its own",
        _AARE,
    ),
    **{
        f"declare-{name}": ScenarioInfo(
            f"{name} declared and followed to round 3: everything it changes (every player's PUs, prices, "
            "techs, switches, unit strengths, territory effects, units placed), each Mobilize action alone",
            _AARE,
        )
        for name in AARE_ADVANTAGES
    },
    "colonial-convoys": ScenarioInfo("Colonial Garrison: a complex in India makes its sea zone a convoy zone", _AARE),
    "tech-strengths": ScenarioInfo(
        "jet fighters, long range aircraft and combined arms: strengths and movement with and without the techs", _AARE
    ),
    "expansion-turn": ScenarioInfo(
        "Italy's turn after Germany's, the free units of round 1, SS Panzers placed in Germany only", ("expansion",)
    ),
    "expansion-lend-lease": ScenarioInfo(
        "lend-lease tokens granted after the US placement while the US holds its territory, paid at sea to"
        " the zone's Ally for the US's tokens alone",
        ("expansion",),
    ),
    "expansion-free-units": ScenarioInfo(
        "every nation's free units of round 1, placed for it alone after its placement, none in round 2",
        ("expansion",),
    ),
    "expansion-treaty": ScenarioInfo(
        "Russia ends the treaty with Japan: war, and four infantry for Japan", ("expansion",)
    ),
    "expansion-units": ScenarioInfo(
        "destroyers against submarines (defence 3, no passing), a tank taking an infantry along", ("expansion",)
    ),
    "turn-steps": ScenarioInfo(
        "two rounds run without a move: every step the engine runs, for whom, and the bids entered in the options",
        (*_AARE, "expansion", *_AARHE, "aarhe-draft", "aarhe-phase1"),
    ),
    "convoy-zones": ScenarioInfo(
        "an enemy submarine in each sea zone in turn: what each nation loses to it at its income",
        (*_AARE, "expansion", *_AARHE),
    ),
    "aarhe-turn-order": ScenarioInfo(
        "the Soviet opening turn and the nations' order; government in exile; research only while holding the capital",
        _AARHE,
    ),
    "aarhe-aa-dice": ScenarioInfo(
        "a lone fighter attacks a complex with an AA gun: one die per gun and three per complex",
        (*_AARHE, "aarhe-draft"),
    ),
    "aarhe-anti-air": ScenarioInfo(
        "each anti-aircraft unit type on loaded dice: its dice, their sides, rounds and hits",
        (*_AARHE, "aarhe-draft"),
    ),
    "aarhe-complex-places": ScenarioInfo(
        "each complex type tried in every land territory: where the engine lets it be placed",
        (*_AARHE, "aarhe-draft", "aarhe-phase1"),
    ),
    "aarhe-air-battle": ScenarioInfo(
        "with the air battle option on, naval fighters and dive bombers fight a dogfight before the battle", _AARHE
    ),
    "aarhe-victory": ScenarioInfo(
        "Total Victory (every territory, for either side) and victory city points at the end of the round",
        (*_AARHE, "aarhe-draft", "aarhe-phase1"),
    ),
    "aarhe-movement": ScenarioInfo(
        "xenophobia, Axis co-operation, naval fighters on carriers, bombers carrying infantry", _AARHE
    ),
    "aarhe-retreat": ScenarioInfo(
        "where an attack may retreat (not where only its aircraft came from); aircraft left at sea are lost", _AARHE
    ),
    "aarhe-axis-italy": ScenarioInfo(
        "Japan and Italy: allies whose land units may not enter each other's land", _AARHE
    ),
    "aarhe-economy": ScenarioInfo("scorched earth, repairs, convoy raids, lend-lease delivery and free cargo", _AARHE),
    "aarhe-lend-lease": ScenarioInfo(
        "two free cargoes a turn for the US, each paid at sea to the zone's Ally for the US's cargo alone", _AARHE
    ),
    "aarhe-scorch": ScenarioInfo(
        "every nation offered to scorch its complex in a territory exactly when it has one there",
        (*_AARHE, "aarhe-draft"),
    ),
    "aarhe-builds": ScenarioInfo(
        "national builds, heavy units by research, national attacks and terrain bonuses in combat",
        (*_AARHE, "aarhe-draft"),
    ),
}
