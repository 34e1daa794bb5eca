"""`new`: a variant in this project, or a whole mod repository of its own.

A mod repository holds its variants (extending the ones triplea-forge ships), the editor schema,
the pin of the triplea-forge it is built with (`requirements.txt`, which its CI installs), a
`.gitignore`, a README to start from and the CI workflow. Nothing is written over an existing
file; a mod repository is only made in a folder that is new or empty.
"""

from __future__ import annotations

import shutil
import subprocess
from importlib import metadata
from pathlib import Path

from generator.paths import output_folder_problem, plain_name_problem
from generator.release.workflow import write_workflow
from generator.spec.dump import SCHEMA_COMMENT
from generator.spec.resolve import Rules, extends_cycle
from generator.spec.schema import schema_text

PIN_FILE = "requirements.txt"
GITIGNORE = """\
# triplea-forge: staging folders of interrupted writes, the local virtual environment, packages,
# balance studies
.forge-*
.venv/
/dist/
/balance/
__pycache__/
"""


class ScaffoldError(Exception):
    """Why nothing was made, in one line."""


def _checkout() -> Path | None:
    """The git checkout this triplea-forge runs from (an editable install), if it is one."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / ".git").exists() and (root / "pyproject.toml").is_file() else None


def default_pin() -> tuple[str, str | None]:
    """What CI should `pip install` to get this very triplea-forge, and a note when it may not reach it.

    From a checkout: its `origin` at the current commit, or (no remote) the checkout itself by
    path, which only this machine can reach. From an installed package: its version.
    """
    checkout = _checkout()
    if checkout is None:
        return f"triplea-forge=={metadata.version('triplea-forge')}", None

    def git(*args: str) -> str:
        proc = subprocess.run(["git", "-C", str(checkout), *args], capture_output=True, text=True, check=False)
        return proc.stdout.strip() if proc.returncode == 0 else ""

    commit = git("rev-parse", "HEAD")
    origin = git("remote", "get-url", "origin")
    at = f"@{commit}" if commit else ""
    if origin:
        url = origin if "://" in origin else "ssh://" + origin.replace(":", "/", 1)
        return f"triplea-forge @ git+{url}{at}", None
    note = (
        f"{PIN_FILE} pins triplea-forge to {checkout}, which a CI machine cannot reach: "
        "edit it, or give --install 'triplea-forge @ git+https://...'"
    )
    return f"triplea-forge @ git+file://{checkout}{at}", note


def variant_text(name: str, base: str, own_map: bool) -> str:
    game = f'{{name: {name}, version: "0.1"' + (f", map: {name}" if own_map else "") + "}"
    return (
        f"{SCHEMA_COMMENT}\n# {name}: what it changes in {base}; everything else is {base}'s.\n"
        f"extends: {base}\ngame: {game}\n"
    )


def check_extends(rules: Rules, name: str, base: str) -> None:
    """ScaffoldError when the new variant could never be built: it would extend itself."""
    cycle = extends_cycle(rules, name, base)
    if cycle is None:
        return
    if len(cycle) == 2:
        hides = f"; it would hide the '{name}' triplea-forge ships" if name in rules.base_variants() else ""
        raise ScaffoldError(f"variant '{name}' cannot extend itself{hides}: give the new variant a name of its own")
    raise ScaffoldError(
        f"variant '{name}' cannot extend '{base}': the chain would come back to it ({' -> '.join(cycle)}); "
        "give the new variant another name, or extend another variant"
    )


def new_variant(rules_dir: Path, name: str, base: str) -> Path:
    problem = plain_name_problem(name, "variant name")
    if problem:
        raise ScaffoldError(problem)
    check_extends(Rules(rules_dir, str(rules_dir)), name, base)
    folder = rules_dir / name
    if folder.exists() or folder.is_symlink():
        raise ScaffoldError(f"{folder} exists already")
    blocked = output_folder_problem(rules_dir)
    if blocked:
        raise ScaffoldError(f"cannot write {rules_dir}: {blocked}")
    path = folder / "game.yaml"
    try:
        folder.mkdir(parents=True)
        try:
            path.write_text(variant_text(name, base, own_map=False), encoding="utf-8")
        except OSError:
            shutil.rmtree(folder, ignore_errors=True)  # nothing half-made is left
            raise
    except OSError as exc:
        raise ScaffoldError(f"cannot write {exc.filename or path}: {exc.strerror or exc}") from exc
    return path


def _readme(name: str, base: str) -> str:
    return f"""# {name}

A TripleA mod: a variant of `{base}`, written as YAML specs and built with triplea-forge.

```sh
python3 -m venv .venv && .venv/bin/pip install -r {PIN_FILE}
.venv/bin/triplea-forge build          # rules/ -> output/ (commit output/ too)
.venv/bin/triplea-forge check          # every game played by the engine's AIs
.venv/bin/triplea-forge watch          # rebuild and re-check on every save
.venv/bin/triplea-forge package --base-map ~/triplea/downloadedMaps/world_war_ii_revised
```

`rules/{name}/game.yaml` holds what this mod changes; `extends: {base}` brings the rest from the
variants triplea-forge ships. `{PIN_FILE}` pins the triplea-forge CI builds it with. The workflow
in `.github/workflows/` checks every push and publishes the package on every tag.
"""


def scaffold_repository(folder: Path, name: str, base: str, install: str | None) -> tuple[list[Path], str | None]:
    """A mod repository in `folder` (new or empty); the files written, and a note for the user."""
    problem = plain_name_problem(name, "variant name")
    if problem:
        raise ScaffoldError(problem)
    check_extends(Rules(folder / "rules", "rules"), name, base)
    blocked = output_folder_problem(folder)
    if blocked:
        raise ScaffoldError(f"cannot make a mod repository in {folder}: {blocked}")
    if folder.exists() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder} exists and is not an empty folder; give a new one")
    pin, note = (install, None) if install else default_pin()
    files = {
        f"rules/{name}/game.yaml": variant_text(name, base, own_map=True),
        PIN_FILE: f"# The triplea-forge this mod is built with; its CI installs exactly this.\n{pin}\n",
        ".gitignore": GITIGNORE,
        "README.md": _readme(name, base),
        "spec.schema.json": schema_text(),
    }
    made = next((f for f in (*reversed(folder.parents), folder) if not f.exists()), None)  # first folder we make
    written: list[Path] = []
    try:
        for rel, text in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
        written.append(write_workflow(folder, folder / "rules", None, force=False))
    except BaseException as exc:
        _remove_made(folder, made)
        if isinstance(exc, OSError):
            raise ScaffoldError(f"cannot write {exc.filename or folder}: {exc.strerror or exc}") from exc
        raise
    return written, note


def _remove_made(folder: Path, made: Path | None) -> None:
    """Undo a repository half made: `folder` was new (`made` the first folder created) or empty,
    so everything it holds now is ours."""
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)
        return
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
