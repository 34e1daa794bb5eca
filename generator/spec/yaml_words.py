"""YAML syntax errors in a mod maker's words: what is wrong at that line, and the likely fix.

PyYAML names the parser's state ("expected <block end>, but found '<block mapping start>'");
a person needs to hear "this line does not line up with the lines above it". Each known problem
is reworded with its likely fix; anything else keeps PyYAML's words.
"""

from __future__ import annotations

import re


def explain(problem: str, context: str | None, opened_at: int | None, line: str) -> str:
    """Our words for PyYAML's `problem` (with its `context`); `opened_at` is the context's line."""
    where = f" (it opens at line {opened_at})" if opened_at else ""
    if "'\\t'" in problem or "tab character" in problem:
        return "a tab character: YAML indents with spaces only; replace the tab with spaces"
    if problem.startswith("expected <block end>"):
        if problem.endswith("'?'") or "'-'" in problem or "block sequence" in (context or ""):
            return (
                "this line does not fit the block above it: a list item ('- ...') and a key ('key: ...') "
                f"cannot share one level; check the indentation{where}"
            )
        block = f" against line {opened_at}" if opened_at else ""
        return f"this line does not line up with the lines above it: check its indentation{block}"
    if problem == "mapping values are not allowed here":
        return (
            "a ':' YAML does not expect here: a line one level deeper than the key above it, or a value "
            "holding ': ' (quote it: \"a: b\")"
        )
    if problem == "could not find expected ':'":
        return "a key without ':' after it: write `key: value`"
    flow = re.match(r"expected ',' or '([}\]])', but got '(.*)'", problem)
    if flow:
        close, got = flow.groups()
        kind = "{...} mapping" if close == "}" else "[...] list"
        if got == ":":
            return (
                f"a ':' inside a {kind} where an entry should end: separate entries with ', ', "
                f"and quote a value holding ': '{where}"
            )
        return f"the {kind} is not closed: separate its entries with ', ' and end it with '{close}'{where}"
    if problem == "found unexpected end of stream" and "quoted" in (context or ""):
        return f"a quote that is never closed{where}"
    if problem == "found unexpected end of stream":
        return f"the file ends inside something left open{where}"
    alias = re.match(r"found undefined alias '(.*)'", problem)
    if alias:
        return f"'*{alias.group(1)}' refers to no anchor '&{alias.group(1)}' defined before it"
    if problem.startswith("found unknown escape character"):
        return (
            "an unknown escape after '\\' in a double-quoted value: write '\\\\' for a backslash, or use single quotes"
        )
    if problem == "but found another document":
        return "a second document ('---'): a spec file holds one mapping of keys"
    if problem == "second occurrence" and "duplicate anchor" in (context or ""):
        return f"{context.split(';')[0] if context else 'duplicate anchor'}: give each anchor its own name"
    if problem.startswith("expected ' '") and "!" in line:
        return f"{problem} (a tag such as !delete needs a space after it: `{{capital: !delete }}`)"
    if problem == "did not find expected key":
        return f"this line does not continue the mapping above it: check its indentation{where}"
    return problem
