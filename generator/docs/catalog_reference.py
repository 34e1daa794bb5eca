"""The option catalog pages, one per engine: every attachment option, game property and load check.

Read from `generator/catalog/engine-<engine>.json` and `engine-checks-<engine>.json`, the data
`validate` and `build` check against (regenerated from the engines by `scripts/catalog/`).
"""

from __future__ import annotations

from typing import Any

from generator.catalog import engine_json, load_catalog
from generator.catalog.checks import load_checks
from generator.docs.markdown import GENERATED, cell, code, table
from generator.targets import EngineName

STATUS_WORDS = {
    "rule": "rule",
    "option_syntax": "option syntax",
    "spec_check": "spec check",
    "in_play": "fails in play",
    "not_checked": "not checked",
}


def _value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return code(str(value)) if str(value) != "" else '`""`'


def _options(catalog: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for name, attachment in sorted(catalog["attachments"].items()):
        attach_to = ", ".join(f"`{t}`" for t in attachment.get("attachTo", []))
        lines += [f"### {name}", "", f"`{attachment['javaClass']}`, attached to {attach_to}.", ""]
        rows = []
        for option, spec in sorted(attachment["options"].items()):
            notes = []
            if spec.get("repeatable"):
                notes.append("repeatable")
            if spec.get("readOnly"):
                notes.append("read-only")
            if spec.get("unverified"):
                notes.append("type unverified")
            declared = spec.get("declaredIn", name)
            if declared != name:
                notes.append(f"from {declared}")
            rows.append([f"`{option}`", code(spec.get("syntax", spec["type"])), _value(spec.get("default")),
                         cell(", ".join(notes))])  # fmt: skip
        lines += [*table(["option", "syntax", "engine default", "notes"], rows), ""]
        aliases = attachment.get("aliases", {})
        if aliases:
            said = ", ".join(f"`{old}` for `{new}`" for old, new in sorted(aliases.items()))
            lines += [f"Older names the engine still takes: {said}.", ""]
    return lines


def _properties(catalog: dict[str, Any]) -> list[str]:
    rows = []
    for name, spec in sorted(catalog["properties"].items()):
        readers = ", ".join(spec.get("readers", []))
        rows.append([code(name), f"`{spec['type']}`", _value(spec.get("default")), cell(readers)])
    lines = [*table(["property", "type", "default", "read by"], rows), ""]
    legacy = catalog.get("legacyProperties", [])
    if legacy:
        lines += ["Names older TripleA versions read and this engine ignores (known, never reported as unknown): "
                  + ", ".join(code(n) for n in legacy) + ".", ""]  # fmt: skip
    return lines


def _checks(engine: EngineName) -> list[str]:
    data = load_checks(engine)
    rows = []
    for check in data["checks"]:
        status = STATUS_WORDS.get(check["status"], check["status"])
        # what sets an in-play failure off, after the words naming the module that finds it
        covered = check.get("covers", "").split("): ", 1)[-1] if check["status"] == "in_play" else ""
        why = check.get("reason") or covered or ", ".join(check.get("options", []))
        if "in27" in check:  # the words TripleA 2.7 gives instead (the catalog reads the source's HEAD)
            why = "; ".join(w for w in (why, f"2.7 says: {check['in27']['message']}") if w)
        rows.append([f"`{check['class']}`", f"`{check['method']}`", cell(check["message"]), status, cell(why)])
    return [*table(["class", "method", "message", "status", "options or reason"], rows), ""]


def catalog_reference(engine: EngineName) -> str:
    catalog = load_catalog(engine)
    options = sum(len(a["options"]) for a in catalog["attachments"].values())
    checks = engine_json(engine, "engine-checks")["checks"]
    lines = [
        GENERATED,
        "",
        f"# Engine {engine}: options, properties and load checks",
        "",
        f"What TripleA {engine} reads, as `validate` and `build` check it: {len(catalog['attachments'])} attachment "
        f"classes with {options} options, {len(catalog['properties'])} game properties and {len(checks)} checks "
        f"the engine runs when it loads a game. Source: {cell(catalog['source'])}.",
        "",
        "## Attachment options",
        "",
        "An option's *syntax* is what its value must look like (`:` separates the fields of a value; a "
        "*repeatable* option accumulates when it is given several times).",
        "",
        *_options(catalog),
        "## Game properties",
        "",
        "`{player}` and `{alliance}` stand for a player's or an alliance's name.",
        "",
        *_properties(catalog),
        "## Load checks",
        "",
        "The refusals of the engine's attachment classes and game parser: a *rule* or an *option syntax* "
        "check is applied by `validate` at the YAML line, a *spec check* by the spec's own checks; what the "
        "engine loads and *fails in play* on is said as such, with what sets it off; the rest are not checked, "
        "each with its reason.",
        "",
        *_checks(engine),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"
