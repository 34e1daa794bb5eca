"""The committed JSON Schema is current and accepts the project's own spec files."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import jsonschema
import pytest
import yaml

from generator.spec.kinds import KIND_OF_TYPE
from generator.spec.model import AttachmentTemplate
from generator.spec.schema import schema_text
from tests.helpers import ROOT, run_cli


def test_committed_schema_is_current() -> None:
    assert (ROOT / "spec.schema.json").read_text(encoding="utf-8") == schema_text(), (
        "run: triplea-forge schema -o spec.schema.json"
    )


class _EditorLoader(yaml.SafeLoader):
    """YAML as an editor told `"yaml.customTags": ["!delete scalar"]` reads it: !delete is a scalar."""


_EditorLoader.add_constructor("!delete", lambda loader, node: "")
SPEC_FILES = sorted((ROOT / "rules").glob("*/*.yaml")) + sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))


def _problems(document: object) -> list[str]:
    validator = jsonschema.Draft7Validator(json.loads(schema_text()))
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(document)]


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_spec_file_validates_against_the_schema_on_its_own(path: Path) -> None:
    """Child files restate only what they change and use !delete: the editor shows no false error."""
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=_EditorLoader)
    assert _problems(document) == []


@pytest.mark.parametrize(
    "typo",
    [
        {"units": {"infantry": {"atack": 1}}},  # an option name
        {"units": {"infantry": {"defense": "four"}}},  # a whole-number option given text
        {"units": {"infantry": {"isSea": "yes"}}},  # a true/false option given text
        {"unitz": {}},  # a top-level key
        {"players": ["Russians"]},  # a list where names map to entries
        {"territories": {"Germany": {"conections": ["Poland"]}}},  # a territory key
        {"game": {"nmae": "My Mod"}},  # a key of the game
    ],
    ids=["option", "int-option", "bool-option", "top-level", "collection", "territory-key", "game-key"],
)
def test_schema_flags_typos(typo: dict[str, object]) -> None:
    assert len(_problems(typo)) == 1


def test_schema_takes_what_the_model_takes() -> None:
    for fine in (
        {"units": {"infantry": {"attack": 1, "defense": {"value": 2, "count": 1}}}},
        {"game": {"name": "Child"}},  # no need to restate the inherited map or version
        {"properties": {"Low Luck": ""}},  # `Low Luck: !delete`
    ):
        assert _problems(fine) == [], fine


def test_schema_command_prints_it() -> None:
    result = run_cli("schema", cwd=ROOT)
    assert result.code == 0
    assert json.loads(result.out)["title"] == "triplea-forge spec file"


def test_template_types_are_the_kinds() -> None:
    """An attachment template's `type:` lists the kinds of object (spec.kinds), in their order."""
    annotation = AttachmentTemplate.model_fields["type"].annotation
    assert typing.get_args(annotation) == tuple(KIND_OF_TYPE)
