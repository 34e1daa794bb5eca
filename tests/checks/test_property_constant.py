"""A property both editable and constant (issue 45): a game XML may define a name twice, as an
option and as a constant; the engine keeps both, reads the editable one, and its own export of
the game writes both. The spec keeps the constant (`constant:`), so import, build and the engine
read the same game.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.helpers import TINY, run_cli, write_tree

# As Cybertank writes it: the option, other properties, then the same name as a constant.
OPTION = '    <property name="Total Victory" value="true" editable="true">\n      <boolean/>\n    </property>\n'
CONSTANT = '    <property name="Total Victory" value="false" editable="false">\n      <boolean/>\n    </property>\n'

# The engine's own view of the properties, which its dump merges into one value per name: the
# constants it keeps, and the options the game's settings show (in order, a name once per definition).
PROBE = """
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.properties.GameProperties;
import games.strategy.engine.data.properties.IEditableProperty;
import java.io.FileInputStream;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

public class PropertyKinds {
  @SuppressWarnings("unchecked")
  public static void main(final String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    for (final String path : args) {
      final GameProperties gp;
      try (InputStream in = new FileInputStream(path)) {
        gp = new GameParser(path).parse(in, new AtomicReference<>(), false).getProperties();
      }
      final Field field = GameProperties.class.getDeclaredField("constantProperties");
      field.setAccessible(true);
      final Map<String, Object> constants = new TreeMap<>((Map<String, Object>) field.get(gp));
      constants.remove("GAME_UUID");  // random per game
      final StringBuilder shown = new StringBuilder();
      for (final IEditableProperty p : gp.getEditableProperties()) {
        shown.append(p.getName()).append('=').append(p.getValue()).append('|');
      }
      System.out.println(constants.toString().replace('\\n', ' ') + "\\t" + shown);
    }
    System.exit(0);
  }
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    return tmp_path


def _original(project: Path) -> Path:
    """The tiny game as a hand-written XML would have it: the option first, the constant last."""
    assert run_cli("build", cwd=project).code == 0
    xml = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    xml = xml.replace("  <propertyList>\n", "  <propertyList>\n" + OPTION, 1)
    path = project / "twice.xml"
    path.write_text(xml.replace("  </propertyList>", CONSTANT + "  </propertyList>", 1), encoding="utf-8")
    return path


def _round_trip(project: Path) -> tuple[Path, Path]:
    original = _original(project)
    imported = run_cli("import", original.name, "--name", "twice", cwd=project)
    assert imported.code == 0, imported.err
    assert "Total Victory" not in imported.err  # nothing left out, nothing to warn of
    built = run_cli("build", "twice", cwd=project)
    assert built.code == 0, built.err
    return original, project / "output" / "games" / "twice.xml"


def test_import_keeps_the_constant_and_build_writes_both(project: Path) -> None:
    _, rebuilt = _round_trip(project)
    game = yaml.safe_load((project / "rules" / "twice" / "game.yaml").read_text(encoding="utf-8"))
    assert game["properties"]["Total Victory"] == {"value": True, "editable": True, "constant": False}
    text = rebuilt.read_text(encoding="utf-8")
    assert " ".join((OPTION + CONSTANT).split()) in " ".join(text.split())  # the constant right after the option
    again = run_cli("import", str(rebuilt), "--name", "again", cwd=project)
    assert again.code == 0, again.err
    assert (project / "rules" / "again" / "game.yaml").read_text(encoding="utf-8").replace(
        "name: again", "name: twice"
    ) == (project / "rules" / "twice" / "game.yaml").read_text(encoding="utf-8")


def test_the_constant_before_the_option_is_kept_too(project: Path) -> None:
    assert run_cli("build", cwd=project).code == 0
    xml = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    path = project / "first.xml"
    path.write_text(xml.replace("  <propertyList>\n", "  <propertyList>\n" + CONSTANT + OPTION, 1), encoding="utf-8")
    assert run_cli("import", path.name, "--name", "first", cwd=project).code == 0
    game = yaml.safe_load((project / "rules" / "first" / "game.yaml").read_text(encoding="utf-8"))
    assert game["properties"]["Total Victory"] == {"value": True, "editable": True, "constant": False}


@pytest.mark.engine
def test_the_engine_reads_the_same_game(project: Path) -> None:
    from generator.engine.harness import dump, find_engine

    original, rebuilt = _round_trip(project)
    dumps = dump([original, rebuilt])
    assert "error" not in dumps[str(original)], dumps[str(original)]["error"]
    assert dumps[str(rebuilt)] == dumps[str(original)]
    assert dumps[str(original)]["properties"]["Total Victory"] is True  # the option is what the game reads
    # The dump holds one value per name: the engine's own view shows the constant is kept.
    engine = find_engine()
    probe = project / "PropertyKinds.java"
    probe.write_text(PROBE, encoding="utf-8")
    shutil.copyfile(engine.properties, project / "game_engine.properties")  # read from the cwd, as the harness has it
    run = subprocess.run(  # java runs a single source file as it is (JDK 11+)
        [engine.java, f"-Duser.home={project}", "-cp", str(engine.jar), str(probe), str(original), str(rebuilt)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=project,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    before, after = [line.split("\t") for line in run.stdout.splitlines() if "\t" in line]
    assert "Total Victory=false" in before[0] and before[0] == after[0]
    # Both list the option twice (once per definition); ours writes the constant next to it.
    assert sorted(before[1].split("|")) == sorted(after[1].split("|"))
    assert before[1].count("Total Victory=true") == 2


def test_a_constant_beside_a_fixed_property_is_refused_at_its_line(project: Path) -> None:
    write_tree(project / "rules", {"kid/game.yaml": """
        extends: tiny
        game: {name: Kid}
        properties:
          Total Victory: {value: true, constant: false}
        """})  # fmt: skip
    result = run_cli("validate", "kid", cwd=project)
    assert result.code == 1
    assert (
        "rules/kid/game.yaml:4:32: properties.'Total Victory'.constant: a constant is kept beside an editable "
        "property only; this one is not editable, so the engine would read the constant and ignore value (write "
        "editable: true, or the value alone)"
    ) in result.err.splitlines()


def test_diff_names_a_constant_set_and_changed(project: Path) -> None:
    write_tree(project / "rules", {
        "kid/game.yaml": "extends: tiny\nproperties:\n  Low Luck: {constant: true}\n",
        "grandkid/game.yaml": "extends: kid\nproperties:\n  Low Luck: {constant: false}\n",
    })  # fmt: skip
    first = run_cli("diff", "tiny", "kid", cwd=project)
    assert first.code == 0, first.err
    assert "  ~ Low Luck: constant set to true" in first.out.splitlines()
    second = run_cli("diff", "kid", "grandkid", cwd=project)
    assert "  ~ Low Luck: constant true \N{RIGHTWARDS ARROW} false" in second.out.splitlines()


@pytest.mark.engine
def test_a_child_imported_over_its_parent_adds_only_the_constant(project: Path) -> None:
    from generator.engine.harness import dump

    assert run_cli("build", cwd=project).code == 0
    xml = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    original = project / "luck.xml"
    constant = '    <property name="Low Luck" value="true" editable="false">\n      <boolean/>\n    </property>\n'
    original.write_text(xml.replace("  </propertyList>", constant + "  </propertyList>", 1), encoding="utf-8")
    imported = run_cli("import", original.name, "--name", "luck", "--extends", "tiny", cwd=project)
    assert imported.code == 0, imported.err
    game = yaml.safe_load((project / "rules" / "luck" / "game.yaml").read_text(encoding="utf-8"))
    assert game["properties"] == {"Low Luck": {"constant": True}}  # the option is the parent's
    assert run_cli("build", "luck", cwd=project).code == 0
    rebuilt = project / "output" / "games" / "luck.xml"
    dumps = dump([original, rebuilt])
    assert dumps[str(rebuilt)] == dumps[str(original)]
