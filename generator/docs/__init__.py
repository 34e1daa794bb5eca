"""The documentation site's generated part: reference pages and pictures made from the code.

Reads every stage (the CLI's click group, the spec model, the pattern models, the catalogs, the
variants' ledgers and coverage, the picture makers) and writes `docs/reference/`, `docs/variants/`
and `docs/images/generated/`; `python -m generator.docs` regenerates them, `--check` lists stale ones.
"""
