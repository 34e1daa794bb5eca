"""Pictures of a game (`preview`, `diff --picture`, the package's previews) and the picture names a
game needs (who owns which unit, which tech and damage forms the engines ask for)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from PIL import Image

from generator.checks.unit_owners import picture_forms, player_advances, unit_owners
from generator.release.pictures.board import Highlight, _highlight_rows, _wrap
from generator.release.pictures.diff import territory_changes
from tests.helpers import BASE_MAP, ROOT, run_cli, variant_spec

COLOURS = {"Russians": (0xAF, 0x28, 0x28), "Germans": (0x5A, 0x5A, 0x5A), "Italians": (0x23, 0x6B, 0x6A)}
HIGHLIGHT = (230, 0, 180)


def _count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(n for n, c in image.convert("RGB").getcolors(1 << 24) or [] if c == colour)


def test_preview_draws_the_starting_board(tmp_path: Path) -> None:
    out = tmp_path / "expansion.png"
    result = run_cli("preview", "expansion", "-o", str(out), "--base-map", str(BASE_MAP), cwd=ROOT)
    assert result.code == 0, result.err
    assert result.out == f"board: map 'world_war_ii_revised' at {BASE_MAP}, for expansion\nwrote {out}\n"
    image = Image.open(out)
    assert image.format == "PNG" and image.width == 1800 and 1100 < image.height < 1400
    assert not image.info  # no time, text or profile: the same board gives the same bytes
    for player, colour in COLOURS.items():  # each owner's territories in their colour (Italy: a new player)
        assert _count(image, colour) > 3000, player
    # Germany is filled German grey (a point between its placement points, away from its labels).
    board = image.crop((0, 44, 1800, 44 + 1029)).convert("RGB")
    assert board.getpixel((round(1010 * 1800 / 3500), round(640 * 1800 / 3500))) == COLOURS["Germans"]
    again = tmp_path / "again.png"
    assert run_cli("preview", "expansion", "-o", str(again), "--base-map", str(BASE_MAP), cwd=ROOT).code == 0
    assert again.read_bytes() == out.read_bytes()
    lhtr = tmp_path / "lhtr.png"
    assert run_cli("preview", "lhtr", "-o", str(lhtr), "--base-map", str(BASE_MAP), cwd=ROOT).code == 0
    assert _count(Image.open(lhtr), COLOURS["Italians"]) == 0  # no Italian player in LHTR


def test_preview_needs_the_map(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    result = run_cli("preview", "lhtr", "-o", str(tmp_path / "x.png"), cwd=ROOT, env={"HOME": str(home)})
    assert result.code == 1
    assert result.err == (
        f"Error: map 'world_war_ii_revised' not found in {home}/triplea/downloadedMaps: give --base-map, or get it: "
        "triplea-forge map get world_war_ii_revised\n"
    )
    assert not (tmp_path / "x.png").exists()


def test_diff_picture_outlines_what_changed(tmp_path: Path) -> None:
    out = tmp_path / "diff.png"
    args = ("diff", "aarhe", "aarhe-phase1", "--base-map", str(BASE_MAP))
    plain = run_cli(*args, cwd=ROOT)
    result = run_cli(*args, "--picture", str(out), cwd=ROOT)
    assert result.code == 0, result.err
    assert result.out == plain.out  # the words do not change
    image = Image.open(out)
    assert _count(image, HIGHLIGHT) > 20_000  # 37 territories outlined and numbered
    same = tmp_path / "same.png"
    assert run_cli("diff", "aarhe", "aarhe", "--base-map", str(BASE_MAP), "--picture", str(same), cwd=ROOT).code == 0
    assert _count(Image.open(same), HIGHLIGHT) == 0


def test_territory_changes_in_words() -> None:
    changes = {h.territory: h.words for h in territory_changes(variant_spec("aarhe"), variant_spec("aarhe-phase1"))}
    assert changes["Australia"] == ["territoryEffect UkRadar -> none", "victory city 1 -> 2"]
    # units +1: its initial complex
    assert changes["Eastern Canada"] == ["territoryEffect UkRadar -> none", "victory city 2 -> 3", "units +1"]
    # Turkey's income (aarhe's neutral incomes) is not in the Phase 1 notes.
    assert changes["Turkey"] == [
        "production 3 -> 0",
        "territoryEffect Mountain -> none",
        "victory city 2 -> none",
        "borders",
    ]
    seas = [int(name.split()[0]) for name in changes if name.endswith(" Sea Zone")]
    assert len(seas) > 3 and seas == sorted(seas)  # numbers in numeric order (2, 9, 10, not 10, 2, 9)
    russia_falls = territory_changes(variant_spec("lhtr"), variant_spec("lhtr"))
    assert russia_falls == []


def test_the_picture_s_list_groups_runs_and_wraps_long_lines() -> None:
    same = ["blockadeZone true -> none"]
    marks = [Highlight(f"{n} Sea Zone", same) for n in (1, 2, 3)]
    marks.append(Highlight("Balkans", ["owner Italians -> Germans"]))
    assert _highlight_rows(marks) == [
        "1-3. 1 Sea Zone ... 3 Sea Zone (3 territories): blockadeZone true -> none",
        "4. Balkans: owner Italians -> Germans",
    ]
    assert _wrap((None, "68. Balkans: owner Italians -> Germans, territoryEffect"), 30) == [
        (None, "68. Balkans: owner Italians"),
        (None, "   -> Germans, territoryEffect"),
    ]


def test_the_package_ships_each_game_s_picture(tmp_path: Path) -> None:
    result = run_cli("package", "lhtr", "--base-map", str(BASE_MAP), "--out", str(tmp_path), cwd=ROOT)
    assert result.code == 0, result.err
    folder = tmp_path / "world_war_ii_revised"
    shown = (folder / "previews" / "lhtr.png").read_bytes()
    assert (folder / "preview.png").read_bytes() == shown  # one game: it is the map's preview too
    assert b'<img src="previews/lhtr.png"' in (folder / "description.html").read_bytes()
    with zipfile.ZipFile(tmp_path / "world_war_ii_revised-master.zip") as archive:
        assert archive.read("world_war_ii_revised-master/previews/lhtr.png") == shown
    fresh = tmp_path / "lhtr.png"
    assert run_cli("preview", "lhtr", "-o", str(fresh), "--base-map", str(BASE_MAP), cwd=ROOT).code == 0
    assert fresh.read_bytes() == shown


def test_picture_names_the_engines_ask_for() -> None:
    """Revised: the six built-in advances for every player; the names UnitImageFactory builds."""
    spec = variant_spec("revised")
    advances = player_advances(spec)
    assert advances["Germans"] == {"jetPower", "superSub", "longRangeAir", "rocket", "industrialTechnology",
                                   "heavyBomber"}  # fmt: skip
    names = {unit: [f.name for f in picture_forms(spec, unit, advances["Germans"])] for unit in spec.units}
    assert names["fighter"] == ["fighter", "fighter_jp", "fighter_lr", "fighter_lr_jp"]
    assert names["bomber"] == ["bomber", "bomber_hb", "bomber_lr", "bomber_lr_hb"]
    assert names["aaGun"] == ["aaGun", "rockets"]  # isAA makes it a rocket; no radar among the six
    assert names["submarine"] == ["submarine", "submarine_ss"]
    assert names["factory"] == ["factory", "factory_it"]
    assert names["battleship"] == ["battleship", "battleship_hit"]  # two hit points
    assert names["infantry"] == ["infantry"]


def test_who_can_own_a_unit() -> None:
    spec = variant_spec("expansion")
    owners = unit_owners(spec)
    everyone = set(spec.players)
    assert owners["ssPanzer"] == {"Germans"}  # only Germany's frontier has it
    assert owners["shockTroops"] == {"Russians"}
    assert owners["lendLease"] == {"Americans"}  # placed by a trigger for the Americans
    assert owners["factory"] == owners["aaGun"] == everyone  # captured with their territory
    assert owners["heavyTank"] == everyone
    phase1 = unit_owners(variant_spec("aarhe-phase1"))
    assert phase1["factory3"] == set(variant_spec("aarhe-phase1").players)  # bought by some, captured by all
    advances = player_advances(spec)
    assert "industrialTechnology" not in advances["Italians"] and "jetPower" in advances["Italians"]
    assert [f.name for f in picture_forms(spec, "navalFighter", advances["Italians"])] == [
        "navalFighter",
        "navalFighter_jp",
        "navalFighter_lr",
        "navalFighter_lr_jp",
    ]
    assert [f.name for f in picture_forms(spec, "cruiser", advances["Italians"])] == ["cruiser", "cruiser_hit"]


def test_the_add_a_unit_guide_variant_gets_its_heavy_tank_pictures(tmp_path: Path) -> None:
    """The how-to `Add a unit with its picture`, as written there, checks clean and packages a heavy tank for all."""
    guide = (ROOT / "docs" / "how-to" / "add-a-unit.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Write the unit") :]
    start = section.index("```yaml\n") + len("```yaml\n")
    spec = section[start : section.index("```\n", start)]
    (tmp_path / "rules").mkdir()
    made = run_cli("new", "myvariant", "--extends", "lhtr", cwd=tmp_path)
    assert made.code == 0, made.err
    game = tmp_path / "rules" / "myvariant" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + spec, encoding="utf-8")  # written under what `new` wrote
    result = run_cli("package", "myvariant", "--base-map", str(BASE_MAP), "--out", "dist", cwd=tmp_path)
    assert result.code == 0, result.err
    units = tmp_path / "dist" / "world_war_ii_revised" / "map" / "units"
    assert {p.parent.name for p in units.glob("*/heavyTank.png")} == {
        "Russians", "Germans", "British", "Japanese", "Americans"
    }  # fmt: skip


def test_units_a_tech_adds_to_the_frontiers_get_every_picture_they_need() -> None:
    """AARHE's heavy tank is bought only after its tech's trigger adds `buyHeavyTank` to a frontier
    (`productionRule`): every player may own one, damaged too (two hit points)."""
    spec = variant_spec("aarhe")
    assert unit_owners(spec)["heavyTank"] == set(spec.players)
    advances = player_advances(spec)
    assert "heavyTank_hit" in [f.name for f in picture_forms(spec, "heavyTank", advances["Italians"])]
