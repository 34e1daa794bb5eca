"""Build generator/catalog/engine-1.9.json and engine-2.x.json.

Inputs (all committed, so a rebuild needs neither the jar, nor Java, nor network):

* ``raw/engine-1.9.reflect.json`` - output of ``ListSetters19.java`` run against the 1.9 jar
  (public ``set*(String)`` methods of every concrete attachment class, their declaring class,
  the ``@GameProperty(adds=...)`` flag, typed overloads, each option's starting value read from a
  freshly made instance, and the game properties read by ``games.strategy.triplea.Properties``
  with their defaults);
* ``raw/engine-2.x.source.json`` - output of ``extract_2x.py`` over the 2.x source
  (``getPropertyOrEmpty`` cases, string-setter bodies' first type guess, the initialiser of the
  field each option sets, legacy aliases, game properties);
* ``types-common.yaml``, ``types-1.9.yaml``, ``types-2.x.yaml`` - the hand-maintained typing tables.

Usage::

    python scripts/catalog/build.py                 # rebuild both JSON files from the inputs
    python scripts/catalog/build.py --check         # exit 1 if the committed JSON is stale
    python scripts/catalog/build.py --refresh-1.9 [--jar /usr/share/games/triplea/bin/triplea.jar]
    python scripts/catalog/build.py --refresh-2.x --repo /work/.mirror/triplea-game+triplea/repo [--rev HEAD]

``--refresh-*`` first regenerates the raw dump (needs java / a git mirror), then rebuilds.
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from generator.catalog import REFERENCE_TYPES, syntax

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT_DIR = ROOT / "generator" / "catalog"
RAW = {"1.9": HERE / "raw" / "engine-1.9.reflect.json", "2.x": HERE / "raw" / "engine-2.x.source.json"}
TABLES = {"common": HERE / "types-common.yaml", "1.9": HERE / "types-1.9.yaml", "2.x": HERE / "types-2.x.yaml"}
PACKAGE = "games.strategy.triplea.attachments."
DEFAULT_JAR = "/usr/share/games/triplea/bin/triplea.jar"
SCHEMA_VERSION = 1

SCALARS = {"int", "bool", "string", "decimal", "enum", "never"}
REFERENCES = REFERENCE_TYPES  # the value types that name something of the game
COMPOSITES = {"list", "tuple", "oneOf", "propertyChange"}
SPEC_KEYS = {
    "type",
    "min",
    "max",
    "values",
    "caseInsensitive",
    "pattern",
    "exclude",
    "minusPrefix",
    "items",
    "sep",
    "parts",
    "alternatives",
    "minTokens",
    "allowEmpty",
    "of",
    "note",
    "boundsFrom",
}
PART_KEYS = SPEC_KEYS | {"name", "optional", "repeat", "group"}
OPTION_KEYS = SPEC_KEYS | {"repeatable", "noop", "unverified", "clearValues"}
CLEAR_PREFIXES = ["-clear-", "-reset-"]
# Names every game has: PlayerList.getPlayerId("Neutral") returns the null player (both engines).
# Names the engine defines in every game: the null player, and the relationship types it creates
# itself (RelationshipTypeList: self and null, and the defaults for war and alliance).
BUILTIN_NAMES = {
    "player": ["Neutral"],
    "relationshipType": ["default_allied_relation", "default_war_relation", "null_relation", "self_relation"],
}
# References the parser does not resolve (an unknown name is accepted and simply never matches):
# trigger 'when' step names, RulesAttachment.gameProperty, and the attachment name of the
# TriggerAttachment *AttachmentName options (only its prefix is checked at parse time).
UNCHECKED_REFERENCES = ["attachment", "property", "step"]


class TableError(ValueError):
    pass


def expand(spec: Any, where: str, part: bool = False) -> dict[str, Any]:
    """Turn the YAML shorthands into the canonical JSON form (see README)."""
    if isinstance(spec, str):
        spec = {"type": spec}
    if not isinstance(spec, dict):
        raise TableError(f"{where}: spec must be a string or a mapping, got {spec!r}")
    d = dict(spec)
    if "list" in d:
        d["type"] = "list"
        d["items"] = expand(d.pop("list"), where + ".list")
    if "tuple" in d:
        d["type"] = "tuple"
        d["parts"] = [expand(p, f"{where}.tuple[{i}]", part=True) for i, p in enumerate(d.pop("tuple"))]
        d.setdefault("sep", ":")
    if "oneOf" in d:
        d["type"] = "oneOf"
        d["alternatives"] = [expand(a, f"{where}.oneOf[{i}]") for i, a in enumerate(d.pop("oneOf"))]
    if "enum" in d:
        d["type"] = "enum"
        d["values"] = [str(v) for v in d.pop("enum")]
    if "group" in d:
        if not part:
            raise TableError(f"{where}: 'group' is only allowed as a tuple part")
        d["group"] = [expand(p, f"{where}.group[{i}]", part=True) for i, p in enumerate(d["group"])]
    elif "type" not in d:
        raise TableError(f"{where}: no type in {spec!r}")
    else:
        t = d["type"]
        if t not in SCALARS | REFERENCES | COMPOSITES:
            raise TableError(f"{where}: unknown type {t!r}")
        if t == "tuple" and "sep" not in d:
            d["sep"] = ":"
        if t == "list":
            d.setdefault("sep", ":")
    allowed = PART_KEYS if part else OPTION_KEYS
    unknown = set(d) - allowed
    if unknown:
        raise TableError(f"{where}: unknown keys {sorted(unknown)}")
    if "note" in d:
        d["note"] = " ".join(str(d["note"]).split())
    return d


def load_table(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {
        "classes": data.get("classes") or {},
        "attachTo": data.get("attachTo") or {},
        "otherProperties": data.get("otherProperties") or {},
        "legacyProperties": data.get("legacyProperties") or [],
    }


def lookup(tables: list[dict[str, Any]], cls: str, declared_in: str, opt: str) -> tuple[Any, str] | None:
    """First hit in (engine table, common table), concrete class before declaring class."""
    for table in tables:
        for key in (cls, declared_in):
            entry = table["classes"].get(key, {}).get(opt)
            if entry is not None:
                return entry, key
    return None


def count_attr(spec: dict[str, Any]) -> bool:
    """Whether the syntax has a leading field that the `count` attribute conventionally supplies."""
    if spec["type"] == "propertyChange":
        return True
    if spec["type"] == "tuple" and spec["parts"]:
        first = spec["parts"][0]
        return bool(first.get("type") == "int" or first.get("name") == "attachmentName")
    return False


def int_or_bool_hint(hints: list[str]) -> str | None:
    kinds = set()
    for h in hints:
        h = h.removeprefix("getter:")
        if h in ("int", "Integer"):
            kinds.add("int")
        elif h in ("boolean", "Boolean"):
            kinds.add("bool")
        else:
            kinds.add("other:" + h)
    return kinds.pop() if len(kinds) == 1 and not next(iter(kinds)).startswith("other") else None


def supertypes(info: dict[str, Any]) -> list[str]:
    """Attachment superclasses and ICondition (the parts of the hierarchy that declare options)."""
    return sorted(
        t for t in info["supertypes"] if t == "ICondition" or (t.endswith("Attachment") and t != "IAttachment")
    )


def finish_option(entry: dict[str, Any]) -> dict[str, Any]:
    entry.setdefault("repeatable", False)
    entry["syntax"] = syntax(entry)
    if count_attr(entry):
        entry["countAttr"] = True
    if entry["type"] == "propertyChange":
        entry["clearPrefix"] = list(CLEAR_PREFIXES)
    return entry


# Starting values that have the text an <option value> would carry (the raw dumps' "kind").
SCALAR_KINDS = {"bool", "int", "string", "decimal"}


def option_default(start: dict[str, Any] | None, spec: dict[str, Any], where: str, warnings: list[str]) -> str | None:
    """The `default` of an option from the raw dump's starting value, or None when unknown.

    Only scalar starting values count: null, empty or filled collections, objects and values that
    differ between two instances (the attachment's own name) give no default.
    """
    if not start or start.get("kind") not in SCALAR_KINDS or "value" not in start:
        return None
    value = str(start["value"])
    kind = start["kind"]
    if spec["type"] in ("int", "bool") and kind != spec["type"]:
        warnings.append(f"{where}: {spec['type']} option starts at a {kind} value {value!r}")
    # 1.9: the dump also tried writing the value back through the string setter
    no_change = start.get("writesNoChange", "true")
    if no_change != "true" and not (spec["type"] == "never" and no_change.startswith("throws")):
        warnings.append(f"{where}: writing the starting value {value!r} is not a no-op ({no_change})")
    return value


def build_19(raw: dict[str, Any], common: dict[str, Any], own: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    attachments: dict[str, Any] = {}
    for cls, info in sorted(raw["classes"].items()):
        options: dict[str, Any] = {}
        for opt, s in sorted(info["setters"].items()):
            declared = s["declaredIn"]
            hit = lookup([own, common], cls, declared, opt)
            if hit is not None:
                entry = expand(copy.deepcopy(hit[0]), f"1.9:{hit[1]}.{opt}")
                entry["typedBy"] = "table"
                own_hit = lookup([own], cls, declared, opt)
                table_rep = bool(entry.get("repeatable", False))
                if "adds" in s and (own_hit is None or "repeatable" not in own_hit[0]):
                    if table_rep != s["adds"]:
                        warnings.append(
                            f"1.9 {cls}.{opt}: common table repeatable={table_rep} but "
                            f"@GameProperty(adds={s['adds']}); using adds"
                        )
                    entry["repeatable"] = s["adds"]
            else:
                kind = int_or_bool_hint(s.get("typeHints", []))
                if kind:
                    entry = {"type": kind, "typedBy": "setterOverload"}
                else:
                    entry = {"type": "string", "unverified": True, "typedBy": "none"}
                    warnings.append(f"1.9 {cls}.{opt}: untyped (hints {s.get('typeHints')})")
                entry["repeatable"] = bool(s.get("adds", False))
            entry["declaredIn"] = declared
            default = option_default(s.get("start"), entry, f"1.9 {cls}.{opt}", warnings)
            if default is not None:
                entry["default"] = default
            options[opt] = finish_option(entry)
        attach_to = common["attachTo"].get(cls)
        if attach_to is None:
            warnings.append(f"1.9 {cls}: no attachTo in types-common.yaml")
        attachments[cls] = {
            "javaClass": info["javaClass"],
            "attachTo": attach_to or [],
            "aliases": {},
            "supertypes": supertypes(info),
            "options": options,
        }
    props = {}
    for name, p in sorted(raw["properties"].items()):
        entry = {"type": p["type"], "default": p["default"], "readers": sorted(p["readers"])}
        if "{player}" in name:
            entry["perPlayer"] = True
        props[name] = entry
    props = with_other_readers(props, common)
    return {
        "engine": "1.9",
        "schemaVersion": SCHEMA_VERSION,
        "source": (
            "Debian triplea.jar (TripleA 1.9.0.0.7062): option names by reflection "
            "(scripts/catalog/ListSetters19.java); value syntax from the setter bodies of "
            "triplea-game/triplea tag 1.9.0.0.7062 (scripts/catalog/types-*.yaml)"
        ),
        "parser": {
            "optionLookup": "attachment.getClass().getMethod('set' + capitalizeFirstLetter(name), String.class)",
            "optionNameCase": "first letter case-insensitive, rest case-sensitive",
            "countAttribute": "value passed to the setter is count + ':' + value when count is non-empty",
            "javaClass": "fully qualified class name required",
            "attachmentType": "required: unitType|territory|player|resource|territoryEffect|relationship|technology",
            "variables": False,
            "builtinNames": BUILTIN_NAMES,
            "uncheckedReferences": UNCHECKED_REFERENCES,
            "aliases": {},
            "ignoredOptions": [],
            "valueRewrites": [],
        },
        "attachments": attachments,
        "properties": props,
        "legacyProperties": sorted(common["legacyProperties"]),
    }


def build_2x(raw: dict[str, Any], common: dict[str, Any], own: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    legacy = raw["legacy"]
    attachments: dict[str, Any] = {}
    for cls, info in sorted(raw["classes"].items()):
        options: dict[str, Any] = {}
        for opt, s in sorted(info["options"].items()):
            declared = s["declaredIn"]
            factory = s.get("factory")
            read_only = factory in ("ofReadOnly", "ofReadOnlySimple", "ofSimple")
            hit = None if read_only else lookup([own, common], cls, declared, opt)
            if hit is not None:
                entry = expand(copy.deepcopy(hit[0]), f"2.x:{hit[1]}.{opt}")
                entry["typedBy"] = "table"
                guess = s["guess"]["type"]
                if guess in ("int", "bool") and entry["type"] not in (guess, "oneOf"):
                    warnings.append(f"2.x {cls}.{opt}: table type {entry['type']} but setter suggests {guess}")
                acc = s["guess"].get("accumulates")
                if acc is not None and acc != bool(entry.get("repeatable", False)):
                    warnings.append(
                        f"2.x {cls}.{opt}: table repeatable={entry.get('repeatable', False)} "
                        f"but the setter body looks {'accumulating' if acc else 'overwriting'}"
                    )
            elif read_only:
                gt = (s.get("getterType") or "").strip()
                kind = {"int": "int", "Integer": "int", "boolean": "bool", "Boolean": "bool"}.get(gt)
                entry = {"type": kind or "string", "readOnly": True, "typedBy": "getter"}
                if kind is None:
                    entry["unverified"] = True
            else:
                guess = s["guess"]
                if guess["type"] in ("int", "bool", "string"):
                    entry = {
                        "type": guess["type"],
                        "typedBy": "mapper" if "mapper" in guess.get("inferredFrom", "") else "setterBody",
                    }
                    if guess["type"] == "string":
                        warnings.append(f"2.x {cls}.{opt}: typed string from a plain assignment")
                else:
                    entry = {"type": "string", "unverified": True, "typedBy": "none"}
                    warnings.append(f"2.x {cls}.{opt}: untyped ({factory})")
            entry["declaredIn"] = declared
            default = option_default(s.get("start"), entry, f"2.x {cls}.{opt}", warnings)
            if default is not None:
                entry["default"] = default
            rewrites = {r["from"]: r["to"] for r in legacy["valueRewrites"] if r["option"] == opt}
            if rewrites:
                entry["valueRewrites"] = dict(sorted(rewrites.items()))
            for ign in legacy["ignored"]:
                if ign["option"] == opt and ign.get("values"):
                    entry["ignoredValues"] = sorted(ign["values"])
            options[opt] = finish_option(entry)
        aliases = {old: new for old, new in sorted(legacy["aliases"].items()) if new in options}
        attach_to = common["attachTo"].get(cls)
        if attach_to is None:
            warnings.append(f"2.x {cls}: no attachTo in types-common.yaml")
        attachments[cls] = {
            "javaClass": PACKAGE + cls,
            "attachTo": attach_to or [],
            "aliases": aliases,
            "supertypes": supertypes(info),
            "options": options,
        }
    props = {}
    for name, p in sorted(raw["properties"].items()):
        default = p["default"]
        entry = {"type": p["type"], "default": default, "readers": sorted(p["readers"])}
        if "{player}" in name:
            entry["perPlayer"] = True
        props[name] = entry
    props = with_other_readers(props, common)
    return {
        "engine": "2.x",
        "schemaVersion": SCHEMA_VERSION,
        "source": (
            f"triplea-game/triplea@{raw['commit']}: getPropertyOrEmpty switches and setters under "
            "game-app/game-core/src/main/java/games/strategy/triplea/attachments/ "
            "(scripts/catalog/extract_2x.py) and scripts/catalog/types-*.yaml"
        ),
        "parser": {
            "optionLookup": (
                "attachment.getProperty(LegacyPropertyMapper.mapLegacyOptionName(decapitalize(name))).setValue(value)"
            ),
            "optionNameCase": "first letter case-insensitive, rest case-sensitive (aliases match ignoring case)",
            "countAttribute": "value passed to the setter is count + ':' + value when count is non-empty",
            "javaClass": "fully qualified or short class name",
            "attachmentType": "defaults to unitType when the type attribute is missing",
            "variables": True,
            "builtinNames": BUILTIN_NAMES,
            "uncheckedReferences": UNCHECKED_REFERENCES,
            "aliases": dict(sorted(legacy["aliases"].items())),
            "ignoredOptions": [{"option": i["option"], "values": i.get("values")} for i in legacy["ignored"]],
            "valueRewrites": legacy["valueRewrites"],
        },
        "attachments": attachments,
        "properties": props,
        "legacyProperties": sorted(common["legacyProperties"]),
    }


def with_other_readers(props: dict[str, Any], common: dict[str, Any]) -> dict[str, Any]:
    """The properties read outside games.strategy.triplea.Properties (types-common.yaml), added."""
    out = dict(props)
    for name, entry in common.get("otherProperties", {}).items():
        out.setdefault(name, {**entry, "readers": sorted(entry["readers"])})
    return dict(sorted(out.items()))


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def refresh_19(jar: str) -> None:
    out = subprocess.run(
        ["java", "-cp", jar, str(HERE / "ListSetters19.java"), jar], check=True, capture_output=True, text=True
    ).stdout
    RAW["1.9"].write_text(dumps(json.loads(out)), encoding="utf-8")


def refresh_2x(repo: str, rev: str) -> None:
    out = subprocess.run(
        [sys.executable, str(HERE / "extract_2x.py"), "--repo", repo, "--rev", rev],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    RAW["2.x"].write_text(dumps(json.loads(out)), encoding="utf-8")


def build_all(warnings: list[str]) -> dict[str, str]:
    common = load_table(TABLES["common"])
    result = {}
    for engine, builder in (("1.9", build_19), ("2.x", build_2x)):
        raw = json.loads(RAW[engine].read_text(encoding="utf-8"))
        own = load_table(TABLES[engine])
        used = {(c, o) for c, opts in own["classes"].items() for o in opts}
        catalog = builder(raw, common, own, warnings)
        # every engine-table entry must match an option of that engine
        known = {(cls, o) for cls, a in catalog["attachments"].items() for o in a["options"]}
        known |= {(a["options"][o]["declaredIn"], o) for a in catalog["attachments"].values() for o in a["options"]}
        for key in sorted(used - known):
            warnings.append(f"{engine}: table entry {key[0]}.{key[1]} matches no option of this engine")
        result[engine] = dumps(catalog)
    common_used = {(c, o) for c, opts in common["classes"].items() for o in opts}
    seen: set[tuple[str, str]] = set()
    for text in result.values():
        cat = json.loads(text)
        for cls, a in cat["attachments"].items():
            for o, e in a["options"].items():
                seen.add((cls, o))
                seen.add((e["declaredIn"], o))
    for key in sorted(common_used - seen):
        warnings.append(f"common table entry {key[0]}.{key[1]} matches no option of either engine")
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only compare with the committed JSON")
    ap.add_argument("--refresh-1.9", dest="refresh19", action="store_true")
    ap.add_argument("--jar", default=DEFAULT_JAR)
    ap.add_argument("--refresh-2.x", dest="refresh2x", action="store_true")
    ap.add_argument("--repo", help="git dir of a triplea-game/triplea mirror (for --refresh-2.x)")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not print table warnings")
    args = ap.parse_args(argv)
    if args.refresh19:
        refresh_19(args.jar)
    if args.refresh2x:
        if not args.repo:
            ap.error("--refresh-2.x needs --repo")
        refresh_2x(args.repo, args.rev)
    warnings: list[str] = []
    result = build_all(warnings)
    if not args.quiet:
        for w in warnings:
            print("warning:", w, file=sys.stderr)
    stale = []
    for engine, text in result.items():
        path = OUT_DIR / f"engine-{engine}.json"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print("stale: " + ", ".join(stale) + " (run python scripts/catalog/build.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
