"""Extract the attachment options and game properties of TripleA 2.x from its Java source.

Reads the sources straight out of a git mirror of ``triplea-game/triplea`` (``git show REV:PATH``),
so no work tree is needed:

    python scripts/catalog/extract_2x.py --repo /work/.mirror/triplea-game+triplea/repo --rev HEAD \
        > scripts/catalog/raw/engine-2.x.source.json

What is extracted (regular expressions over the source, no Java parser):

* every ``case "name" ->`` / ``case CONSTANT ->`` of each attachment's ``getPropertyOrEmpty`` switch
  (and the ``PropertyName`` enum of ``UnitSupportAttachment``), with the ``MutableProperty``
  factory used (``of``, ``ofString``, ``ofMapper``, ``ofReadOnly``, ``ofWriteOnly``...), the string
  setter it calls and, for ``ofMapper``, the mapper (``DefaultAttachment::getInt``/``getBool``);
* the body of that string setter (searched in the class and its superclasses), used for a first
  guess of the value type (``getInt`` -> int, ``getBool`` -> bool, plain assignment -> string);
* the class hierarchy (``extends``), so inherited options can be folded into concrete classes;
* the field each option stores its value in (from the getter's ``return field;`` or Lombok
  ``@Getter`` field, confirmed by the fields the setters and the resetter assign) and that field's
  declaration: its Java type and initialiser, evaluated when it is a literal or a named constant
  (``start``: what the option is before any ``<option>`` sets it);
* legacy option-name aliases and value rewrites from ``gameparser/LegacyPropertyMapper.java``;
* the game properties read by ``games.strategy.triplea.Properties`` (name, Java type, default).

The result is deterministic (sorted keys) and only depends on the source revision.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

CORE = "game-app/game-core/src/main/java/games/strategy/"
ATTACHMENTS_DIR = CORE + "triplea/attachments/"
CONSTANTS = CORE + "triplea/Constants.java"
PROPERTIES = CORE + "triplea/Properties.java"
DEFAULT_ATTACHMENT = CORE + "engine/data/DefaultAttachment.java"
LEGACY_MAPPER = CORE + "engine/data/gameparser/LegacyPropertyMapper.java"


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


CHAR_LITERAL = re.compile(r"'(?:\\.|[^'\\])*'")


def strip_comments(src: str) -> str:
    """Remove // and /* */ comments, keeping string literals intact."""
    out: list[str] = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(src[i : j + 1])
            i = j + 1
        elif c == "'" and (lit := CHAR_LITERAL.match(src, i)):
            out.append(lit.group(0))
            i = lit.end()
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def block_end(src: str, open_brace: int) -> int:
    """Index just after the brace matching the '{' at open_brace (string-literal aware)."""
    return closing(src, open_brace, "{", "}") + 1


def closing(src: str, start: int, opener: str, closer: str) -> int:
    """Index of the `closer` matching the `opener` at `start` (string-literal aware)."""
    depth, i = 0, start
    while i < len(src):
        c = src[i]
        if c == '"':
            i += 1
            while src[i] != '"':
                i += 2 if src[i] == "\\" else 1
        elif c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced {opener}{closer}")


@dataclass
class JavaClass:
    name: str
    src: str
    parent: str | None
    abstract: bool
    constants: dict[str, str] = field(default_factory=dict)
    interfaces: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)

    def method_bodies(self, name: str) -> list[tuple[str, str]]:
        """(parameter list, body) of every method called `name`."""
        res = []
        pat = re.compile(r"\b" + re.escape(name) + r"\s*\(([^()]*)\)\s*(?:throws [\w., ]+)?\s*\{")
        for m in pat.finditer(self.src):
            # skip calls: a declaration is preceded by a return type
            before = self.src[: m.start()].rstrip()
            if not re.search(r"(void|[\w<>\[\],? ]+)$", before) or before.endswith(("return", "=", ".")):
                continue
            end = block_end(self.src, m.end() - 1)
            res.append((m.group(1).strip(), self.src[m.end() : end - 1]))
        return res

    def return_type(self, name: str) -> str | None:
        m = re.search(
            r"(?:public|protected|private)\s+(?:static\s+)?([\w<>\[\], ?.]+?)\s+" + re.escape(name) + r"\s*\(\s*\)",
            self.src,
        )
        return m.group(1).strip() if m else None


STRING_CONST = re.compile(r"\bString\s+([A-Z][A-Z0-9_]*)\s*=\s*((?:\"(?:[^\"\\]|\\.)*\"\s*\+?\s*)+);")


def parse_constants(src: str) -> dict[str, str]:
    res = {}
    for m in STRING_CONST.finditer(src):
        res[m.group(1)] = "".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", m.group(2)))
    return res


def split_top_level(s: str, sep: str = ",") -> list[str]:
    parts, depth, cur, i = [], 0, [], 0
    while i < len(s):
        c = s[i]
        if c == '"':
            j = i + 1
            while s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            cur.append(s[i : j + 1])
            i = j + 1
            continue
        if c in "([{<" and not (c == "<" and i + 1 < len(s) and s[i + 1] == "="):
            depth += 1
        elif c in ")]}>" and not (c == ">" and i > 0 and s[i - 1] == "-"):
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


FACTORY = re.compile(r"MutableProperty\s*\.\s*(?:<[\w<>, ]+>\s*)?(of\w*)\s*\(")


def parse_property_expr(expr: str) -> dict[str, Any]:
    """Describe one `MutableProperty.xxx(...)` expression."""
    m = FACTORY.search(expr)
    if not m:
        return {"factory": None, "expr": " ".join(expr.split())}
    factory = m.group(1)
    start = m.end() - 1
    depth, i = 0, start
    while True:
        if expr[i] == "(":
            depth += 1
        elif expr[i] == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    args = split_top_level(expr[start + 1 : i])

    def ref(a: str) -> str | None:
        r = re.fullmatch(r"(?:this|a|\w+)::(\w+)", a.strip())
        return r.group(1) if r else None

    info: dict[str, Any] = {"factory": factory}
    if factory == "of":
        info.update(setter=ref(args[0]), stringSetter=ref(args[1]), getter=ref(args[2]), resetter=ref(args[3]))
    elif factory == "ofString":
        info.update(stringSetter=ref(args[0]), getter=ref(args[1]), resetter=ref(args[2]))
    elif factory == "ofMapper":
        info.update(
            mapper=args[0].strip(),
            setter=ref(args[1]),
            getter=ref(args[2]),
            default=" ".join(args[3].split()).removeprefix("() ->").strip(),
        )
    elif factory in ("ofReadOnly", "ofReadOnlySimple"):
        info.update(getter=ref(args[0]))
    elif factory == "ofWriteOnly":
        info.update(setter=ref(args[0]), stringSetter=ref(args[1]))
    elif factory == "ofWriteOnlyString":
        info.update(stringSetter=ref(args[0]))
    elif factory == "ofSimple":
        info.update(setter=ref(args[0]), getter=ref(args[1]))
    return info


def parse_switch(cls: JavaClass, constants: dict[str, str]) -> tuple[dict[str, dict[str, Any]], bool]:
    """Cases of getPropertyOrEmpty: {optionName: info}, and whether `default` delegates to super."""
    bodies = cls.method_bodies("getPropertyOrEmpty")
    if not bodies:
        return {}, True
    body = bodies[0][1]
    opts: dict[str, dict[str, Any]] = {}
    if "PropertyEnum.getPropertyOrEmpty" in body:
        enum_m = re.search(r"enum\s+PropertyName\b[^{]*\{", cls.src)
        assert enum_m
        enum_body = cls.src[enum_m.end() : block_end(cls.src, enum_m.end() - 1) - 1]
        enum_body = enum_body.split(";")[0]
        for entry in split_top_level(enum_body):
            em = re.fullmatch(r"(\w+)\s*\(\s*\"([^\"]+)\"\s*,\s*\w+\s*->\s*(.*)\)", entry, re.S)
            if em:
                opts[em.group(2)] = parse_property_expr(em.group(3))
        return opts, False
    sw = re.search(r"switch\s*\(\s*\w+\s*\)\s*\{", body)
    assert sw, cls.name
    inner = body[sw.end() : block_end(body, sw.end() - 1) - 1]
    delegates = False
    for stmt in re.split(r"(?=\n\s*(?:case\b|default\b))", inner):
        stmt = stmt.strip()
        if stmt.startswith("default"):
            delegates = "super.getPropertyOrEmpty" in stmt
            continue
        cm = re.match(r"case\s+(.+?)\s*->\s*(.*)$", stmt, re.S)
        if not cm:
            continue
        info = parse_property_expr(cm.group(2))
        for label in split_top_level(cm.group(1)):
            name = label.strip('"') if label.startswith('"') else constants[label.split(".")[-1]]
            opts[name] = info
    return opts, delegates


def infer(body: str | None, info: dict[str, Any]) -> dict[str, Any]:
    """First guess of a value type; the typing tables override it."""
    mapper = info.get("mapper") or ""
    if mapper.endswith("::getInt"):
        return {"type": "int", "inferredFrom": "mapper getInt"}
    if mapper.endswith("::getBool"):
        return {"type": "bool", "inferredFrom": "mapper getBool"}
    if info.get("factory") in ("ofReadOnly", "ofReadOnlySimple"):
        return {"type": "readOnly"}
    if body is None:
        return {"type": "unknown"}
    stmts = [s.strip() for s in body.split(";") if s.strip()]
    if len(stmts) == 1:
        s = stmts[0]
        call = re.fullmatch(r"\w+\(\s*get(Int|Bool)\(\s*\w+\s*\)\s*\)", s)
        if call:
            return {"type": call.group(1).lower(), "inferredFrom": f"setter get{call.group(1)}"}
        if re.fullmatch(r"(?:this\.)?\w+\s*=\s*getInt\(\s*\w+\s*\)", s):
            return {"type": "int", "inferredFrom": "setter getInt"}
        if re.fullmatch(r"(?:this\.)?\w+\s*=\s*getBool\(\s*\w+\s*\)", s):
            return {"type": "bool", "inferredFrom": "setter getBool"}
        if re.fullmatch(r"(?:this\.)?\w+\s*=\s*\w+(?:\.intern\(\))?", s):
            return {"type": "string", "inferredFrom": "setter assignment"}
    return {"type": "unknown"}


ADDS = re.compile(
    r"\.(?:add|put|addAll|putResource)\(|parsePlayerList\(\s*\w+\s*,\s*\w+\s*\)|"
    r"parseUnitTypes\([^;]*,\s*\w+\s*\)|addToUnitTypeMap|addToResourceMap|applyCheckedValue|"
    r"setCombatEffect|setConditions|setDestroyedWhenCapturedBy"
)


def accumulates(body: str) -> bool:
    """Heuristic: does the setter add to its previous value (True) or replace it (False)?

    Accumulating setters add/put into a field (creating it when it is null) or append through
    parsePlayerList/parseUnitTypes/...; a setter that unconditionally assigns a fresh value to a field
    replaces it.  Assignments of null (clearing) and to local variables are ignored.
    """
    if not ADDS.search(body):
        return False
    local_vars = set(re.findall(r"\b(?:[A-Z]\w*(?:<[^;()]*>)?(?:\[\])?|int|boolean)\s+(\w+)\s*[;=]", body))
    for m in re.finditer(r"(?:this\.)?(\w+)\s*=(?!=)\s*(\S)", body):
        field_name, rhs_start = m.group(1), m.start(2)
        rhs = body[rhs_start : body.find(";", rhs_start)]
        if (
            field_name in local_vars
            or body[: m.start()].rstrip()[-1:] not in ("", ";", "{", "}")
            or rhs.startswith("null")
            or re.search(r"\b" + field_name + r"\b", rhs)
        ):
            continue  # a local, a clear, or field = f(..., field) which appends
        guarded = re.search(
            r"if\s*\(\s*(?:this\.)?" + re.escape(m.group(1)) + r"\s*==\s*null\s*\)\s*\{?\s*$", body[: m.start()]
        )
        if not guarded:
            return False
    return True


def find_string_setter(classes: dict[str, JavaClass], cls: str | None, name: str) -> tuple[str, str] | None:
    while cls is not None and cls in classes:
        for params, body in classes[cls].method_bodies(name):
            if re.fullmatch(r"(?:final\s+)?(?:@\w+\s+)*String\s+\w+", params):
                return cls, body
        cls = classes[cls].parent
    return None


@dataclass
class JavaField:
    name: str
    type: str
    init: str | None  # the initialiser's source text, None when there is none
    annotations: str
    owner: str


FIELD_DECL = re.compile(
    r"((?:@\w+(?:\.\w+)*(?:\s*\([^()]*\))?\s+|(?:private|protected|public|final|transient|volatile)\s+)*)"
    r"([\w.]+(?:\s*<[\w<>, ?.\[\]]*>)?(?:\s*\[\s*\])*)\s+(\w+)\s*(?:=\s*(.+))?",
    re.S,
)


def parse_fields(cls: JavaClass) -> dict[str, JavaField]:
    """Instance fields declared directly in the class body (static ones and nested classes skipped)."""
    m = re.search(r"\b(?:class|interface)\s+" + cls.name + r"\b[^{]*\{", cls.src)
    if not m:
        return {}
    body_end = block_end(cls.src, m.end() - 1) - 1
    fields: dict[str, JavaField] = {}
    i, start, n = m.end(), m.end(), body_end
    src = cls.src
    while i < n:
        c = src[i]
        if c == '"':
            i += 1
            while src[i] != '"':
                i += 2 if src[i] == "\\" else 1
            i += 1
            continue
        if c == "'" and (lit := CHAR_LITERAL.match(src, i)):
            i = lit.end()
            continue
        if c == "{":  # a method, initializer or nested class body: skip it and what precedes it
            i = block_end(src, i)
            if src[i:].lstrip().startswith(";"):  # an array or anonymous-class initialiser: not simple
                seg = src[start:i]
                fm = FIELD_DECL.fullmatch(seg.strip())
                if fm and "=" in seg and not re.search(r"\bstatic\b", fm.group(1) or ""):
                    fields[fm.group(3)] = JavaField(
                        fm.group(3), fm.group(2), fm.group(4).strip(), fm.group(1), cls.name
                    )
                i = src.index(";", i) + 1
            start = i
            continue
        if c == ";":
            seg = src[start:i].strip()
            start = i + 1
            fm = FIELD_DECL.fullmatch(seg)
            if fm and not re.search(r"\bstatic\b", fm.group(1) or "") and fm.group(2) not in ("return", "package"):
                init = fm.group(4)
                fields[fm.group(3)] = JavaField(
                    fm.group(3),
                    " ".join(fm.group(2).split()),
                    " ".join(init.split()) if init else None,
                    fm.group(1) or "",
                    cls.name,
                )
        i += 1
    return fields


def lombok_getter(f: JavaField) -> str | None:
    """Name of the getter Lombok generates for a @Getter field."""
    if not re.search(r"@Getter\b(?!\s*\(\s*(?:AccessLevel\.)?NONE)", f.annotations):
        return None
    if re.search(r"@Accessors\s*\(\s*fluent\s*=\s*true", f.annotations):
        return f.name
    cap = f.name[:1].upper() + f.name[1:]
    if f.type == "boolean":
        return f.name if re.fullmatch(r"is[A-Z]\w*", f.name) else "is" + cap
    return "get" + cap


ASSIGNED = re.compile(r"(?<![\w.])(?:this\.)?(\w+)\s*=(?!=)")


def assigned_fields(body: str, fields: dict[str, JavaField]) -> set[str]:
    local_vars = set(re.findall(r"\b(?:[A-Z]\w*(?:<[^;()]*>)?(?:\[\])?|int|boolean)\s+(\w+)\s*[;=:]", body))
    return {f for f in ASSIGNED.findall(body) if f in fields and f not in local_vars}


def method_body(classes: dict[str, JavaClass], cls: str | None, name: str, params: str | None) -> str | None:
    """Body of `name` found from cls upwards; params: None any, "" none, else a regex on the parameter list."""
    while cls is not None and cls in classes:
        for plist, body in classes[cls].method_bodies(name):
            if params is None or (params == "" and not plist) or (params and re.fullmatch(params, plist)):
                return body
        cls = classes[cls].parent
    return None


def chain_fields(classes: dict[str, JavaClass], cls: str) -> dict[str, JavaField]:
    """Instance fields visible in cls (subclass declarations shadow superclass ones)."""
    out: dict[str, JavaField] = {}
    c: str | None = cls
    while c is not None and c in classes:
        for name, f in classes[c].fields.items():
            out.setdefault(name, f)
        c = classes[c].parent
    return out


def option_field(classes: dict[str, JavaClass], cls: str, info: dict[str, Any]) -> tuple[str | None, str]:
    """The field an option reads and writes, and how it was found (or why not)."""
    fields = chain_fields(classes, cls)
    getter_field = None
    if info.get("getter"):
        body = method_body(classes, cls, info["getter"], "")
        if body is not None:
            rm = re.fullmatch(r"\s*return\s+(?:this\.)?(\w+)\s*;\s*", body)
            if rm and rm.group(1) in fields:
                getter_field = rm.group(1)
        else:
            lombok = [f.name for f in fields.values() if lombok_getter(f) == info["getter"]]
            if len(lombok) == 1:
                getter_field = lombok[0]
    written: list[set[str]] = []
    for key, params in (
        ("setter", r"(?:final\s+)?(?:@\w+\s+)*(?!(?:final|String)\b)\w[\w.]*(?:\s*<[^()]*>)?(?:\[\])*\s+\w+"),
        ("stringSetter", r"(?:final\s+)?(?:@\w+\s+)*String\s+\w+"),
        ("resetter", ""),
    ):
        if info.get(key):
            body = method_body(classes, cls, info[key], params)
            if body is not None:
                found = assigned_fields(body, fields)
                if found:
                    written.append(found)
    if getter_field is not None:
        if all(getter_field in w for w in written):
            return getter_field, "getter"
        return None, f"getter reads {getter_field}, setters write {sorted(set().union(*written))}"
    singles = {next(iter(w)) for w in written if len(w) == 1}
    if len(singles) == 1 and all(w == {next(iter(singles))} for w in written):
        return next(iter(singles)), "setters"
    if not written:
        return None, "no getter returning a field and no setter assigning one"
    return None, f"setters write {sorted(set().union(*written))}"


INT_TYPES = {"int", "Integer", "long", "Long", "short", "Short", "byte", "Byte"}
BOOL_TYPES = {"boolean", "Boolean"}
EMPTY_NEW = re.compile(
    r"new\s+(\w+)\s*<[^()]*>\s*\(\s*\)|(?:List|Set|Map|ImmutableList|ImmutableSet|ImmutableMap)\.of\(\s*\)"
)


def evaluate(f: JavaField, constants: dict[str, str], int_constants: dict[str, str]) -> dict[str, Any]:
    """Kind (bool, int, string, null, empty:..., computed) and text of a field's starting value."""
    t = re.sub(r"@\w+\s*", "", f.type).strip()
    init = f.init
    if init is None:  # the Java default of the type
        if t == "boolean":
            return {"kind": "bool", "value": "false"}
        if t in ("int", "long", "short", "byte"):
            return {"kind": "int", "value": "0"}
        if t in ("double", "float", "char"):
            return {"kind": "computed"}
        return {"kind": "null"}
    init = init.strip()
    if init == "null":
        return {"kind": "null"}
    const = re.fullmatch(r"(?:\w+\.)*([A-Z][A-Z0-9_]*)", init)
    if const and t == "String" and const.group(1) in constants:
        return {"kind": "string", "value": constants[const.group(1)]}
    if const and t in INT_TYPES and const.group(1) in int_constants:
        return {"kind": "int", "value": int_constants[const.group(1)]}
    if t in BOOL_TYPES and init in ("true", "false"):
        return {"kind": "bool", "value": init}
    if t in INT_TYPES and re.fullmatch(r"-?\s*\d+", init):
        return {"kind": "int", "value": str(int(init.replace(" ", "")))}
    if t == "String" and re.fullmatch(r'"(?:[^"\\]|\\.)*"', init):
        return {"kind": "string", "value": json.loads(init)}
    em = EMPTY_NEW.fullmatch(init)
    if em:
        return {"kind": "empty:" + (em.group(1) or t)}
    return {"kind": "computed"}


def constructor_assigns(classes: dict[str, JavaClass], cls: str, field_name: str) -> bool:
    """Whether a constructor of cls or of a superclass assigns the field (then it is not a literal start)."""
    c: str | None = cls
    while c is not None and c in classes:
        for _params, body in classes[c].method_bodies(c):
            if re.search(r"(?<![\w.])(?:this\.)?" + re.escape(field_name) + r"\s*=(?!=)", body):
                return True
        c = classes[c].parent
    return False


STRING_ALIAS = re.compile(r"\bString\s+([A-Z][A-Z0-9_]*)\s*=\s*(?:\w+\.)*([A-Z][A-Z0-9_]*)\s*;")
INT_CONST = re.compile(r"\bstatic\s+final\s+int\s+([A-Z][A-Z0-9_]*)\s*=\s*(-?\d+)\s*;")


def option_start(
    classes: dict[str, JavaClass],
    cls: str,
    info: dict[str, Any],
    constants: dict[str, str],
    int_constants: dict[str, str],
) -> dict[str, Any]:
    name, how = option_field(classes, cls, info)
    if name is None:
        return {"kind": "unknown", "why": how}
    f = chain_fields(classes, cls)[name]
    start: dict[str, Any] = {"field": name, "fieldIn": f.owner, "javaType": f.type, "foundBy": how}
    if f.init is not None:
        start["initializer"] = f.init
    if constructor_assigns(classes, cls, name):
        start["kind"] = "computed"
        start["why"] = "assigned in a constructor"
        return start
    start.update(evaluate(f, {**constants, **classes[f.owner].constants}, int_constants))
    if how == "setters" and "value" in start and not stores_plainly(classes, cls, info, name):
        # e.g. isTwoHit: hitPoints = value ? 2 : 1; the field's start is not the option's text
        start.pop("value")
        start["kind"] = "unknown"
        start["why"] = f"the setters store a transformed value in {name}"
    return start


def stores_plainly(classes: dict[str, JavaClass], cls: str, info: dict[str, Any], name: str) -> bool:
    """Whether a setter of the option stores its argument as is (`field = value;`,
    `field = getInt(value);`), assigning the field nowhere else (other statements may follow)."""
    plain = re.compile(
        r"(?:this\.)?" + re.escape(name) + r"\s*=\s*(?:(?:DefaultAttachment\.)?get(?:Int|Bool)\(\s*\w+\s*\)|\w+)"
    )
    assign = re.compile(r"(?<![\w.])(?:this\.)?" + re.escape(name) + r"\s*=(?!=)")
    for key in ("setter", "stringSetter"):
        if info.get(key):
            for cname in _chain(classes, cls):
                for _params, body in classes[cname].method_bodies(info[key]):
                    stores = [st for st in body.split(";") if plain.fullmatch(st.strip())]
                    if len(stores) == 1 and len(assign.findall(body)) == 1:
                        return True
    return False


def _chain(classes: dict[str, JavaClass], cls: str | None) -> list[str]:
    out = []
    while cls is not None and cls in classes:
        out.append(cls)
        cls = classes[cls].parent
    return out


def parse_legacy(src: str, constants: dict[str, str]) -> dict[str, Any]:
    aliases: dict[str, str] = {}
    m = re.search(r"mapLegacyOptionName\([^)]*\)\s*\{", src)
    assert m
    body = src[m.end() : block_end(src, m.end() - 1)]
    for cond, target in re.findall(r"if\s*\((.*?)\)\s*\{\s*return\s+([^;]+);", body, re.S):
        t = target.strip()
        tv = t.strip('"') if t.startswith('"') else constants[t.split(".")[-1]]
        for old in re.findall(r"equalsIgnoreCase\(\"([^\"]+)\"\)", cond):
            aliases[old] = tv
    values: list[dict[str, str]] = []
    m = re.search(r"mapLegacyOptionValue\([^)]*\)\s*\{", src)
    assert m
    body = src[m.end() : block_end(src, m.end() - 1)]
    for opt_block in re.split(r"(?=optionName\.equalsIgnoreCase)", body)[1:]:
        opt = re.match(r"optionName\.equalsIgnoreCase\(\"([^\"]+)\"\)", opt_block)
        assert opt
        pairs = re.findall(r"optionValue\.equalsIgnoreCase\(\"([^\"]+)\"\)\)\s*\{?\s*return\s+\"([^\"]*)\"", opt_block)
        for old, new in pairs:
            values.append({"option": opt.group(1), "from": old, "to": new})
    ignored: list[dict[str, Any]] = []
    m = re.search(r"ignoreOptionName\([^)]*\)\s*\{", src)
    assert m
    body = src[m.end() : block_end(src, m.end() - 1)]
    ret = re.search(r"return\s+(.*?);", body, re.S)
    assert ret
    for term in split_top_level(ret.group(1).replace("||", "\x00"), "\x00"):
        nm = re.search(r"name\.equalsIgnoreCase\(\"([^\"]+)\"\)", term)
        if not nm:
            continue
        vals = re.findall(r"value\.equals\(\"([^\"]+)\"\)", term)
        ignored.append({"option": nm.group(1), "values": vals or None, "alsoNull": "value == null" in term})
    return {"aliases": aliases, "valueRewrites": values, "ignored": ignored}


def parse_properties(src: str, constants: dict[str, str]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for m in re.finditer(r"public\s+static\s+(\w+)\s+(\w+)\s*\(([^)]*)\)\s*\{", src):
        ret, reader, params = m.group(1), m.group(2), m.group(3)
        body = src[m.end() : block_end(src, m.end() - 1) - 1]
        for call in re.finditer(r"properties\s*\.\s*get\s*\(", body):
            start = call.end() - 1
            depth, i = 0, start
            while True:
                if body[i] == "(":
                    depth += 1
                elif body[i] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            args = split_top_level(body[start + 1 : i])
            key = args[0]
            if key.startswith('"'):
                name = key.strip('"')
            elif re.fullmatch(r"(?:Constants\.)?[A-Z][A-Z0-9_]*", key):
                name = constants[key.split(".")[-1]]
            else:
                fm = re.fullmatch(r"(?:Constants\.)?(\w+)\(\s*\w+\s*\)", key)
                if not fm:
                    print(f"warning: cannot resolve property key {key} in {reader}", file=sys.stderr)
                    continue
                name = template_name(src_constants_methods, fm.group(1))
            default = args[1] if len(args) > 1 else None
            extra: dict[str, Any] = {}
            dv: Any
            if default in ("true", "false"):
                typ, dv = "bool", default == "true"
            elif default is not None and re.fullmatch(r"-?\d+", default):
                typ, dv = "int", int(default)
            elif default is not None and default.startswith('"'):
                typ, dv = "string", default.strip('"')
            else:
                typ = {"boolean": "bool", "int": "int", "String": "string"}.get(ret, ret)
                dv = None
                inner = re.fullmatch(
                    r"properties\s*\.\s*get\(\s*(?:Constants\.)?(\w+)\s*,\s*(true|false|-?\d+)\s*\)", default or ""
                )
                if inner:  # default = value of another property (or of the same one under an old constant)
                    dv = json.loads(inner.group(2))
                    if constants[inner.group(1)] != name:
                        extra["defaultFrom"] = constants[inner.group(1)]
                elif default is not None:
                    print(f"warning: cannot evaluate default {default} in {reader}", file=sys.stderr)
            entry = props.setdefault(name, {"type": typ, "default": dv, "readers": [], **extra})
            if reader not in entry["readers"]:
                entry["readers"].append(reader)
            if params.count(",") and "GamePlayer" in params:
                entry["perPlayer"] = True
    return props


src_constants_methods: str = ""


def template_name(constants_src: str, method: str) -> str:
    """Resolve e.g. Constants.getPropertyNameIncomePercentageFor(player) to '{player} Income Percentage'."""
    m = re.search(
        r"\b" + re.escape(method) + r"\s*\(\s*final\s+\w+\s+(\w+)\s*\)\s*\{\s*return\s+([^;]+);", constants_src
    )
    assert m, method
    var, expr = m.group(1), m.group(2)
    fmt = re.fullmatch(r"String\.format\(\s*\"([^\"]*)\"\s*,\s*" + var + r"\.getName\(\)\s*\)", expr.strip())
    if fmt:
        return fmt.group(1).replace("%s", "{player}")
    parts = [p.strip() for p in split_top_level(expr, "+")]
    out = []
    for p in parts:
        if p.startswith('"'):
            out.append(p.strip('"'))
        elif p.startswith(var):
            out.append("{player}")
        else:
            raise ValueError(f"cannot render {expr}")
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", required=True, help="git dir of a triplea-game/triplea mirror")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--dump-setters", metavar="CLASS", help="print the string-setter bodies of CLASS and exit")
    args = ap.parse_args(argv)
    global src_constants_methods

    commit = git(args.repo, "rev-parse", args.rev).strip()
    files = [
        f for f in git(args.repo, "ls-tree", "--name-only", commit, ATTACHMENTS_DIR).split() if f.endswith(".java")
    ]
    constants_src = strip_comments(git(args.repo, "show", f"{commit}:{CONSTANTS}"))
    src_constants_methods = constants_src
    constants = parse_constants(constants_src)
    classes: dict[str, JavaClass] = {}
    for path in [*files, DEFAULT_ATTACHMENT]:
        src = strip_comments(git(args.repo, "show", f"{commit}:{path}"))
        name = path.rsplit("/", 1)[1][:-5]
        cm = re.search(
            r"\b(?:(abstract)\s+)?(?:class|interface)\s+" + name + r"\b(?:<[^>]*>)?(?:\s+extends\s+(\w+))?"
            r"(?:\s+implements\s+([\w\s,<>]+?))?\s*\{",
            src,
        )
        if not cm:
            continue
        classes[name] = JavaClass(name, src, cm.group(2), bool(cm.group(1)) or "interface " + name in src)
        classes[name].interfaces = [i.strip() for i in (cm.group(3) or "").split(",") if i.strip()]
        classes[name].constants = parse_constants(src)
        classes[name].fields = parse_fields(classes[name])
    all_constants = dict(constants)
    int_constants = dict(INT_CONST.findall(constants_src))
    for jc in classes.values():
        for key, val in jc.constants.items():
            all_constants.setdefault(key, val)
        for key, val in INT_CONST.findall(jc.src):
            int_constants.setdefault(key, val)
    # String constants defined as another constant (`String A = Constants.B;`), resolved transitively
    aliases = dict(STRING_ALIAS.findall(constants_src))
    for jc in classes.values():
        for key, val in STRING_ALIAS.findall(jc.src):
            aliases.setdefault(key, val)
    for _ in range(len(aliases)):
        for key, val in aliases.items():
            if key not in all_constants and val in all_constants:
                all_constants[key] = all_constants[val]

    switches: dict[str, tuple[dict[str, dict[str, Any]], bool]] = {}
    for name, cls in sorted(classes.items()):
        if "getPropertyOrEmpty" in cls.src:
            switches[name] = parse_switch(cls, {**all_constants, **cls.constants})

    out_classes: dict[str, Any] = {}
    for name, cls in sorted(classes.items()):
        if cls.abstract or name not in switches:
            continue
        chain: list[str] = []
        c: str | None = name
        while c is not None and c in switches:
            chain.append(c)
            if not switches[c][1]:
                break
            c = classes[c].parent
        entries: dict[str, Any] = {}
        for declaring in reversed(chain):  # subclasses shadow superclasses
            for opt, info in switches[declaring][0].items():
                e: dict[str, Any] = {k: v for k, v in info.items() if v is not None}
                e["declaredIn"] = declaring
                body = None
                if info.get("stringSetter"):
                    # method references dispatch virtually: resolve from the concrete class upwards
                    found = find_string_setter(classes, name, info["stringSetter"])
                    if found:
                        e["setterIn"] = found[0]
                        body = found[1]
                e["guess"] = infer(body, info)
                e["start"] = option_start(classes, name, info, all_constants, int_constants)
                if body is not None:
                    e["guess"]["accumulates"] = accumulates(body)
                if info.get("getter"):
                    rt = None
                    g: str | None = name
                    while g in classes and rt is None:
                        rt = classes[g].return_type(info["getter"])
                        g = classes[g].parent
                    if rt:
                        e["getterType"] = rt
                entries[opt] = (e, body)
        if args.dump_setters == name:
            for opt, (e, body) in sorted(entries.items()):
                print(
                    f"--- {opt}  ({e.get('factory')} in {e['declaredIn']}; "
                    f"setter {e.get('stringSetter')} in {e.get('setterIn')}; guess {e['guess']['type']})"
                )
                if body is not None:
                    print("\n".join("    " + ln.strip() for ln in body.strip().splitlines() if ln.strip()))
        supertypes: set[str] = set()
        sup: str | None = name
        while sup is not None and sup in classes:
            if sup != name:
                supertypes.add(sup)
            supertypes.update(i for i in classes[sup].interfaces if i in classes)
            sup = classes[sup].parent
        if sup is not None:
            supertypes.add(sup)
        out_classes[name] = {
            "chain": chain,
            "supertypes": sorted(supertypes),
            "options": {opt: v[0] for opt, v in sorted(entries.items())},
        }
    if args.dump_setters:
        return 0
    legacy = parse_legacy(strip_comments(git(args.repo, "show", f"{commit}:{LEGACY_MAPPER}")), constants)
    props = parse_properties(strip_comments(git(args.repo, "show", f"{commit}:{PROPERTIES}")), constants)
    result = {"commit": commit, "classes": out_classes, "legacy": legacy, "properties": props}
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
