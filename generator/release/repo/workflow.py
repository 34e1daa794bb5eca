"""`init-ci`: the GitHub Actions workflow of a mod repository, from templates/ci-workflow.yml.j2.

The workflow installs triplea-forge from the repository's own pin (`requirements.txt`), so CI
builds with exactly the version the mod was made with, and its check job installs the base map
(`map get`) so every push checks territories and unit pictures; each job gets only the rights it uses.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from markupsafe import Markup

from generator.emit.render import environment
from generator.emit.write import write_file
from generator.errors import UsageProblem

WORKFLOW = Path(".github") / "workflows" / "triplea-forge.yml"
REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


class CiUsageError(UsageProblem):
    """The command line cannot give a workflow (exit 2)."""


def map_to_get(rules_dir: Path) -> str | None:
    """The official map the variants in `rules_dir` are played on until the mod is released (the
    last map their chain of variants names: what `map get` installs), if they load."""
    from generator.checks.variant import check_variant
    from generator.release.maps.base import made_on
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, str(rules_dir))
    for name in rules.variants():
        compiled, _ = check_variant(rules, name)
        if compiled is not None:
            return made_on(rules, compiled)
    return None


def render_workflow(base_map_repo: str, base_map: str) -> str:
    if not REPO.match(base_map_repo):
        raise CiUsageError(f"--base-map-repo must look like owner/name, got {base_map_repo!r}")
    # The template is YAML under an HTML-escaping environment: hand it values already quoted for
    # YAML (a JSON string is a YAML double-quoted scalar) and marked safe; a shell word is quoted
    # for the shell (it sits in a block scalar, which YAML takes as it is).
    return (
        environment()
        .get_template("ci-workflow.yml.j2")
        .render(base_map_repo=Markup(json.dumps(base_map_repo)), base_map_word=Markup(shlex.quote(base_map)))
    )


def write_workflow(folder: Path, rules_dir: Path, base_map_repo: str | None, force: bool) -> Path:
    target = folder / WORKFLOW
    if target.exists() and not force:
        raise CiUsageError(f"{target} exists; use --force to replace it")
    map_name = map_to_get(rules_dir)
    if map_name is None:
        if base_map_repo is None:
            raise CiUsageError(f"no variant loads from {rules_dir}; name the base map with --base-map-repo owner/name")
        map_name = base_map_repo.rsplit("/", 1)[-1]
    text = render_workflow(base_map_repo or f"triplea-maps/{map_name}", map_name)
    write_file(target, text.encode("utf-8"))  # never into a FIFO or a device; a failure in words
    return target
