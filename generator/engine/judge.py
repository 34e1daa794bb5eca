"""Judge one game by its harness report: every reason it fails the check, in words, and its numbers.

The judgement lives here, the facts in the harness (generator/engine/java): a check can be
changed without touching Java. Reads a report validated by `harness_report.game_report`.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from lxml import etree

from generator.checks.dtd import engine_dtd
from generator.engine.harness_report import Counts, Entry, Fate, GameReport, PurchaseStep
from generator.safe_xml import safe_parser

# Steps that are the harness's own phases rather than game steps.
HARNESS_PHASES = {"parse", "setup", "stop", "startPersistentDelegates"}


@dataclass(frozen=True)
class Target:
    """One game to check: a display name and its XML file."""

    name: str
    path: Path


@dataclass
class Verdict:
    """What the check concluded about one target."""

    target: Target
    report: GameReport | None
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    seed: int = 1

    @property
    def ok(self) -> bool:
        return not self.failures


def evaluate(report: GameReport, rounds: int, xml: Path | None = None, jar: Path | None = None) -> list[str]:
    """Every reason the game fails the check, in words; empty when it passes."""
    failures: list[str] = []
    parse = report["parse"]
    error = parse["error"]
    if error:
        failures.append(f"parse failed: {tidy(error)}")
    failures += [f"DTD: {explain_sax(m, xml, jar)}" for m in parse["saxErrors"]]
    if error:
        return failures
    caused = action_consequences(report)
    # A refusal is a failure even when an action the harness took explains it: a purchase or a
    # placement the engine refuses is a turn the player did not play (the policy must not cause it).
    counted = Counter(_error_text(e) + _cause(e, caused) for e in report.get("errors", []))
    failures += [text if n == 1 else f"{text} ({n} times)" for text, n in counted.items()]
    if rounds <= 0:
        return failures
    done = report["roundsCompleted"]
    if done < rounds and not report.get("gameOver"):
        at = f", at step {report['stoppedAt']}" if report.get("stoppedAt") else ""
        failures.append(f"stopped in round {done + 1} of {rounds}{at}")
        # The checks below would only restate the cause reported above.
        return failures
    failures += _purchase_failures(report)
    if rounds >= 2 and done >= 2 and not any(b["round"] <= 2 for b in report.get("battles", [])):
        failures.append("no battle in the first 2 rounds")
    failures += _unplaced_failures(report)
    return failures


@dataclass
class Consequences:
    """What the actions the harness took changed, by (round, player) of the refusal they explain."""

    removed: dict[tuple[int, str], dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    frontier: dict[tuple[int, str], str] = field(default_factory=dict)


def action_consequences(report: GameReport) -> Consequences:
    out = Consequences()
    for action in report.get("actionsTaken", []):
        at = (action.get("round", 0), action.get("player") or "")
        for territory in action.get("removed") or {}:
            out.removed[at][territory] = action["action"]
        for player in action.get("frontiers") or []:
            out.frontier.setdefault((at[0], player), action["action"])
    return out


def _caused_by(entry: Entry, caused: Consequences) -> str | None:
    """The action behind a refusal of the AI, when an action the harness took for the player this
    round explains it: it removed the units the refusal names (a complex scorched after the AI
    bought for it), or it changed the player's frontier before the AI bought (a price advantage
    declared: the AI prices what it plans with the rules it saw before)."""
    if entry.get("channel") != "rejected":
        return None
    at = (entry.get("round", 0), entry.get("player") or "")
    message = entry["message"]
    if " refused purchase" in message and at in caused.frontier:
        return caused.frontier[at]
    named = (action for territory, action in caused.removed.get(at, {}).items() if _names(message, territory))
    return next(named, None)


def _cause(entry: Entry, caused: Consequences) -> str:
    """' (after the action X changed its frontier)': the likely cause of a refusal, for its message."""
    action = _caused_by(entry, caused)
    if action is None:
        return ""
    what = "changed its frontier" if " refused purchase" in entry["message"] else "removed units there"
    return f" (after the action {action} {what})"


def _names(message: str, territory: str) -> bool:
    """Whether an engine message speaks of `territory` ("... in Russia)", not "... in West Russia")."""
    return re.search(rf"\bin {re.escape(territory)}(?:[):,.]|$)", message) is not None


def action_notes(report: GameReport | None) -> list[str]:
    """Purchases the harness re-planned (before the engine saw one that would not fit at the prices
    in force, or after the engine refused it) and placements it made elsewhere after the engine
    refused the AI's (ActionLog): the player bought and placed, so they are not failures, but what
    it asked for and got is shown."""
    if report is None:
        return []
    purchases = [
        f"round {r['round']}, {r['player']}: purchase "
        + ("re-planned before the engine saw it" if r.get("preempted") else "refused")
        + f" ({r['refused']})"
        + ("" if r.get("preempted") else " and re-planned")
        + f": asked {_units(r.get('asked') or {})}, bought {_units(r.get('bought') or {})}"
        for r in report.get("purchaseReplans", [])
    ]
    placements = [
        f"round {r['round']}, {r['player']}: placement of {_units(r['units'])} in {r['asked']} refused "
        f"({r['refused']}) and made in {r['placed']}"
        for r in report.get("placementReplans", [])
    ]
    return purchases + placements


def _purchase_failures(report: GameReport) -> list[str]:
    bought: Counter[str] = Counter()
    for p in report.get("purchases", []):
        bought[p["player"]] += sum(p["units"].values())
    ran: dict[str, list[PurchaseStep]] = defaultdict(list)
    for s in report.get("purchaseSteps", []):
        ran[s["player"]].append(s)
    failures = []
    for player in report["game"]["players"]:
        name, frontier, steps = player["name"], player["productionFrontier"], player["purchaseSteps"]
        # A player without any step in the sequence (a bystander power) is not expected to buy.
        if bought[name] or (frontier is None and not steps) or player.get("steps") == 0:
            continue
        if frontier is None:
            reason = "no production frontier"
        elif player["frontierRules"] == 0:
            reason = f"production frontier {frontier} has no rules"
        elif not steps:
            reason = "no purchase step in the sequence"
        elif not any(s.endswith("Purchase") for s in steps):
            # AbstractAI.start picks what to do from the step name's suffix.
            reason = f"step {steps[0]} is not named *Purchase, and the AI only buys in steps named so"
        elif not ran[name]:
            reason = f"step {steps[0]} never ran"
        elif all(s["pusBefore"] <= 0 for s in ran[name]):
            reason = "0 PUs at every purchase step"
        else:
            reason = f"the AI bought nothing with {max(s['pusBefore'] for s in ran[name])} PUs"
        failures.append(f"{name} never purchased: {reason}")
    return failures


def _unplaced_failures(report: GameReport) -> list[str]:
    failures = []
    seen = set()
    for u in report.get("unplaced", []):
        if u["player"] not in seen:
            seen.add(u["player"])
            failures.append(
                f"{u['player']} bought units but never placed {_units(u['units'])} "
                f"(round {u['round']}, step {u['step']})"
            )
    last = report["rounds"][-1]["players"] if report.get("rounds") else {}
    for player in report["game"]["players"]:
        name = player["name"]
        waiting = last.get(name, {}).get("unplaced", {})
        if name not in seen and waiting and not player["placeSteps"]:
            failures.append(f"{name} bought units but has no place step: {_units(waiting)} never placed")
    return failures


def _units(counts: Counts) -> str:
    return ", ".join(f"{n} {unit}" for unit, n in sorted(counts.items()))


def _error_text(entry: Entry) -> str:
    step = entry.get("step")
    where = step if step in HARNESS_PHASES else f"step {step}" if step else "engine"
    channel, message = entry["channel"], entry["message"]
    if channel in ("exception", "delegateException"):
        message = tidy(message)
    elif channel == "stackTrace":
        message = f"printed {tidy(message)}"
    elif channel == "log":
        message = f"logged {message}"
    return f"{where}: {message}"


_EXCEPTION = re.compile(r"^(?:[\w$]+\.)*([\w$]*(?:Exception|Error|Throwable))(?:: (.*))?$", re.S)


def tidy(message: str) -> str:
    """An engine exception chain as one readable sentence: the first message, names spelled plainly.

    The harness joins a chain as "class: message <- class: message"; links that are not
    exceptions are the harness's own words and are kept in front.
    """
    links = message.split(" <- ")
    words, engine = [], None
    for link in links:
        found = _EXCEPTION.match(link)
        if found is None:
            words.append(link)
        elif (found.group(2) or "").strip():
            engine = found.group(2)
            break
    if engine is None and (root := _EXCEPTION.match(links[-1])):
        engine = root.group(1)  # no message anywhere: the root cause's class says most
    text = ": ".join([*words, engine] if engine else words)
    # The parser prefixes its messages with the file name it was given, which we already show.
    text = re.sub(r"^(?:MapName|mapName): [^,]*, ?", "", text)
    text = re.sub(r"\s*for:\s*PlayerID named:(\S+)", r" for \1", text)
    text = re.sub(r"PlayerID named:(\S+)", r"\1", text)
    return text.strip()


_MISSING_ID = re.compile(r'An element with the identifier "([^"]+)" must appear in the document')


def explain_sax(message: str, xml: Path | None, jar: Path | None = None) -> str:
    """A DTD message; for a dangling reference, name the elements that use the missing ID.

    The parser reports dangling IDREFs at the end of the document, so the line number it gives
    points nowhere useful; the referencing element is what the author needs.
    """
    found = _MISSING_ID.search(message)
    if not found or xml is None:
        return message
    missing = found.group(1)
    # Only attributes the DTD declares as references (territory names, for one, are plain text).
    dtd: Any = engine_dtd(jar)  # lxml-stubs lack DTD.iterelements
    refs = (
        {(e.name, a.name) for e in dtd.iterelements() for a in e.iterattributes() if "idref" in a.type} if dtd else None
    )
    try:
        root = etree.parse(str(xml), safe_parser()).getroot()
    except (OSError, etree.XMLSyntaxError):
        return message
    users = []
    for element in (e for e in root.iter() if isinstance(e.tag, str)):  # no comments
        for key, value in element.attrib.items():
            attr = key.decode() if isinstance(key, bytes) else key
            if missing in value.split() and (refs is None or (element.tag, attr) in refs):
                label = f" {element.get('name')!s}" if isinstance(element.get("name"), str) else ""
                users.append(f'{element.tag}{label} ({attr}="{missing}", line {element.sourceline})')
    if not users:
        return message
    return f'no element has the ID "{missing}", but it is used by ' + "; ".join(users[:5])


def summary(report: GameReport | None, rounds: int) -> dict[str, Any]:
    """The numbers shown in the table and written to the report for one game."""
    if report is None:
        return {}
    parse = report["parse"]
    caused = action_consequences(report)
    played = sum(1 for e in report.get("errors", []) if not _caused_by(e, caused))
    errors = played + len(parse.get("saxErrors", [])) + (1 if parse.get("error") else 0)
    return {
        "roundsRequested": rounds,
        "roundsCompleted": report.get("roundsCompleted", 0),
        "gameOver": report.get("gameOver", False),
        "battles": len(report.get("battles", [])),
        "unitsPurchased": sum(sum(p["units"].values()) for p in report.get("purchases", [])),
        "moves": len(report.get("moves", [])),
        "unitsPlaced": sum(sum(p["units"].values()) for p in report.get("placements", [])),
        "territoriesChangedHands": len({c["territory"] for c in report.get("ownerChanges", [])}),
        # User and political actions the harness took for the AIs (the variant's own layer).
        "actionsTaken": sorted({a["action"] for a in report.get("actionsTaken", []) if not a.get("error")}),
        "deliveries": deliveries(report),
        "errors": errors,
        "warnings": len(report.get("warnings", [])),
        "secondsPerRound": seconds_per_round(report),
    }


def seconds_per_round(report: GameReport | None) -> list[float]:
    """How long each round of a game took, as the harness timed it (none for a game that did not end)."""
    if report is None:
        return []
    return [ms / 1000 for ms in report.get("timings", {}).get("rounds", [])]


DELIVERY_FATES: tuple[Fate, ...] = get_args(Fate)  # one list: the report's type


def deliveries(report: GameReport) -> dict[str, dict[str, int]]:
    """Per unit the rules pay for on delivery (lend-lease tokens, cargo): how many were granted
    (appeared on the board) and how many of them were delivered, lost (sunk) or still waiting."""
    out: dict[str, dict[str, int]] = {}
    for token in report.get("deliveries", []):
        counts = out.setdefault(token["unit"], {"granted": 0, **dict.fromkeys(DELIVERY_FATES, 0)})
        counts["granted"] += 1
        counts[token["fate"]] += 1
    return out


def delivery_line(report: GameReport | None) -> str | None:
    """'lendLease: 6 granted, 2 delivered, 1 lost, 3 waiting (2 at sea)' for a game with deliveries."""
    counts = deliveries(report) if report is not None else {}
    if not counts:
        return None
    # Of those waiting at the end, how many are at sea (on their way) rather than still ashore.
    tokens = report.get("deliveries", []) if report is not None else []
    at_sea = Counter(t["unit"] for t in tokens if t["fate"] == "waiting" and t.get("atSea"))
    parts = [f"{unit}: {c['granted']} granted, " + ", ".join(f"{c[f]} {f}" for f in DELIVERY_FATES)
             + (f" ({at_sea[unit]} at sea)" if c["waiting"] else "")
             for unit, c in sorted(counts.items())]  # fmt: skip
    return "deliveries: " + "; ".join(parts)


def actions_never_taken(outcomes: Sequence[Verdict]) -> dict[str, tuple[int, list[str]]]:
    """Per target with user or political actions: how many it has, and those no game took."""
    found: dict[str, tuple[int, list[str]]] = {}
    for target in dict.fromkeys(o.target for o in outcomes):
        reports = [o.report for o in outcomes if o.target == target and o.report is not None]
        every = {a for r in reports for names in r["game"].get("actions", {}).values() for a in names}
        taken = {a["action"] for r in reports for a in r.get("actionsTaken", []) if not a.get("error")}
        if every:
            found[target.name] = (len(every), sorted(every - taken))
    return found
