"""Checks against the board through the real CLI: territories on the map, a picture for every unit.

The `tiny` fixture is played on `tests/fixtures/tiny_map` (two territories, an infantry picture per
player, no stock art for its players); the repository's variants on the official Revised map.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from tests.helpers import BASE_MAP, ROOT, TINY, TINY_MAP, Result, run_cli, write_tree

MISSPELLED = "extends: tiny\nterritories:\n  Alpah: {production: 3}\n"
NEW_UNIT = """
    extends: tiny
    units:
      tank: {movement: 2, attack: 3, defense: 3}
    production_rules:
      buyTank: {cost: {PUs: 5}, result: {tank: 1}}
    production_frontiers:
      standard: [buyInfantry, buyTank]
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    return tmp_path


def _cli(project: Path, *args: str, home: Path | None = None) -> Result:
    """The CLI with a HOME of the test's own (no TripleA maps unless the test installs them)."""
    home = home or project / "home"
    home.mkdir(exist_ok=True)
    return run_cli(*args, cwd=project, env={"HOME": str(home), "XDG_CACHE_HOME": str(project / "cache")})


def _errors(result: Result) -> list[str]:
    return result.err.splitlines()[:-1]


def test_a_misspelled_territory_is_an_error_at_its_line(project: Path) -> None:
    write_tree(project, {"rules/broken/game.yaml": MISSPELLED})
    result = _cli(project, "build", "broken", "--base-map", str(TINY_MAP))
    assert result.code == 1
    assert _errors(result) == [
        "rules/broken/game.yaml:3:3: territories.Alpah: no territory 'Alpah' on the map 'tiny_map' (did you mean "
        "'Alpha'?); TripleA would not start the game (No data of type centers for territory: Alpah)"
    ]
    assert not (project / "output").exists()


def test_a_territory_missing_from_one_board_file(project: Path, tmp_path: Path) -> None:
    board = shutil.copytree(TINY_MAP, tmp_path / "board")
    (board / "map" / "place.txt").write_text("Alpha  (80,120)\n", encoding="utf-8")
    result = _cli(project, "validate", "tiny", "--base-map", str(board))
    assert _errors(result) == [
        "rules/tiny/game.yaml:17:3: territories.Beta: territory 'Beta' is missing from place.txt (where units "
        "stand) of the map 'tiny_map'; TripleA would not start the game"
    ]


def test_the_installed_map_is_found_and_checked(project: Path) -> None:
    """Without --base-map: the map game.map names in ~/triplea/downloadedMaps, a folder or a zip."""
    write_tree(project, {"rules/broken/game.yaml": MISSPELLED})
    maps = project / "home" / "triplea" / "downloadedMaps"
    shutil.copytree(TINY_MAP, maps / "tiny_map")
    assert "no territory 'Alpah'" in _cli(project, "validate", "broken").err
    shutil.rmtree(maps / "tiny_map")
    shutil.make_archive(str(maps / "tiny_map-master"), "zip", TINY_MAP.parent, TINY_MAP.name)
    assert "no territory 'Alpah'" in _cli(project, "validate", "broken").err


def test_a_game_xml_is_checked_against_the_board_too(project: Path) -> None:
    """validate FILE.xml --base-map: a territory the map lacks is an error there too."""
    built = _cli(project, "build", "tiny")
    assert built.code == 0, built.err
    game = project / "output" / "games" / "tiny.xml"
    assert _cli(project, "validate", str(game), "--base-map", str(TINY_MAP)).code == 0
    renamed = project / "renamed.xml"
    renamed.write_text(game.read_text(encoding="utf-8").replace('"Beta"', '"Betta"'), encoding="utf-8")
    result = _cli(project, "validate", str(renamed), "--base-map", str(TINY_MAP))
    assert result.code == 1
    expected = "territories.Betta: no territory 'Betta' on the map 'tiny_map' (did you mean 'Beta'?)"
    assert any(expected in line for line in _errors(result)), result.err


def test_without_the_map_a_warning_says_nothing_was_checked(project: Path) -> None:
    write_tree(project, {"rules/broken/game.yaml": MISSPELLED})
    result = _cli(project, "validate", "broken")
    assert result.code == 0, result.err
    home = project / "home"
    assert result.err.splitlines() == [
        "rules/broken/game.yaml:3:10: warning: territories.Alpah: 'Alpah' borders nothing and is not a sea zone, so "
        "nothing can ever move in or out (did you mean 'Alpha'?)",
        f"rules/tiny/game.yaml:2:45: warning: game.map: map 'tiny_map' not found in {home}/triplea/downloadedMaps: "
        "territories and unit pictures were not checked against the board (give --base-map, or get it: triplea-forge "
        "map get tiny_map)",
    ]
    assert _cli(project, "validate", "broken", "--strict").code == 1  # strict: nothing may go unchecked


def test_a_cached_build_checks_again_once_the_map_is_installed(project: Path) -> None:
    write_tree(project, {"rules/broken/game.yaml": MISSPELLED})
    first = _cli(project, "build")
    assert first.code == 0 and "not checked against the board" in first.err
    assert "0 files written" in _cli(project, "build").out  # answered from the build cache
    shutil.copytree(TINY_MAP, project / "home" / "triplea" / "downloadedMaps" / "tiny_map")
    after = _cli(project, "build")
    assert after.code == 1 and "no territory 'Alpah'" in after.err


def test_a_unit_without_a_picture_is_an_error_naming_the_fix(project: Path) -> None:
    write_tree(project, {"rules/broken/game.yaml": NEW_UNIT})
    result = _cli(project, "validate", "broken", "--base-map", str(TINY_MAP))
    assert _errors(result) == [
        "rules/broken/game.yaml:3:3: units.tank: no picture of tank for Blues, Reds: units/<player>/tank.png is in "
        "neither the map 'tiny_map' nor the engine's stock art; add `image: {from: infantry, mark: T}` to "
        "units.tank (derived from each player's infantry) or `image: tank.png` (drawn)"
    ]


def test_a_picture_needed_only_after_a_capture_is_a_warning(project: Path) -> None:
    """Real maps leave out the pictures of infrastructure for players who can only capture it, and
    are played: that is a warning; a hidden player who never moves captures nothing."""
    write_tree(project, {"rules/broken/game.yaml": """
        extends: tiny
        players:
          Greys: {}
        units:
          bunker: {isInfrastructure: true, movement: 0, image: {players: {Reds: bunker.png}}}
        territories:
          Alpha: {units: {Reds: {bunker: 1}}}
    """})  # fmt: skip
    shutil.copy(TINY_MAP / "map" / "units" / "Reds" / "infantry.png", project / "rules" / "broken" / "bunker.png")
    result = _cli(project, "validate", "broken", "--base-map", str(TINY_MAP))
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        "rules/broken/game.yaml:5:3: warning: units.bunker: no picture of bunker for Blues (if they capture one): "
        "units/<player>/bunker.png is in neither the map 'tiny_map' nor the engine's stock art; add "
        "`image: {from: infantry, mark: B}` to units.bunker (derived from each player's infantry) or "
        "`image: bunker.png` (drawn)"
    ]


def test_a_frontier_for_a_tech_nobody_can_have_needs_no_pictures(project: Path) -> None:
    switched = NEW_UNIT.replace(
        "      standard: [buyInfantry, buyTank]", "      standardIndustrialTechnology: [buyTank]"
    )
    write_tree(project, {"rules/broken/game.yaml": switched + "    technologies: {}\n"})
    result = _cli(project, "validate", "broken", "--base-map", str(TINY_MAP))
    assert "no picture of tank" not in result.err, result.err
    # With the engine's built-in advances, Industrial Technology can be researched: the tank can be bought.
    write_tree(project, {"rules/broken/game.yaml": switched})
    result = _cli(project, "validate", "broken", "--base-map", str(TINY_MAP))
    assert "units.tank: no picture of tank for Blues, Reds:" in result.err, result.err


def test_a_picture_named_in_another_case_is_pointed_out(project: Path, tmp_path: Path) -> None:
    board = tmp_path / "board"
    shutil.copytree(TINY_MAP, board)
    for player in ("Reds", "Blues"):
        shutil.copy(board / "map" / "units" / player / "infantry.png", board / "map" / "units" / player / "Tank.png")
    write_tree(project, {"rules/broken/game.yaml": NEW_UNIT})
    result = _cli(project, "validate", "broken", "--base-map", str(board))
    assert result.code == 1
    assert _errors(result)[0].endswith(
        "; units/Blues/Tank.png, units/Reds/Tank.png differs in case only (file names are case-sensitive on Linux)"
    )


def _png(size: tuple[int, int], colour: tuple[int, int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, colour).save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("image", "files", "expected"),
    [
        (
            "{from: infntry}",
            {},
            "rules/broken/game.yaml:3:24: units.tank.image.from: cannot derive tank's pictures from unknown unit "
            "'infntry' (did you mean 'infantry'?)",
        ),
        (
            "{from: tank}",
            {},
            "rules/broken/game.yaml:3:24: units.tank.image.from: cannot derive tank's pictures from itself",
        ),
        (
            "../../outside.png",
            {"outside.png": _png((8, 8), (0, 0, 0, 255))},
            "rules/broken/game.yaml:3:17: units.tank.image: '../../outside.png' leads outside the rules folder; "
            "keep pictures beside the specs",
        ),
        (
            "tank.png",
            {"rules/broken/tank.png": b"GIF89a not a png"},
            "rules/broken/game.yaml:3:17: units.tank.image: 'tank.png' is not a PNG picture",
        ),
        (
            "missing.png",
            {},
            "rules/broken/game.yaml:3:17: units.tank.image: 'missing.png': cannot read file: No such file or directory",
        ),
        (
            "{players: {Greens: tank.png}}",
            {"rules/broken/tank.png": _png((8, 8), (0, 0, 0, 255))},
            "rules/broken/game.yaml:3:36: units.tank.image.players.Greens: unknown player 'Greens'",
        ),
        (
            "{from: infantry, mark: TANK}",
            {},
            "rules/broken/game.yaml:3:40: units.tank.image.mark: a mark is up to 3 letters, digits or + # * -, drawn "
            "on the picture; got 'TANK'",
        ),
        (
            "{from: infantry, file: tank.png}",
            {},
            "rules/broken/game.yaml:3:17: units.tank.image: give `from:` (derive each player's picture) or `file:` "
            "(a drawn one), not both",
        ),
        (
            "{from: infantry, mark: '', tint: 12345}",
            {},
            "rules/broken/game.yaml:3:50: units.tank.image.tint: expected text, got 12345 (write it in quotes: "
            "'12345')",
        ),
    ],
    ids=[
        "unknown-from",
        "from-itself",
        "outside",
        "not-png",
        "missing",
        "unknown-player",
        "long-mark",
        "both",
        "tint-type",
    ],
)
def test_image_mistakes(project: Path, image: str, files: dict[str, bytes], expected: str) -> None:
    spec = NEW_UNIT.replace("tank: {movement", f"tank: {{image: {image}, movement")
    write_tree(project, {"rules/broken/game.yaml": spec})
    for rel, data in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_bytes(data)
    result = _cli(project, "validate", "broken", "--base-map", str(TINY_MAP))
    assert result.code == 1
    assert expected in _errors(result), result.err


def test_a_fixed_unit_gets_its_pictures_in_the_package(project: Path) -> None:
    """`image: {from: infantry}` makes each player's tank from their infantry, marked; a drawn file is fitted."""
    spec = """
        extends: tiny
        units:
          tank: {image: {from: infantry, mark: T}, movement: 2, attack: 3, defense: 3}
          truck: {image: art/truck.png, movement: 2}
        production_rules:
          buyTank: {cost: {PUs: 5}, result: {tank: 1}}
          buyTruck: {cost: {PUs: 4}, result: {truck: 1}}
        production_frontiers:
          standard: [buyInfantry, buyTank, buyTruck]
    """
    write_tree(project, {"rules/broken/game.yaml": spec})
    (project / "rules" / "broken" / "art").mkdir()
    (project / "rules" / "broken" / "art" / "truck.png").write_bytes(_png((96, 48), (20, 140, 20, 255)))
    result = _cli(project, "package", "broken", "--base-map", str(TINY_MAP), "--out", "dist")
    assert result.code == 0, result.err
    units = project / "dist" / "tiny_map" / "map" / "units"
    made = sorted(p.relative_to(units).as_posix() for p in units.rglob("*.png"))
    assert made == ["Blues/infantry.png", "Blues/tank.png", "Blues/truck.png",
                    "Reds/infantry.png", "Reds/tank.png", "Reds/truck.png"]  # fmt: skip
    for player in ("Reds", "Blues"):
        infantry = Image.open(TINY_MAP / "map" / "units" / player / "infantry.png").convert("RGBA")
        tank = Image.open(units / player / "tank.png").convert("RGBA")
        assert tank.size == infantry.size == (48, 48)
        # The soldier is still there, with a yellow badge in the bottom-right corner.
        assert tank.getpixel((24, 10)) == infantry.getpixel((24, 10))
        corner = [tank.getpixel((x, y)) for x in range(36, 48) for y in range(30, 48)]
        assert sum(1 for p in corner if p[:3] == (255, 221, 51)) > 20
        assert sum(1 for p in corner if p[:3] == (0, 0, 0) and p[3] == 255) > 10  # the letter and border
        truck = Image.open(units / player / "truck.png").convert("RGBA")
        assert truck.size == (48, 48)  # fitted into the map's unit size, its shape kept: 48 x 24, centred
        assert truck.getpixel((24, 24))[:3] == (20, 140, 20) and truck.getpixel((24, 5))[3] == 0


@pytest.mark.engine
def test_every_variant_is_on_the_board_with_a_picture_for_every_unit() -> None:
    """The repository's variants against the official map and the engine's stock art: no problem at all."""
    result = run_cli("validate", "--base-map", str(BASE_MAP), "--strict", cwd=ROOT)
    assert result.code == 0, result.err
    assert result.err == ""


@pytest.mark.engine
def test_the_package_makes_every_form_the_engine_asks_for(tmp_path: Path) -> None:
    """expansion's new units for each player, their tech forms, and the damaged forms the stock art lacks."""
    result = run_cli("package", "expansion", "--base-map", str(BASE_MAP), "--out", str(tmp_path), cwd=ROOT)
    assert result.code == 0, result.err
    units = tmp_path / "world_war_ii_revised" / "map" / "units"
    made = {p.relative_to(units).as_posix() for p in units.rglob("*.png")}
    players = ["Americans", "British", "Germans", "Italians", "Japanese", "Russians"]
    for player in players:
        for unit in ("heavyTank", "heavyArtillery", "mechInfantry", "lightCarrier", "navalFighter"):
            assert f"{player}/{unit}.png" in made
        # Fighters' technologies: long range and jets, each and both; two-hit carriers and cruisers damaged.
        for form in ("navalFighter_lr", "navalFighter_jp", "navalFighter_lr_jp", "carrier_hit", "cruiser_hit"):
            assert f"{player}/{form}.png" in made
    assert {p for p in made if "ssPanzer" in p} == {"Germans/ssPanzer.png"}  # only Germany can have one
    assert {p for p in made if "shockTroops" in p} == {"Russians/shockTroops.png"}
    assert {p for p in made if "lendLease" in p} == {"Americans/lendLease.png"}  # the drawn crate
    assert not any(p.endswith(("/armour.png", "/fighter_lr.png")) for p in made)  # the stock art has those
