"""What an engine's attachments refuse when a game loads, found first, at the spec line.

The engines check more than each option's value: a land unit with `carrierCapacity`, a construction
without `constructionType`, `canNotTarget` on a 2.x `isSub` unit... make TripleA refuse the whole
game with one terse message. `generator/catalog/engine-checks-<engine>.json` holds those checks as
rules over an attachment's options (see generator/catalog/checks.py); this module works out each
attachment's options as the engine ends up with them (its starting values, the options in the
order written, shortcuts such as `isFactory` that set several) and reports every rule that fails,
at the option to change, in our words with the engine's own message quoted. It also makes the
game parser's checks that no other check of the spec makes (`PARSER_CHECKS`: a unit type without
a unitAttachment, `max_run_count` below 1, a delegate class the engine lacks).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from generator.catalog.checks import Condition, load_checks, rule_checks
from generator.checks.context import CheckContext, Locator, SpecTree
from generator.checks.engine_reading import OPTION_FIELD, Attachment, game_properties, read_attachment
from generator.checks.in_play_rules import IN_PLAY_CHECKS
from generator.checks.options import attachments_of
from generator.checks.parser_rules import PARSER_CHECKS, engine_facts
from generator.diagnostics import Diagnostic, Severity
from generator.spec.kinds import KIND_OF_TYPE
from generator.spec.model import Spec
from generator.targets import TARGET_ENGINES, EngineName, Target

Path = tuple[str | int, ...]
Finder = TypeVar("Finder")  # a finder of checks.parser_rules or checks.in_play_rules


def _holds(condition: Condition, attachment: Attachment) -> bool:
    name, op = str(condition[0]), str(condition[1])
    value = attachment.value(name)
    if op == "set":
        return name in attachment.values
    if op == "writtenBefore":  # both written, this one first: the later setter sees (or resets) it
        other = str(condition[2]["option"])
        return (
            name in attachment.order and other in attachment.order and attachment.order[name] < attachment.order[other]
        )
    if op == "blank":  # not set, or only blanks
        return value is None or (isinstance(value, str) and not value.strip())
    if op == "notStartsWith":
        return isinstance(value, str) and not value.startswith(str(condition[2]))
    operand = condition[2]
    if isinstance(operand, dict):
        operand = attachment.value(operand["option"])
    if op in ("in", "notIn"):
        return bool(value in operand) == (op == "in")
    if op in ("==", "!="):
        return bool(value == operand) == (op == "==")
    if isinstance(value, bool) or not isinstance(value, int) or not isinstance(operand, int):
        return False  # an order between a number and something else: the option checks report it
    return {"<": value < operand, "<=": value <= operand, ">": value > operand, ">=": value >= operand}[op]


def _base(name: str) -> str:
    return re.split(r"[#~]", name)[0]


def failing(rule: dict[str, Any], attachment: Attachment) -> str | None:
    """The option to blame (as the spec writes it, "" if none is written) when `rule` fails, else None.

    A rule on the fields of an option written several times (`activateTrigger#0`) is checked on each.
    """
    repeated = _repeated(rule)
    for option in repeated:
        for text in attachment.writes.get(option, []):
            attachment.current[option] = text
            blamed = _failing(rule, attachment)
            if blamed is not None:
                attachment.current.clear()
                return blamed
        attachment.current.clear()
    return None if repeated else _failing(rule, attachment)


# A rule's options read field by field, by the rule's identity: the rules are loaded once
# (catalog.checks.load_checks) and checked against every attachment of every variant.
# The rule is kept beside its answer, so its id is never reused for another rule.
_REPEATED: dict[int, tuple[dict[str, Any], tuple[str, ...]]] = {}


def _repeated(rule: dict[str, Any]) -> tuple[str, ...]:
    cached = _REPEATED.get(id(rule))
    if cached is not None and cached[0] is rule:
        return cached[1]
    conditions = [c for a in rule["alternatives"] for c in a.get("all", []) + a.get("any", [])]
    found = tuple(sorted({_base(c[0]) for c in conditions if OPTION_FIELD.fullmatch(c[0])}))
    _REPEATED[id(rule)] = (rule, found)
    return found


def _failing(rule: dict[str, Any], attachment: Attachment) -> str | None:
    for alternative in rule["alternatives"]:
        if not all(_holds(c, attachment) for c in alternative.get("all", [])):
            continue
        anyof = [c for c in alternative.get("any", []) if _holds(c, attachment)]
        if alternative.get("any") and not anyof:
            continue
        # The option to change: one the spec writes itself, what breaks the rule before what it applies to.
        conditions = [*anyof, *reversed(alternative.get("all", []))]
        for names in (attachment.direct, attachment.set_by):
            for condition in conditions:
                if _base(condition[0]) in names:
                    return attachment.set_by[_base(condition[0])]
        return ""
    return None


def engine_text(message: str) -> str:
    """The engine's message as it reads: '…' where it inserts a value, none at the end."""
    while message.endswith("{}"):
        message = message.removesuffix("{}").rstrip()
    return message.replace("{}", "…")


def quoted(check: dict[str, Any]) -> str:
    """The engine's words for a catalog entry and where they come from; a 2.x entry worded otherwise
    in TripleA 2.7 (the release players have; the catalog reads the source's HEAD) adds 2.7's words,
    so a 2.7 user recognises the message they get."""
    said = engine_text(check.get("engineSays", check["message"]))
    where = check.get("engineSaysIn") or f"{check['class']}.{check['method']}"
    old = check.get("in27")
    if old:
        note = f", {old['note']}" if "note" in old else ""
        place = f" ({check['class']}.{old['method']})" if "method" in old else ""
        where += f'; 2.7{note}: "{engine_text(old["message"])}"{place}'
    return f'"{said}" ({where})'


def _matching(check: dict[str, Any], table: Mapping[str, Finder]) -> Iterator[Finder]:
    """The finders of `table` whose words are in the check's message (after "Class: ", of that class)."""
    for words, find in table.items():
        cls, _, words = words.rpartition(": ")
        if words in check["message"] and cls in ("", check["class"]):
            yield find


def _parser_checks(spec: Spec, engine: EngineName) -> Iterator[tuple[Path, str, str]]:
    data = load_checks(engine)
    for check in data["checks"]:
        if check["status"] == "spec_check":
            for find in _matching(check, PARSER_CHECKS):
                for path, says in find(spec, engine_facts(engine)):
                    yield path, says, quoted(check)


def _in_play_checks(spec: Spec, engine: EngineName) -> Iterator[tuple[Path, str, str, str]]:
    """(where, what is wrong, when the engine fails, its words) of each in-play failure, once: two
    places raising the same message for the same case (the capital lookups) are one finding."""
    data = load_checks(engine)
    seen: set[tuple[Path, str, str]] = set()
    for check in data["checks"]:
        if check["status"] == "in_play":
            for find in _matching(check, IN_PLAY_CHECKS):
                for path, says, when in find(spec, engine_facts(engine)):
                    if (path, says, when) not in seen:
                        seen.add((path, says, when))
                        yield path, says, when, quoted(check)


def check_engine_rules(spec: Spec, tree: SpecTree, target: Target) -> list[Diagnostic]:
    """`check` for a spec checked outside a variant (a game XML: importer.validate)."""
    return check(CheckContext(spec, tree, target))


def check(ctx: CheckContext) -> list[Diagnostic]:
    """Every engine check of the target engines that the spec's attachments fail."""
    spec = ctx.spec
    found: dict[tuple[Path, str, str], list[str]] = {}
    ignored: dict[tuple[Path, str, str], list[str]] = {}
    in_play: dict[tuple[Path, str, str], list[str]] = {}
    for engine in TARGET_ENGINES[ctx.target]:
        for path, says, words in _parser_checks(spec, engine):
            found.setdefault((path, says, words), []).append(engine)
        for path, says, when, words in _in_play_checks(spec, engine):
            in_play.setdefault((path, says, f"{when}: {words}"), []).append(engine)
        properties = game_properties(spec, engine)
        for path, cls, kind, options in attachments_of(spec):
            checks = rule_checks(engine, cls)
            if not checks:
                continue
            name = str(path[-1]) if path[-2:-1] == ("attachments",) else str(KIND_OF_TYPE[kind].main)
            attachment = read_attachment(engine, cls, name, options, properties)
            for check in checks:
                blamed = failing(check["rule"], attachment)
                words = quoted(check)
                if blamed is not None:
                    where = (*path, blamed) if blamed else path
                    says = check["rule"]["says"].format(option=blamed or "this attachment")
                    found.setdefault((where, says, words), []).append(engine)
                    continue
                for dropped in check["rule"].get("ignored", []):  # loads, but the option does nothing
                    blamed = failing(dropped, attachment)
                    if blamed is not None:
                        where = (*path, blamed) if blamed else path
                        ignored.setdefault((where, dropped["says"], dropped["by"]), []).append(engine)
    errors = _verdicts(found, "refuse{s} the game: {why}") + _verdicts(
        in_play, "load{s} the game and fail{s} when {why}"
    )
    return _said(errors, ctx.at, Severity.ERROR) + _said(
        _verdicts(ignored, "silently ignore{s} it ({why})"), ctx.at, Severity.WARNING
    )


Verdicts = list[tuple[Path, str, str]]


def _verdicts(found: dict[tuple[Path, str, str], list[str]], verdict: str) -> Verdicts:
    """(where, what is wrong, the engines' verdict) of each finding."""
    out = []
    for (where, says, why), engines in found.items():
        said = f"TripleA {' and '.join(engines)} " + verdict.format(s="s" if len(engines) == 1 else "", why=why)
        out.append((where, says, said))
    return out


def _said(verdicts: Verdicts, at: Locator, severity: Severity) -> list[Diagnostic]:
    """Each finding at its place, once, with every verdict on it: an engine refusing the game when
    it loads and another failing in play on the same mistake are one problem, said with both."""
    merged: dict[tuple[Path, str], list[str]] = {}
    for where, says, said in verdicts:
        merged.setdefault((where, says), []).append(said)
    problems = []
    for (where, says), saids in merged.items():
        key = where[-1] not in ("max_run_count", "class")
        problems.append(at.problem(where, "; ".join([says, *saids]), severity, key=key))
    return problems


def not_said(found: list[Diagnostic], said: list[Diagnostic]) -> list[Diagnostic]:
    """The engine's refusals at options no error of `said` is at: a value outside the option's own
    range is one problem, said once by the option check, not again as the engine's rule."""
    taken = {p.mark for p in said if p.severity is Severity.ERROR and p.mark is not None}
    return [p for p in found if p.mark not in taken]
