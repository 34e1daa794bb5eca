"""`new`: a variant in this project, or a whole mod repository of its own.

A mod repository holds its variants (extending the ones triplea-forge ships), the editor schema,
the pin of the triplea-forge it is built with (`requirements.txt`, which its CI installs), a
`.gitignore`, a README to start from and the CI workflow. Nothing is written over an existing
file; a mod repository is only made in a folder that is new or empty.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from importlib import metadata
from pathlib import Path

from generator.checks.board import map_names
from generator.diagnostics import Severity
from generator.errors import TripleaForgeError
from generator.paths import base_rules_dir, output_folder_problem, plain_name_problem
from generator.release.repo.mod_repo import checkout_pin, first_commit, installed_pin
from generator.release.repo.workflow import CiUsageError, write_workflow
from generator.spec.dump import SCHEMA_COMMENT
from generator.spec.resolve import Rules, extends_cycle, resolve
from generator.spec.schema import schema_text

PIN_FILE = "requirements.txt"
GITIGNORE = """\
# triplea-forge: staging folders of interrupted writes, the local virtual environment, packages,
# balance studies, the variants' pages (`triplea-forge site`)
.forge-*
.venv/
/dist/
/balance/
/site/
__pycache__/
"""


class ScaffoldError(TripleaForgeError):
    """Why nothing was made, in one line."""


def _checkout() -> Path | None:
    """The git checkout this triplea-forge runs from (an editable install), if it is one."""
    root = Path(__file__).resolve().parents[3]  # generator/release/repo/scaffold.py -> the checkout
    return root if (root / ".git").exists() and (root / "pyproject.toml").is_file() else None


def default_pin() -> tuple[str, str | None]:
    """What CI should `pip install` to get this very triplea-forge, and a note when it may not reach it.

    From a checkout: its origin's https URL at the current commit, or (no remote) the checkout
    itself by path (release.mod_repo). From an installed package: where pip installed it from,
    else its version.
    """
    checkout = _checkout()
    if checkout is None:
        installed = metadata.distribution("triplea-forge")
        return installed_pin(installed.read_text("direct_url.json"), installed.version)
    return checkout_pin(checkout)


def extra_install_line(extra: str) -> str:
    """The command that adds the optional EXTRA to this triplea-forge, from where it came.

    A checkout (an editable install) takes it from its own folder; an installed package from the
    source pip installed it from (a git URL at its commit, a folder), else its version; with the
    pip of the Python it runs in, so a venv's triplea-forge gets it in that venv.
    """
    checkout = _checkout()
    if checkout is not None:
        wanted = f"-e {shlex.quote(f'{checkout}[{extra}]')}"
    else:
        pin, _ = default_pin()
        wanted = shlex.quote(pin.replace("triplea-forge", f"triplea-forge[{extra}]", 1))
    return f"{shlex.quote(sys.executable)} -m pip install {wanted}"


def variant_text(name: str, base: str, game_map: str | None) -> str:
    game = f'{{name: {name}, version: "0.1"' + (f", map: {game_map}" if game_map else "") + "}"
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


def _own_map(rules: Rules, base: str) -> tuple[str | None, str | None]:
    """The map a new variant of this rules folder is played on when its base would give it another:
    the one map the folder's own variants name (a mod repository's: its package is one map), and a
    note when they name several (the base's is kept)."""
    named: dict[str, list[str]] = {}
    for variant in rules.variants():
        resolved, _ = resolve(rules, variant)
        game = resolved.tree.get("game") if resolved is not None else None
        if isinstance(game, dict) and isinstance(game.get("map"), str):
            named.setdefault(game["map"], []).append(variant)
    resolved, _ = resolve(rules, base)
    game = resolved.tree.get("game") if resolved is not None else None
    inherited = game.get("map") if isinstance(game, dict) else None
    if len(named) == 1:
        (only,) = named
        return (only if only != inherited else None), None
    if len(named) > 1:
        maps = "; ".join(f"{', '.join(v)} on map '{m}'" for m, v in sorted(named.items()))
        return None, f"the variants here are on several maps ({maps}): the new one is on {base}'s; set its game.map"
    return None, None


def new_variant(rules_dir: Path, name: str, base: str) -> tuple[Path, str | None]:
    """`rules_dir`/NAME/game.yaml, extending `base` on the folder's map; and a note for the user."""
    problem = plain_name_problem(name, "variant name")
    if problem:
        raise ScaffoldError(problem)
    rules = Rules(rules_dir, str(rules_dir))
    check_extends(rules, name, base)
    game_map, note = _own_map(rules, base)
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
            path.write_text(variant_text(name, base, game_map), encoding="utf-8")
        except OSError:
            shutil.rmtree(folder, ignore_errors=True)  # nothing half-made is left
            raise
    except OSError as exc:
        raise ScaffoldError(f"cannot write {exc.filename or path}: {exc.strerror or exc}") from exc
    return path, note


def base_map_of(base: str) -> str:
    """The official map a mod extending `base` (a variant triplea-forge ships) is played on until
    it is released: the last map `base`'s chain names (checks.board.map_names)."""
    rules = Rules(base_rules_dir(), str(base_rules_dir()))
    resolved, _ = resolve(rules, base)
    game = resolved.tree.get("game") if resolved is not None else None
    own = game.get("map") if isinstance(game, dict) else None
    if resolved is None or not isinstance(own, str):
        return "world_war_ii_revised"  # the map of every variant triplea-forge ships
    return map_names(rules, resolved, own)[-1]


def _readme(name: str, base: str, base_map: str) -> str:
    return f"""# {name}

A TripleA mod: a variant of `{base}`, written as YAML specs and built with triplea-forge.

```sh
python3 -m venv .venv && .venv/bin/pip install -r {PIN_FILE}
.venv/bin/triplea-forge map get {base_map}   # the base map, into ~/triplea/downloadedMaps
.venv/bin/triplea-forge build          # rules/ -> output/: commit both, CI checks they agree
.venv/bin/triplea-forge validate       # every territory and unit picture against the map
.venv/bin/triplea-forge check          # every game played by the engine's AIs
.venv/bin/triplea-forge watch          # rebuild and re-check on every save
.venv/bin/triplea-forge play {name} --ai   # play it in TripleA
.venv/bin/triplea-forge package        # dist/{name}-master.zip, for players' downloadedMaps
git add -A && git commit -m "what changed" && git push   # CI checks every push
git tag v1.0 && git push origin v1.0   # a release: the package on the GitHub release v1.0
```

`rules/{name}/game.yaml` holds what this mod changes; `extends: {base}` brings the rest from the
variants triplea-forge ships. Until the mod is released under its own map name (`{name}`), it is
checked and played on `{base_map}`. `{PIN_FILE}` pins the triplea-forge CI builds it with.
`output/` is the built game, committed beside the specs that make it (`triplea-forge new`
committed the first build): a pull request shows the game that changed, and CI's `build --check`
fails when the two disagree. The workflow in `.github/workflows/` checks every push against the
base map and publishes the package on every tag.
"""


def scaffold_repository(folder: Path, name: str, base: str, install: str | None) -> tuple[list[Path], list[str]]:
    """A mod repository in `folder` (new or empty), a git repository with its first commit; the
    files written, and notes for the user."""
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
        f"rules/{name}/game.yaml": variant_text(name, base, name),
        PIN_FILE: f"# The triplea-forge this mod is built with; its CI installs exactly this.\n{pin}\n",
        ".gitignore": GITIGNORE,
        "README.md": _readme(name, base, base_map_of(base)),
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
        built, unbuilt = _first_build(folder)
        written += built
    except BaseException as exc:
        _remove_made(folder, made)
        if isinstance(exc, OSError):
            raise ScaffoldError(f"cannot write {exc.filename or folder}: {exc.strerror or exc}") from exc
        if isinstance(exc, CiUsageError):  # a problem of the new repository, not of `new`'s command line
            raise ScaffoldError(str(exc)) from exc
        raise
    committed = first_commit(folder, f"{name}: a new mod extending {base} (triplea-forge new)")
    return written, [n for n in (note, unbuilt, committed) if n]


def _first_build(folder: Path) -> tuple[list[Path], str | None]:
    """output/ built as `build` builds it, so the first commit holds it and the CI's `build
    --check` passes on the first push (output/ is committed: docs/how-to/ci-and-releases.md). The
    bytes do not depend on the board, which is not checked here (no map may be installed yet)."""
    from generator.emit.outputs import build_outputs
    from generator.emit.ownership import write_outputs

    files, problems = build_outputs(Rules(folder / "rules", "rules"), [], "portable", None, jobs=1)
    if any(p.severity is Severity.ERROR for p in problems) or "map.yml" not in files:
        return [], "output/ is not built (the variant has errors): run triplea-forge build, then commit output/"
    written, _ = write_outputs(folder / "output", files, None, "output")
    return [folder / "output" / rel for rel in written], None


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


def next_steps(name: str, shown_folder: str | None, base: str, rules: str | None = None) -> str:
    """The commands to run next, as they work when pasted: a mod repository installs its own pin
    into its own venv and gets its base map; a variant here is built by the triplea-forge running
    now (`rules`: the rules folder it was made in, when not the default)."""
    if shown_folder is not None:
        return (
            f"cd {shlex.quote(shown_folder)} && python3 -m venv .venv && .venv/bin/pip install -r {PIN_FILE} "
            f"&& .venv/bin/triplea-forge map get {shlex.quote(base_map_of(base))} && .venv/bin/triplea-forge build"
        )
    return f"{program()} build {shlex.quote(name)}" + (f" --rules {shlex.quote(rules)}" if rules else "")


def program() -> str:
    """This very triplea-forge as the user's shell runs it: `triplea-forge` when that is the one on
    PATH, else its script by path (a venv not activated: `.venv/bin/triplea-forge`), else this
    interpreter running the package (no script: a checkout run as `python -m generator`)."""
    script = Path(sys.executable).parent / "triplea-forge"  # where pip puts it beside the venv's python
    if not script.is_file():
        return f"{shlex.quote(sys.executable)} -m generator"
    found = shutil.which("triplea-forge")
    if found is not None and Path(found).resolve() == script.resolve():
        return "triplea-forge"
    try:  # relative when below the working folder: it has a '/', so the shell runs it as a path
        shown = str(script.relative_to(Path.cwd()))
    except ValueError:
        shown = str(script)
    return shlex.quote(shown)
