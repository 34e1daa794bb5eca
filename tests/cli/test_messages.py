"""The rest of the error messages, one tiny broken input each, exact text (see also test_errors.py).

Each case adds `rules/broken/game.yaml` (extending the `tiny` fixture unless it says otherwise)
and builds it through the real CLI.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT, Result, run_cli

TINY = ROOT / "tests" / "fixtures" / "tiny"

CASES: dict[str, tuple[str, list[str]]] = {
    "delete_takes_no_value": (
        "extends: tiny\nproperties:\n  Low Luck: !delete x\n",
        ["rules/broken/game.yaml:3:13: properties.'Low Luck': !delete takes no value"],
    ),
    "key_is_a_collection": (
        "extends: tiny\n? [a, b]\n: 1\n",
        ["rules/broken/game.yaml:2:3: a key must be a plain name, not a collection"],
    ),
    "key_is_a_boolean": (
        "extends: tiny\nunits:\n  true: {}\n",
        ["rules/broken/game.yaml:3:3: units: key 'true' must be a name"],
    ),
    "bad_explicit_scalar": (
        "extends: tiny\nunits:\n  infantry: {attack: !!int x}\n",
        [
            "rules/broken/game.yaml:3:22: units.infantry.attack: 'x' is not a valid int: "
            "invalid literal for int() with base 10: 'x'"
        ],
    ),
    "file_not_a_mapping": (
        "- extends\n- tiny\n",
        ["rules/broken/game.yaml:1:1: a spec file must be a mapping of keys"],
    ),
    "extends_not_a_name": (
        "extends: [tiny]\n",
        ["rules/broken/game.yaml:1:10: extends: extends must be a variant name"],
    ),
    "delete_in_a_root_variant": (
        'game: {name: X, version: "1.0", map: tiny_map}\nunits:\n  x: !delete\n',
        ["rules/broken/game.yaml:3:3: units.x: !delete of an entry that is not inherited"],
    ),
    "version_pattern": (
        'extends: tiny\ngame: {version: "1.a"}\n',
        ["rules/broken/game.yaml:2:17: game.version: expected a version like 1.4.1, got '1.a'"],
    ),
    "missing_required_key": (
        "extends: tiny\nproduction_rules:\n  buyTank: {cost: {PUs: 5}}\n",
        ["rules/broken/game.yaml:3:12: production_rules.buyTank.result: missing required key 'result'"],
    ),
    "negative_unit_count": (
        "extends: tiny\nterritories:\n  Alpha: {units: {Reds: {infantry: -2}}}\n",
        ["rules/broken/game.yaml:3:18: territories.Alpha.units: unit count for 'infantry' must not be negative"],
    ),
    "border_with_itself": (
        "extends: tiny\nterritories:\n  Alpha: {connections: [Alpha, Beta]}\n",
        ["rules/broken/game.yaml:3:25: territories.Alpha.connections[0]: a territory cannot border itself"],
    ),
    "attachment_class_unknown": (
        "extends: tiny\nunits:\n  infantry:\n    attachments:\n      myThing: {foo: 1}\n",
        [
            "rules/broken/game.yaml:5:7: units.infantry.attachments.myThing: cannot tell the attachment's class "
            "from its name; add `class:`"
        ],
    ),
    "option_value_shape": (
        "extends: tiny\nunits:\n  infantry: {attack: [[1, 2], 3]}\n",
        [
            "rules/broken/game.yaml:3:22: units.infantry.attack: an option value is a scalar, a list of scalars, "
            "{value: .., count: ..}, or a list of lists / {value, count} mappings (the option repeated)"
        ],
    ),
    "same_name_two_kinds": (
        "extends: tiny\nunits:\n  Reds: {attack: 1}\n",
        [  # the child made the clash: said at its line, the inherited player as context (issue 27)
            "rules/broken/game.yaml:3:3: units.Reds: 'Reds' is also the name of an entry in units; engine 1.9 "
            "needs these names to be unique across kinds (the inherited players.Reds is at rules/tiny/game.yaml:6:3)"
        ],
    ),
    "version_needed_for_19": (
        "extends: tiny\ngame: {version: !delete }\n",
        ['rules/broken/game.yaml:2:7: game: engine 1.9 needs game.version (e.g. version: "1.0")'],
    ),
    "template_unknown_variable": (
        "extends: tiny\nattachment_templates:\n  playerAttachment:\n    foreach: $sides$\n"
        "    attach_to: '@sides@'\n    type: player\n    options: {vps: 1}\n",
        [
            "rules/broken/game.yaml:4:14: attachment_templates.playerAttachment.foreach: foreach '$sides$' names an "
            "unknown variable or has more than one '^'"
        ],
    ),
    "template_unknown_owner": (
        "extends: tiny\nvariables:\n  sides: [Reds, Purples]\nattachment_templates:\n  playerAttachment:\n"
        "    foreach: $sides$\n    attach_to: '@sides@'\n    type: player\n    options: {vps: 1}\n",
        [
            "rules/broken/game.yaml:7:16: attachment_templates.playerAttachment.attach_to: attaches to unknown "
            "player 'Purples'"
        ],
    ),
    "template_unknown_type": (
        "extends: tiny\nattachment_templates:\n  playerAttachment:\n    attach_to: Reds\n    type: nation\n"
        "    options: {vps: 1}\n",
        [
            "rules/broken/game.yaml:5:11: attachment_templates.playerAttachment.type: type 'nation' is not one of "
            "unitType, territory, player, resource, relationship, territoryEffect, technology"
        ],
    ),
    "template_unknown_key": (
        "extends: tiny\nattachment_templates:\n  playerAttachment:\n    attach_to: Reds\n    type: player\n"
        "    optoins: {vps: 1}\n",
        ["rules/broken/game.yaml:6:5: attachment_templates.playerAttachment.optoins: unknown key 'optoins'"],
    ),
    "template_options_not_a_mapping": (
        "extends: tiny\nattachment_templates:\n  playerAttachment:\n    attach_to: Reds\n    type: player\n"
        "    options: [vps, 1]\n",
        [
            "rules/broken/game.yaml:6:14: attachment_templates.playerAttachment.options: expected a mapping of option "
            "names to values"
        ],
    ),
    "variables_not_lists": (
        "extends: tiny\nvariables:\n  sides: Reds\n",
        ["rules/broken/game.yaml:3:3: variables: expected a mapping of names to lists"],
    ),
    "control_character": (
        'extends: tiny\ngame: {name: "Tiny\x01War"}\n',
        [
            "rules/broken/game.yaml:2:19: control character U+0001, which YAML does not allow; remove it or write it "
            "as an escape"
        ],
    ),
    "nul_character": (
        "extends: tiny\ngame: {name: Tiny\x00War}\n",
        [
            "rules/broken/game.yaml:2:18: control character U+0000, which YAML does not allow; remove it or write it "
            "as an escape"
        ],
    ),
    "byte_order_mark_mid_file": (
        "extends: tiny\n\ufeffgame: {name: Tiny}\n",
        [
            "rules/broken/game.yaml:2:1: a byte order mark (U+FEFF) in the middle of the file; editors show nothing "
            "there: delete it"
        ],
    ),
    "lone_surrogate_escape": (
        'extends: tiny\ngame: {name: "Tiny \\ud800"}\n',
        [
            "rules/broken/game.yaml:2:14: game.name: half of a character (a lone surrogate escape such as \\ud800); "
            "remove it"
        ],
    ),
    "number_too_long": (
        "extends: tiny\nunits:\n  infantry: {attack: " + "9" * 5000 + "}\n",
        [
            "rules/broken/game.yaml:3:22: units.infantry.attack: number too long (5000 characters); TripleA reads "
            "32-bit integers"
        ],
    ),
    "merge_key_not_a_mapping": (
        "extends: tiny\nunits:\n  infantry:\n    <<: 5\n",
        [
            "rules/broken/game.yaml:4:5: units.infantry: `<<` merges a mapping (or a list of mappings) into this one; "
            "give it one"
        ],
    ),
    "nested_too_deep": (
        "extends: tiny\nunits:\n  infantry: {attack: " + "[" * 600 + "]" * 600 + "}\n",
        ["rules/broken/game.yaml:3:83: nested more than 64 levels deep; a spec needs far fewer"],
    ),
    "nested_far_too_deep": (  # deep enough to crash LibYAML's composer if it saw it
        "extends: tiny\nunits:\n  infantry: {attack: " + "[" * 40_000 + "]" * 40_000 + "}\n",
        ["rules/broken/game.yaml:3:83: nested more than 64 levels deep; a spec needs far fewer"],
    ),
    "nested_past_libyaml_in_few_characters": (  # LibYAML refuses it; the pure composer would recurse
        "extends: tiny\nunits:\n  infantry: {attack: " + "[" * 2_000 + "]" * 2_000 + "}\n",
        ["rules/broken/game.yaml:3:83: nested more than 64 levels deep; a spec needs far fewer"],
    ),
    "nested_too_deep_where_libyaml_refuses_an_escape": (  # read by the pure parser
        'extends: tiny\nname: "\\ud800"\nunits:\n  infantry: {attack: ' + "[" * 2_000 + "]" * 2_000 + "}\n",
        ["rules/broken/game.yaml:4:83: nested more than 64 levels deep; a spec needs far fewer"],
    ),
    "sexagesimal_is_text": (  # YAML 1.1 read this as 90
        "extends: tiny\nunits:\n  infantry: {attack: 1:30}\n",
        ["rules/broken/game.yaml:3:14: units.infantry.attack: '1:30' is not an integer"],
    ),
    "yes_is_text": (
        "extends: tiny\nunits:\n  infantry: {isInfantry: yes}\n",
        ["rules/broken/game.yaml:3:14: units.infantry.isInfantry: 'yes' is not true/false"],
    ),
    "negative_cost": (
        "extends: tiny\nproduction_rules:\n  buyInfantry: {cost: {PUs: -3}}\n",
        [
            "rules/broken/game.yaml:3:29: production_rules.buyInfantry.cost.PUs: cost of PUs is -3; it must not be "
            "negative (the engine takes it as is)"
        ],
    ),
    "map_name_leaves_its_folder": (
        "extends: tiny\ngame: {map: ../rules}\n",
        [
            "rules/broken/game.yaml:2:13: game.map: map name '../rules' cannot be a folder name: no '/', '\\' or "
            "control characters, no '.' at the start; it names the map's folder and zip"
        ],
    ),
    "map_file_leaves_its_folder": (
        "extends: tiny\nmap_files:\n  ../evil: {a: b}\n",
        [
            "rules/broken/game.yaml:3:3: map_files.'../evil': map file name '../evil' cannot be a folder name: no "
            "'/', '\\' or control characters, no '.' at the start; it becomes <name>.properties in the map"
        ],
    ),
    "sea_and_air": (
        "extends: tiny\nunits:\n  infantry: {isSea: true, isAir: true}\n",
        [
            "rules/broken/game.yaml:3:14: units.infantry.isSea: isSea is refused on an air unit (isAir: true); "
            'leave it out or make the unit a land or sea unit; TripleA 1.9 and 2.x refuse the game: "air units '
            'cannot have certain properties" (UnitAttachment.validate)',
            # no warning that infantry is a sea unit placed on land: the error at its isSea says it
        ],
    ),
    "sub_on_land": (
        "extends: tiny\nunits:\n  infantry: {isSub: true}\n",
        [
            "rules/broken/game.yaml:3:14: units.infantry.isSub: isSub is refused on a land unit (neither isAir nor "
            'isSea); TripleA 1.9 refuses the game: "land units cannot have certain properties" '
            "(UnitAttachment.validate)"
        ],
    ),
    "type_error_does_not_hide_references": (
        "extends: tiny\nproduction_rules:\n  buyInfantry: {cost: {PUs: x}}\nterritories:\n  Alpha: {owner: Nobody}\n",
        [
            "rules/broken/game.yaml:3:29: production_rules.buyInfantry.cost.PUs: expected a whole number, got 'x'",
            "rules/broken/game.yaml:5:18: territories.Alpha.owner: unknown player 'Nobody'",
        ],
    ),
    "yaml_tab": (
        "extends: tiny\nunits:\n\tinfantry: {attack: 1}\n",
        [
            "rules/broken/game.yaml:3:1: YAML syntax error: a tab character: YAML indents with spaces only; replace "
            "the tab with spaces"
        ],
    ),
    "yaml_indentation": (
        "extends: tiny\nunits:\n  infantry:\n    attack: 1\n   defense: 2\n",
        [
            "rules/broken/game.yaml:5:4: YAML syntax error: this line does not line up with the lines above it: "
            "check its indentation against line 3"
        ],
    ),
    "yaml_unclosed_mapping": (
        "extends: tiny\nunits: {infantry: {attack: 1}\nterritories: {}\n",
        [
            "rules/broken/game.yaml:3:1: YAML syntax error: the {...} mapping is not closed: separate its entries "
            "with ', ' and end it with '}' (it opens at line 2)"
        ],
    ),
    "yaml_unclosed_quote": (
        'extends: tiny\ngame: {name: "Tiny}\nunits: {}\n',
        ["rules/broken/game.yaml:4:1: YAML syntax error: a quote that is never closed (it opens at line 2)"],
    ),
    "yaml_colon_in_value": (
        "extends: tiny\ngame: {name: War: Peace}\n",
        [
            "rules/broken/game.yaml:2:17: YAML syntax error: a ':' inside a {...} mapping where an entry should "
            "end: separate entries with ', ', and quote a value holding ': '"
        ],
    ),
    "yaml_list_and_key_on_one_level": (
        "extends: tiny\nunits:\n  - infantry\n  armour: {}\n",
        [
            "rules/broken/game.yaml:4:3: YAML syntax error: this line does not fit the block above it: a list item "
            "('- ...') and a key ('key: ...') cannot share one level; check the indentation (it opens at line 3)"
        ],
    ),
    "key_without_space_after_colon": (
        "extends: tiny\nunits:\n  infantry:{attack: 1}\n",
        [
            "rules/broken/game.yaml:3:21: units.infantry:{attack: expected a mapping of keys, got '1}' (a space is "
            "needed after the ':' of a key: `infantry: {attack: 1}`)"
        ],
    ),
}


def _build_broken(project: Path, text: str, env: dict[str, str] | None = None) -> Result:
    """rules/tiny plus rules/broken/game.yaml holding `text`, built through the CLI."""
    shutil.copytree(TINY, project / "rules" / "tiny")
    (project / "rules" / "broken").mkdir()
    (project / "rules" / "broken" / "game.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
    return run_cli("build", "broken", cwd=project, env=env)


@pytest.mark.parametrize("case", sorted(CASES))
def test_message(tmp_path: Path, case: str) -> None:
    text, expected = CASES[case]
    result = _build_broken(tmp_path, text)
    assert result.code == 1, result
    assert "Traceback" not in result.err
    assert result.err.splitlines()[:-1] == expected
    assert not (tmp_path / "output").exists()


WARNINGS: dict[str, tuple[str, list[str]]] = {
    "property_value_of_the_wrong_type": (
        "extends: tiny\nproperties:\n  Low Luck: {value: ture}\n",
        [
            "rules/broken/game.yaml:3:21: warning: properties.'Low Luck'.value: the engine reads Low Luck as true or "
            "false and fails where it does; 'ture' is neither (did you mean 'true'?)"
        ],
    ),
    "property_name_in_the_wrong_case": (
        "extends: tiny\nproperties:\n  Low luck: true\n",
        [
            "rules/broken/game.yaml:3:3: warning: properties.'Low luck': no engine reads 'Low luck': property names "
            "are case-sensitive (did you mean 'Low Luck'?)"
        ],
    ),
    "property_number_given_text": (
        "extends: tiny\nproperties:\n  maxFactoriesPerTerritory: many\n",
        [
            "rules/broken/game.yaml:3:29: warning: properties.maxFactoriesPerTerritory: the engine reads "
            "maxFactoriesPerTerritory as a whole number and fails where it does; 'many' is not one"
        ],
    ),
    "property_nobody_reads": (
        "extends: tiny\nproperties:\n  Lowe Luck: true\n",
        [
            "rules/broken/game.yaml:3:3: warning: properties.'Lowe Luck': no engine reads 'Lowe Luck' and no "
            "condition asks about it, so it does nothing (did you mean 'Low Luck'?)"
        ],
    ),
    "sub_on_land_for_2x": (
        "extends: tiny\ngame: {target: '2.x'}\nunits:\n  infantry: {isSub: true}\n",
        [
            "rules/broken/game.yaml:4:21: warning: units.infantry.isSub: isSub on infantry, which is not a sea unit "
            "(isSea): it does nothing away from the sea"
        ],
    ),
    "rule_in_no_frontier": (
        "extends: tiny\nproduction_rules:\n  buyMore: {cost: {PUs: 3}, result: {infantry: 1}}\n",
        [
            "rules/broken/game.yaml:3:12: warning: production_rules.buyMore: buyMore is in no production frontier "
            "and no trigger adds it to one: nobody can buy it"
        ],
    ),
    "territory_borders_nothing": (
        "extends: tiny\nterritories:\n  Alpah: {units: {Reds: {infantry: 1}}}\n",
        [
            "rules/broken/game.yaml:3:10: warning: territories.Alpah: 'Alpah' borders nothing and is not a sea zone, "
            "so nothing can ever move in or out (did you mean 'Alpha'?)"
        ],
    ),
    "victory_threshold_unreachable": (
        "extends: tiny\nterritories:\n  Alpha: {victoryCity: 1}\nproperties:\n  West Projection of Power VCs: 9\n",
        [
            "rules/broken/game.yaml:5:33: warning: properties.'West Projection of Power VCs': needs 9 victory "
            "cities but the map has only 1: no one can win this way"
        ],
    ),
    "sea_unit_on_land": (
        "extends: tiny\nunits:\n  battleship: {isSea: true}\nterritories:\n  Alpha: {units: {Reds: {battleship: 1}}}\n",
        [
            "rules/broken/game.yaml:5:38: warning: territories.Alpha.units.Reds.battleship: battleship is a sea unit "
            "placed on land"
        ],
    ),
    "land_units_at_sea": (
        "extends: tiny\nunits:\n  transport: {isSea: true, transportCapacity: 2}\n  infantry: {transportCost: 2}\n"
        "territories:\n  Sea:\n    sea: true\n    connections: [Alpha]\n"
        "    units: {Reds: {infantry: 3, transport: 1}}\n"
        "  Alpha: {connections: [Beta, Sea]}\n",
        [
            "rules/broken/game.yaml:9:12: warning: territories.Sea.units: land units at sea need 6 transport capacity, "
            "the ships here carry 2"
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(WARNINGS))
def test_warning(tmp_path: Path, case: str) -> None:
    text, expected = WARNINGS[case]
    # Without the map installed: the sanity warnings are the only word on these new units and
    # territories (with it, the board checks make them errors); that the board was not checked is
    # said on its own line.
    result = _build_broken(tmp_path, text, env={"TRIPLEA_MAPS": str(tmp_path / "no-maps")})
    assert result.code == 0, result
    found = [line for line in result.err.splitlines() if "warning" in line and "against the board" not in line]
    assert found == expected
