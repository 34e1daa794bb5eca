"""Fourth adversarial round (issue 43), class 2: no command writes over a file it did not write.

`check --rounds 0 --report README.md` replaced the README with JSON. Every file a command writes
where the user names it (a report, a study's files, a schema, a picture) may replace only what
that command writes, or anything with --force (cli/outputs.foreign_file_problem, one rule for
all); the refusal comes before anything is built or played.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli.outputs import CHECK_REPORT, PATTERNS, PICTURE, SCHEMA, STUDY_HTML, STUDY_MARKDOWN, Kind
from generator.cli.outputs import STUDY_RECORDS as RECORDS
from tests.helpers import TINY, examples, run_cli

README = "# My mod\n\nHow to play it.\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("overwrite")
    shutil.copytree(TINY, folder / "rules" / "tiny")
    return folder


def _refused(project: Path, args: list[str], target: Path, option: str, instead: str = "file") -> None:
    before = target.read_bytes()
    result = run_cli(*args, cwd=project)
    assert result.code == 1, result.err
    assert result.err.splitlines() == [
        f"{target.relative_to(project)} exists and is not {KINDS[option].what}: {option} would replace it; give "
        f"another {instead}, or --force",
        "1 error found.",
    ]
    assert target.read_bytes() == before
    assert not (project / "output").exists()  # refused before anything was built


KINDS: dict[str, Kind] = {"--report": CHECK_REPORT, "-o": SCHEMA, "--out": STUDY_MARKDOWN}


@pytest.mark.parametrize("name", ["README.md", "notes.json", "data.txt"])
def test_check_never_replaces_a_file_it_did_not_write(project: Path, name: str) -> None:
    target = project / name
    target.write_text(README if name.endswith(".md") else '{"mine": true}\n', encoding="utf-8")
    _refused(project, ["check", "--rounds", "0", "--report", name], target, "--report")


def test_check_never_replaces_a_spec_file(project: Path) -> None:
    result = run_cli("check", "--rounds", "0", "--report", "rules/tiny/game.yaml", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/tiny/game.yaml exists and is a spec file: --report would replace it; give another file, or --force"
    )


@pytest.mark.parametrize(
    ("name", "kind"),
    [("games.jsonl", RECORDS), ("report.md", STUDY_MARKDOWN), ("report.html", STUDY_HTML), ("income.png", PICTURE)],
)
def test_a_study_never_replaces_a_file_it_did_not_write(project: Path, name: str, kind: Kind) -> None:
    out = project / "studies"
    out.mkdir(exist_ok=True)
    (out / name).write_text("my own notes\n", encoding="utf-8")
    before = (out / name).read_bytes()
    result = run_cli("balance", "tiny", "--out", "studies", cwd=project)
    assert result.code == 1, result.err
    assert result.err.splitlines() == [
        f"studies/{name} exists and is not {kind.what}: --out would replace it; give another folder, or --force",
        "1 error found.",
    ]
    assert (out / name).read_bytes() == before
    (out / name).unlink()


def test_what_a_study_or_a_check_wrote_is_theirs_to_replace() -> None:
    assert RECORDS.ours(b'{"actionsOpen":{},"seed":1,"variant":"tiny"}\n{"seed": 2, "vari')
    assert STUDY_MARKDOWN.ours(b"# Balance study\n\n")
    assert STUDY_HTML.ours(b'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Balance study</title>')
    assert CHECK_REPORT.ours(b'{\n "actionsNeverTaken": {},\n "ok": true,\n "options": {},\n "variants": []\n}\n')
    assert not CHECK_REPORT.ours(b'{"ok": true}') and not RECORDS.ours(b"seed,variant\n1,tiny\n")


@pytest.mark.engine
def test_check_replaces_its_own_report_and_anything_with_force(project: Path) -> None:
    (project / "README.md").write_text(README, encoding="utf-8")
    first = run_cli("check", "tiny", "--rounds", "0", "--report", "report.json", cwd=project)
    assert first.code == 0, first.err
    again = run_cli("check", "tiny", "--rounds", "0", "--report", "report.json", cwd=project)
    assert again.code == 0, again.err
    forced = run_cli("check", "tiny", "--rounds", "0", "--report", "README.md", "--force", cwd=project)
    assert forced.code == 0, forced.err
    assert CHECK_REPORT.ours((project / "README.md").read_bytes())
    shutil.rmtree(project / "output")


# What each command writes where the user names it, and the option that names it.
COMMANDS: list[tuple[list[str], str, Kind, str]] = [
    (["schema", "-o", "target"], "target", SCHEMA, "-o"),
    (["patterns", "-o", "target"], "target", PATTERNS, "-o"),
    (["preview", "tiny", "-o", "target"], "target", PICTURE, "-o"),
    (["check", "--rounds", "0", "--report", "target"], "target", CHECK_REPORT, "--report"),
    (["balance", "tiny", "--out", "study"], "study/report.md", STUDY_MARKDOWN, "--out"),
    (["balance", "tiny", "--out", "study"], "study/games.jsonl", RECORDS, "--out"),
]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    command=st.sampled_from(COMMANDS), content=st.binary(min_size=1, max_size=200) | st.text(min_size=1).map(str.encode)
)
def test_no_command_replaces_what_it_did_not_write(
    project: Path, command: tuple[list[str], str, Kind, str], content: bytes
) -> None:
    args, rel, kind, option = command
    if kind.ours(content):
        return  # the command's own kind of file: its to replace
    target = project / rel
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(content)
    result = run_cli(*args, cwd=project)
    assert result.code == 1, result.err
    assert f"{rel} exists and is not {kind.what}: {option} would replace it" in result.err
    assert target.read_bytes() == content
    assert not (project / "output").exists()
    target.unlink()
