"""Game properties against what each engine reads: the name, and the type of the value.

The engine reads a property with a fixed type (`Low Luck` as true/false, `maxFactoriesPerTerritory`
as a whole number) and fails deep inside a delegate when the value has another type ("String
cannot be cast to Boolean"), naming nothing. Whether a game breaks depends on whether anything
reads that property while it is played (real games carry such values), so this is a warning,
an error with --strict. A property no engine reads does nothing at all: a
name no engine reads (other than the names older TripleA versions read, which real maps carry)
and no condition asks about (`RulesAttachment.gameProperty`) is a warning, with the name it
probably meant. A `constant` goes beside an editable property only (an error elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from generator.catalog import load_catalog
from generator.checks.context import CheckContext, Locator, SpecTree
from generator.checks.options import attachments_of
from generator.diagnostics import Diagnostic, Severity, did_you_mean
from generator.spec.model import Property, Spec
from generator.spec.numbers import JAVA_INT_MAX, JAVA_INT_MIN, out_of_range
from generator.spec.option_values import Scalar
from generator.targets import TARGET_ENGINES, Target

_KINDS = {"bool": "true or false", "int": "a whole number", "string": "text"}


def _expanded(names: Iterable[str], players: list[str], alliances: list[str]) -> Iterator[tuple[str, str]]:
    """(property name, catalog name) with `{player}` and `{alliance}` filled in."""
    for name in names:
        if "{player}" in name:
            yield from ((name.replace("{player}", p), name) for p in players)
        elif "{alliance}" in name:
            yield from ((name.replace("{alliance}", a), name) for a in alliances)
        else:
            yield name, name


def _value_problem(kind: str, value: Scalar) -> str | None:
    if kind == "bool" and not isinstance(value, bool):
        return f"{value!r} is neither{did_you_mean(str(value).lower(), ['true', 'false'])}"
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{value!r} is not one"
        if not JAVA_INT_MIN <= value <= JAVA_INT_MAX:
            return f"{value} is outside the engine's range {JAVA_INT_MIN}..{JAVA_INT_MAX}"
    return None


def _asked_about(spec: Spec) -> set[str]:
    """Property names that conditions ask about (RulesAttachment.gameProperty)."""
    asked: set[str] = set()
    for _, java_class, _, options in attachments_of(spec):
        if java_class == "RulesAttachment" and "gameProperty" in options:
            value = options["gameProperty"]
            asked.update(str(v) for v in (value if isinstance(value, list) else [value]))
    return asked


def _range(prop: Scalar | Property, at: Locator, where: tuple[str, ...]) -> list[Diagnostic]:
    """An editable number outside its own range: engine 1.9 refuses the game ('Default value out of
    range'); a fixed one is read as it is, whatever range it declares."""
    if not isinstance(prop, Property) or not prop.editable or isinstance(prop.value, bool):
        return []
    if not isinstance(prop.value, int):
        return []
    low, high = prop.min, prop.max
    if not JAVA_INT_MIN <= prop.value <= JAVA_INT_MAX:  # an editable number is read as a Java int
        bounds = {"le": JAVA_INT_MAX} if prop.value > JAVA_INT_MAX else {"ge": JAVA_INT_MIN}
        return [at.problem(where, out_of_range(prop.value, bounds))]
    if (low is not None and prop.value < low) or (high is not None and prop.value > high):
        message = f"value {prop.value} is outside its range {low}..{high} (the engine refuses an editable one)"
        return [at.problem(where, message)]
    return []


def _constant(prop: Scalar | Property, at: Locator, path: tuple[str, ...]) -> list[Diagnostic]:
    """A constant beside a fixed property: both would be constants, and the engine keeps the last
    written (the constant), so `value` would do nothing. Beside an editable one nothing reads it
    while the game is played (the editable value is read first), so its type is not checked."""
    if not isinstance(prop, Property) or prop.constant is None or prop.editable:
        return []
    where = (*path, "constant")
    message = (
        "a constant is kept beside an editable property only; this one is not editable, so the engine "
        "would read the constant and ignore value (write editable: true, or the value alone)"
    )
    return [at.problem(where, message, key=True)]


def check_properties(spec: Spec, tree: SpecTree, target: Target) -> list[Diagnostic]:
    """`check` for a spec checked outside a variant (a game XML: importer.validate)."""
    return check(CheckContext(spec, tree, target))


def check(ctx: CheckContext) -> list[Diagnostic]:
    """Each property's name and value against the catalogs of the target engines."""
    spec, target, at = ctx.spec, ctx.target, ctx.at
    players = list(spec.players)
    alliances = sorted({a for p in spec.players.values() for a in p.alliances})
    catalogs = {engine: load_catalog(engine)["properties"] for engine in TARGET_ENGINES[target]}
    read_by = {engine: dict(_expanded(props, players, alliances)) for engine, props in catalogs.items()}
    everything = {name for names in read_by.values() for name in names}
    legacy = {name for engine in catalogs for name in load_catalog(engine)["legacyProperties"]}
    asked = _asked_about(spec)
    found: list[Diagnostic] = []
    for name, prop in spec.properties.items():
        path: tuple[str, ...] = ("properties", name)
        value = prop.value if isinstance(prop, Property) else prop
        where = (*path, "value") if isinstance(prop, Property) else path
        found += _range(prop, at, where) + _constant(prop, at, path)
        readers = {engine: catalogs[engine][names[name]] for engine, names in read_by.items() if name in names}
        if not readers:
            same = [known for known in sorted(everything) if known.lower() == name.lower()]
            # Warnings: the engine loads and plays the game; the property just does nothing (an
            # editable one at least shows in the game's options, for the players to read).
            if same:
                message = f"no engine reads '{name}': property names are case-sensitive (did you mean '{same[0]}'?)"
                found.append(at.problem(path, message, Severity.WARNING, key=True))
            elif name not in asked and name not in legacy and not (isinstance(prop, Property) and prop.editable):
                message = (
                    f"no engine reads '{name}' and no condition asks about it, so it does nothing"
                    f"{did_you_mean(name, everything)}"
                )
                found.append(at.problem(path, message, Severity.WARNING, key=True))
            continue
        for kind in sorted({entry["type"] for entry in readers.values()}):
            problem = _value_problem(kind, value)
            if problem:  # a warning: whether the game breaks depends on whether anything reads it
                message = f"the engine reads {name} as {_KINDS[kind]} and fails where it does; {problem}"
                found.append(at.problem(where, message, Severity.WARNING))
    return found
