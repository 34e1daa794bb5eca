"""`triplea-forge import` reproduces the committed base variants from the official map's XML."""

from __future__ import annotations

import filecmp
import re
from pathlib import Path

from tests.helpers import DATA, OFFICIAL_GAMES, ROOT, run_cli


def test_import_reproduces_committed_rules(tmp_path: Path) -> None:
    """rules/revised and rules/lhtr are exactly what import makes of ww2v2.xml and lhtr.xml."""
    first = run_cli("import", str(OFFICIAL_GAMES / "ww2v2.xml"), "--name", "revised", cwd=tmp_path)
    assert first.code == 0, first.err
    second = run_cli("import", str(OFFICIAL_GAMES / "lhtr.xml"), "--name", "lhtr", "--extends", "revised", cwd=tmp_path)
    assert second.code == 0, second.err
    for variant in ("revised", "lhtr"):
        compare = filecmp.dircmp(tmp_path / "rules" / variant, ROOT / "rules" / variant)
        assert not compare.left_only and not compare.right_only, variant
        for name in compare.common_files:
            ours = (tmp_path / "rules" / variant / name).read_text()
            assert ours == (ROOT / "rules" / variant / name).read_text(), f"{variant}/{name}"


def test_child_holds_only_the_differences() -> None:
    lhtr = (ROOT / "rules" / "lhtr" / "sequence.yaml").read_text()
    assert "russianTechActivation: {after: russianPlace}" in lhtr
    assert sorted(p.name for p in (ROOT / "rules" / "lhtr").iterdir()) == ["game.yaml", "sequence.yaml"]


def test_import_refuses_to_overwrite(tmp_path: Path) -> None:
    args = ("import", str(OFFICIAL_GAMES / "ww2v2.xml"), "--name", "revised")
    assert run_cli(*args, cwd=tmp_path).code == 0
    again = run_cli(*args, cwd=tmp_path)
    assert again.code == 1
    assert again.err.splitlines()[0] == "rules/revised already exists (use --force to replace it)"


def test_import_rejects_bad_names_and_xml(tmp_path: Path) -> None:
    bad_name = run_cli("import", str(OFFICIAL_GAMES / "ww2v2.xml"), "--name", "../evil", cwd=tmp_path)
    assert bad_name.code == 1
    assert bad_name.err.splitlines()[0] == (
        "variant name '../evil' is not a plain name: use letters, digits, '.', '_' and '-' "
        "(starting with a letter or digit, no '--', at most 100 characters)"
    )
    broken = tmp_path / "broken.xml"
    broken.write_text("<game>\n  <map>\n</game>\n")
    result = run_cli("import", str(broken), "--name", "x", cwd=tmp_path)
    assert result.code == 1
    # The place the parser stopped, in the words of the installed libxml2.
    assert re.fullmatch(r"broken\.xml:3:\d+: XML is not well-formed: .*\n1 error found\.\n", result.err), result.err
    assert not (tmp_path / "rules" / "x").exists()


def test_import_never_expands_entities(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    xml = (OFFICIAL_GAMES / "ww2v2.xml").read_text()
    xml = xml.replace(
        '<!DOCTYPE game SYSTEM "game.dtd">',
        f'<!DOCTYPE game [<!ENTITY leak SYSTEM "file://{secret}">]>',
    ).replace('name="World War II Revised"', 'name="&leak;"', 1)
    source = tmp_path / "evil.xml"
    source.write_text(xml)
    result = run_cli("import", str(source), "--name", "evil", cwd=tmp_path)
    text = "".join(p.read_text() for p in (tmp_path / "rules").rglob("*.yaml")) if result.code == 0 else ""
    assert "TOPSECRET" not in text + result.err + result.out


def test_import_report_lists_what_was_normalised(tmp_path: Path) -> None:
    source = DATA / "xml" / "Rise_of_the_Axis.xml"
    result = run_cli("import", str(source), "--name", "rota", "--report", cwd=tmp_path)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert "not represented: nothing" in lines
    assert "normalised: 1" in lines
    assert lines[-1].endswith(
        "second 'Soviet-Western_Friendship' on player 'Russians' replaces the first, as in the engine"
    )


def test_import_extends_a_variant_that_extends_another(tmp_path: Path) -> None:
    """A parent with a parent of its own: the child keeps its `extends` (the parent's is not
    content to delete) and restates none of the parent's step moves."""
    rules = tmp_path / "rules"
    for variant in ("revised", "lhtr"):
        (rules / variant).mkdir(parents=True)
        for spec in (ROOT / "rules" / variant).glob("*.yaml"):
            (rules / variant / spec.name).write_text(spec.read_text(encoding="utf-8"), encoding="utf-8")
    result = run_cli("import", str(OFFICIAL_GAMES / "lhtr.xml"), "--name", "again", "--extends", "lhtr", cwd=tmp_path)
    assert result.code == 0, result.err
    assert sorted(p.name for p in (rules / "again").iterdir()) == ["game.yaml"]
    assert "{extends: lhtr}" in (rules / "again" / "game.yaml").read_text(encoding="utf-8")
