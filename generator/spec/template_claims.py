"""The claims of an attachment template that writes an object's main options.

A template whose attachment is its object's main one (a `territoryAttachment` on a territory) writes
its options straight into the object (`blockadeZone: true` on a sea zone), where a template's own
`ledger` has no attachment to stay on: `claim_main` puts it on the object, narrowed to the options
the template wrote (generator/spec/expand.py calls it as it writes them).
"""

from __future__ import annotations

from typing import Any

from generator.spec.load import SpecMap

__all__ = ["claim_main"]


def claim_main(owner: dict[str, Any], template: dict[str, Any], written: list[str]) -> None:
    """A template writing an object's main options (a convoy zone's blockadeZone) claims them for
    its rules on the object, narrowed to the options it wrote: the object's other options are not
    the template's rule. A rule the object claims already, unnarrowed, keeps its claim."""
    ledger = template.get("ledger")
    if not isinstance(ledger, list) or not ledger or not written:
        return
    narrowing = template.get("ledger_options")
    narrowing = narrowing if isinstance(narrowing, dict) else {}
    claims = list(owner.get("ledger") or [])
    narrowed = dict(owner.get("ledger_options") or {})
    for rule in ledger:
        options = [o for o in narrowing.get(rule, written) if o in written]
        if rule in claims and rule not in narrowed:
            continue
        if rule not in claims:
            claims.append(rule)
        narrowed[rule] = [*narrowed.get(rule, []), *(o for o in options if o not in narrowed.get(rule, []))]
    owner["ledger"], owner["ledger_options"] = claims, narrowed
    if isinstance(owner, SpecMap) and isinstance(template, SpecMap) and "ledger" in template.key_marks:
        for key in ("ledger", "ledger_options"):  # a problem with a made claim points at the template's
            owner.key_marks[key], owner.value_marks[key] = template.key_marks["ledger"], template.value_marks["ledger"]
