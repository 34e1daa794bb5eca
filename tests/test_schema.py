"""The committed JSON Schema is current and accepts the project's own spec files."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from generator.spec.schema import schema_text
from tests.conftest import ROOT, run_cli


def test_committed_schema_is_current() -> None:
    assert (ROOT / "spec.schema.json").read_text(encoding="utf-8") == schema_text(), (
        "run: triplea-forge schema -o spec.schema.json"
    )


@pytest.mark.parametrize("path", sorted((ROOT / "rules" / "revised").glob("*.yaml")), ids=lambda p: p.name)
def test_spec_files_validate_against_schema(path: object) -> None:
    schema = json.loads(schema_text())
    document = yaml.safe_load(path.read_text(encoding="utf-8"))  # type: ignore[attr-defined]
    jsonschema.validate(document, schema)


def test_schema_flags_an_unknown_unit_option() -> None:
    schema = json.loads(schema_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"units": {"infantry": {"atack": 1}}}, schema)
    jsonschema.validate({"units": {"infantry": {"attack": 1}}}, schema)


def test_schema_command_prints_it() -> None:
    result = run_cli("schema", cwd=ROOT)
    assert result.code == 0
    assert json.loads(result.out)["title"] == "triplea-forge spec file"
