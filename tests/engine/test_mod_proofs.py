"""Proofs beside their variants: `rules/<variant>/proofs/`, found for the shipped variants and for a
mod repository's own rules folder alike.

A proofs folder's `proofs.yaml` names its scenarios, what each proves and the games they are played
on (generator/catalog/scenarios.py reads it for the checks); its Java is compiled with the scenario
driver (generator/engine/javac.py); its `equivalent.yaml` holds the mutation sweep's equivalences
of its variant (generator/engine/equivalent.py). Here: what a manifest says and what it may not, and
a mod repository made with `new` whose ledger names a scenario of its own, which `validate` knows,
`coverage` counts as shown and the proof runner plays in the real engine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.catalog.scenarios import RULES_ENV, SCENARIOS, ProofManifestError, proof_folders, shipped_rules
from generator.cli import cli
from generator.engine.equivalent import equivalent, variant_equivalences
from generator.engine.errors import HarnessError
from generator.engine.javac import proof_sources
from generator.engine.sweep import fingerprint
from tests.helpers import ROOT, run_cli, write_tree

MANIFEST = """
    games: [first, first-2x]
    scenarios:
      first-turn:
        proves: "the first turn"
      first-declare-{}:
        proves: "{} declared"
        each: [Winter, Railway]
      first-late:
        proves: "a late rule"
        games: [first-late]
    plays:
      turn-steps: [first]
"""


def test_a_manifest_names_its_scenarios_and_the_games_they_are_played_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"rules/first/proofs/proofs.yaml": MANIFEST, "rules/second/proofs/proofs.yaml": """
        games: [second]
        scenarios: {}
        plays: {first-turn: [second], convoy-zones: [second]}
    """})  # fmt: skip
    monkeypatch.chdir(tmp_path)
    assert proof_folders()[-2:] == [tmp_path.resolve() / "rules" / name / "proofs" for name in ("first", "second")]
    assert SCENARIOS["first-turn"].variants == ("first", "first-2x", "second")
    assert SCENARIOS["first-turn"].manifest == tmp_path.resolve() / "rules" / "first" / "proofs" / "proofs.yaml"
    assert SCENARIOS["first-declare-Railway"].description == "Railway declared"
    assert SCENARIOS["first-late"].variants == ("first-late",)
    # The tool's own scenarios are played on the games the manifests name, after the shipped ones.
    assert SCENARIOS["turn-steps"].variants[-1:] == ("first",) and SCENARIOS["turn-steps"].manifest is None
    assert SCENARIOS["convoy-zones"].variants[-1:] == ("second",)
    # The shipped variants' scenarios are there too; another working folder has none of these.
    assert "victory" in SCENARIOS
    monkeypatch.chdir(ROOT)
    assert "first-turn" not in SCENARIOS


def test_a_command_run_in_this_process_leaves_the_rules_folder_it_was_told_behind(tmp_path: Path) -> None:
    """`--rules` names its folder in the environment for the processes the command starts; a command
    run in-process (a module fixture's CliRunner, watch) puts the environment back when it ends, or
    every later look-up in the process would list that folder's proofs, not the working folder's."""
    write_tree(tmp_path, {"rules/first/proofs/proofs.yaml": MANIFEST})
    before = os.environ.get(RULES_ENV)
    CliRunner().invoke(cli, ["validate", "--rules", str(tmp_path / "rules")])
    assert os.environ.get(RULES_ENV) == before


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"rules/a/proofs/A.java": ""}, "holds no proofs.yaml"),
        ({"rules/a/proofs/proofs.yaml": "scenario: {}"}, "unknown key 'scenario'"),
        ({"rules/a/proofs/proofs.yaml": "scenarios: {a-x: {games: [a]}}"}, "scenarios.a-x: say what it proves"),
        ({"rules/a/proofs/proofs.yaml": "scenarios:\n  a-{}:\n    proves: p\n"}, "a name with {} takes `each`"),
        ({"rules/a/proofs/proofs.yaml": "scenarios: {a-x: {proves: p, games: a}}"}, "a-x.games: expected a list"),
        ({"rules/a/proofs/proofs.yaml": "scenarios: {victory: {proves: p}}"}, "'victory' is provided by"),
        ({"rules/a/proofs/proofs.yaml": "scenarios: {turn-steps: {proves: p}}"}, "provided by the tool itself"),
        ({"rules/a/proofs/proofs.yaml": "plays: {a-nothing: [a]}"}, "provides a scenario 'a-nothing'"),
        ({"rules/a/proofs/proofs.yaml": "- a list"}, "the manifest: expected a mapping"),
        ({"rules/a/proofs/proofs.yaml": "scenarios: {'a x': {proves: p}}"}, "'a x' is not a name"),
    ],
)
def test_a_manifest_mistake_is_said_with_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], said: str
) -> None:
    write_tree(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProofManifestError) as raised:
        SCENARIOS.get("victory")
    assert str(raised.value).startswith("rules/a/proofs")  # named from the working folder
    assert said in str(raised.value)


def test_a_copy_of_a_shipped_variant_brings_its_proofs_in_their_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rules folder holding a shipped variant of its own (a copy, to change it) has its proofs
    folder replace the shipped one, as its YAML does: no scenario, no class file, twice."""
    shutil.copytree(ROOT / "rules" / "expansion", tmp_path / "rules" / "expansion")
    manifest = tmp_path / "rules" / "expansion" / "proofs" / "proofs.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("expansion-units:", "expansion-arms:"), "utf-8")
    monkeypatch.chdir(tmp_path)
    assert [p.parent.name for p in proof_folders()] == ["aare", "aarhe", "expansion"]
    assert proof_folders()[-1] == tmp_path.resolve() / "rules" / "expansion" / "proofs"
    assert "expansion-arms" in SCENARIOS and "expansion-units" not in SCENARIOS
    assert sum(name == "ExpansionProofs.java" for name, _ in proof_sources()) == 1


def test_every_shipped_proofs_folder_names_its_scenarios() -> None:
    folders = [p for p in proof_folders() if p.parent.parent == shipped_rules()]
    assert [p.parent.name for p in folders] == ["aare", "aarhe", "expansion"]
    provided = {info.manifest for info in SCENARIOS.values()}
    assert {folder / "proofs.yaml" for folder in folders} <= provided
    # Every scenario a shipped manifest provides is played on the games of some variant.
    assert [name for name, info in SCENARIOS.items() if not info.variants] == []


def test_a_variants_equivalences_are_read_from_its_proofs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit = "players.Reds.attachments.triggerAttachmentRedsOnce.uses: 1 -> 2"
    assert equivalent(edit) is None
    write_tree(tmp_path, {"rules/a/proofs/proofs.yaml": "games: [a]", "rules/a/proofs/equivalent.yaml": r"""
        - pattern: '^players\.Reds\.attachments\.triggerAttachmentRedsOnce\.uses: 1 -> 2$'
          why: its only condition is switched off by the trigger itself
    """})  # fmt: skip
    monkeypatch.chdir(tmp_path)
    assert equivalent(edit) == "its only condition is switched off by the trigger itself"
    # The shipped variants' own are read too (AARe's declarations, AARHE's national builds).
    assert equivalent("players.Russians.attachments.userActionAttachmentRuWinter.attemptsPerTurn: 1 -> 2")
    assert equivalent("units.spitfire.unitPlacementOnlyAllowedIn: widened by 7 Sea Zone")
    (tmp_path / "rules" / "a" / "proofs" / "equivalent.yaml").write_text("- pattern: '(unclosed'\n  why: w\n")
    with pytest.raises(ProofManifestError, match=r"equivalent\.yaml: entry 0: pattern '\(unclosed'"):
        variant_equivalences()


def test_a_proof_change_makes_the_recorded_sweeps_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep's record holds the fingerprint of what it played: the Java of every proofs folder in
    use is in it (where the proofs are played is not)."""
    tree = {"game": {"name": "t"}}
    shipped_only = fingerprint(tree)
    proof = write_tree(tmp_path, {"rules/a/proofs/proofs.yaml": "games: [a]\n", "rules/a/proofs/AProofs.java": """
        package forge;
        final class AProofs {}
    """}) / "rules" / "a" / "proofs"  # fmt: skip
    monkeypatch.chdir(tmp_path)
    with_proof = fingerprint(tree)
    assert with_proof != shipped_only
    (proof / "AProofs.java").write_text("package forge;\nfinal class AProofs { }\n", encoding="utf-8")
    assert fingerprint(tree) != with_proof
    edited = fingerprint(tree)
    (proof / "proofs.yaml").write_text("games: [a, b]\n", encoding="utf-8")
    assert fingerprint(tree) == edited
    # A proof's file named as another's (one package, one folder of sources) is refused.
    write_tree(tmp_path, {"rules/b/proofs/AProofs.java": "package forge;\n", "rules/b/proofs/proofs.yaml": "{}"})
    with pytest.raises(HarnessError, match=r"two proofs are named AProofs\.java"):
        fingerprint(tree)


PROOF_CLASS = """
    package forge;

    /** mymod's engine scenarios: proofs.yaml says what each proves and on which games it is played. */
    final class MymodProofs implements Proof {
      @Override
      public Run scenario(final String name) {
        return name.equals("mymod-infantry") ? MymodProofs::infantry : null;
      }

      /** An infantry's attack and defence in Russia, as the engine computes them for a battle. */
      private static ScenarioJson.Obj infantry(final String file) throws Exception {
        final ScenarioGame g = new ScenarioGame(file);
        final ScenarioJson.Obj out = ScenarioJson.obj();
        out.put("infantry", ScenarioPlay.strengths(g, "Russians", "infantry", "Russia", false));
        g.stop();
        return out;
      }
    }
"""
LEDGER = """
    units:
      infantry: {attack: 2, ledger: [mymod-infantry]}
    rule_ledger:
      mymod-infantry:
        section: Units
        source: "house rule: infantry attack at 2"
        summary: infantry attack at 2
        fidelity: {grade: exact}
        proof: {scenario: mymod-infantri}
"""


def _run_proof(mod: Path, scenario: str) -> dict[str, object]:
    """The proof runner as a mod maker runs it in the repository, on the game its manifest names."""
    proc = subprocess.run(
        [sys.executable, "-m", "generator.engine.scenario", scenario],
        cwd=mod,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    facts: dict[str, object] = json.loads(proc.stdout)
    return facts


@pytest.mark.engine
def test_a_mod_repository_proves_its_rule_with_a_scenario_of_its_own(tmp_path: Path) -> None:
    assert run_cli("new", "mymod", "--in", "mod", cwd=tmp_path).code == 0
    mod = tmp_path / "mod"
    game = mod / "rules" / "mymod" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + textwrap.dedent(LEDGER).lstrip("\n"), encoding="utf-8")
    # Its ledger names a scenario no proofs folder in use provides: an error at its line.
    checked = run_cli("validate", cwd=mod)
    assert checked.code == 1
    assert "rule_ledger.mymod-infantry.proof.scenario: unknown scenario 'mymod-infantri'" in checked.err
    write_tree(mod, {"rules/mymod/proofs/MymodProofs.java": PROOF_CLASS, "rules/mymod/proofs/proofs.yaml": """
        games: [mymod]
        scenarios:
          mymod-infantry:
            proves: "infantry attack at 2 and defend at 2 in Russia"
    """})  # fmt: skip
    checked = run_cli("validate", cwd=mod)  # a slip of the name: the mod's own scenario is offered
    assert "unknown scenario 'mymod-infantri' (did you mean 'mymod-infantry'?)" in checked.err
    game.write_text(game.read_text(encoding="utf-8").replace("mymod-infantri", "mymod-infantry"), encoding="utf-8")
    checked = run_cli("validate", cwd=mod)
    assert checked.code == 0, checked.err
    # Told its rules folder from elsewhere (`--rules`), a command finds the proofs beside its variants.
    elsewhere = run_cli("validate", "--rules", str(mod / "rules"), cwd=tmp_path)
    assert elsewhere.code == 0, elsewhere.err
    assert run_cli("build", cwd=mod).code == 0
    covered = run_cli("coverage", "mymod", "--format", "markdown", cwd=mod)
    assert "| **All rules** | **1.9** | **1 (100%)** |" in covered.out
    assert covered.out.rstrip().endswith("mymod: 1 of 1 enforced rules proven in the engine on 2.x (100%)")
    assert "| 1 / 0 / 0 |" in covered.out  # shown / pinned / none: shown by the scenario
    # The engine plays the mod's own class on its built game, and sees the rule as it is built.
    assert _run_proof(mod, "mymod-infantry") == {"infantry": {"attack": 2, "defence": 2}}
    game.write_text(game.read_text(encoding="utf-8").replace("attack: 2,", "attack: 3,"), encoding="utf-8")
    assert run_cli("build", cwd=mod).code == 0
    assert _run_proof(mod, "mymod-infantry") == {"infantry": {"attack": 3, "defence": 2}}
