"""The engine scenarios: each proves rules by playing them in the real engine.

A variant's scenarios live beside its YAML, in `rules/<variant>/proofs/`: Java classes that the
harness compiles with its driver (`generator/engine/java/Scenario.java`, run by
`generator/engine/scenario.py`) and `proofs.yaml`, which names the scenarios the classes play,
says what each proves and on which variants' built games the tests play it. The tool's own
scenarios, which play any game, are `ANY_GAME`; a manifest's `plays` puts them, or another
folder's scenarios, on its games too. The proofs folders are those of the variants triplea-forge
ships and of the rules folder in use (`rules/` of the working folder, as the commands read it):
a mod repository's proofs are found as the shipped ones are. `SCENARIOS` is here, below the
stages, because both the engine stage (which runs a scenario) and the spec checks (a ledger proof
naming a scenario that does not exist or is not run on its variant) read it, and checking a spec
never starts the engine.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml

from generator.errors import TripleaForgeError

__all__ = [
    "ANY_GAME", "SCENARIOS", "ProofManifestError", "ScenarioInfo", "manifest_error", "proof_folders", "shipped_rules",
    "use_rules",
]  # fmt: skip

PROOFS = "proofs"  # a variant's proofs folder, beside its YAML
MANIFEST = "proofs.yaml"
RULES = Path("rules")  # the rules folder the commands read unless told another (`--rules`)
# The rules folder a command was told to read (`--rules`), for this process and the processes it
# starts (a build's workers, the sweep's): its variants' proofs are the ones in use.
RULES_ENV = "TRIPLEA_FORGE_RULES"
_MAX_BYTES = 1 << 20  # a manifest is a few kilobytes: anything bigger is not one
# libyaml's safe loader where PyYAML has it: a fifth of the time to read the manifests.
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The tool's own scenarios (generator/engine/java/AnyGameProofs.java): they play any game.
ANY_GAME: dict[str, str] = {
    "turn-steps": (
        "two rounds run without a move: every step the engine runs, for whom, and the bids entered in the options"
    ),
    "convoy-zones": "an enemy submarine in each sea zone in turn: what each nation loses to it at its income",
}


@dataclass(frozen=True)
class ScenarioInfo:
    """An engine scenario: what it proves and the variants whose built game the tests run it on."""

    description: str
    variants: tuple[str, ...]
    manifest: Path | None = None  # the proofs.yaml that provides it (None: the tool's own)


class ProofManifestError(TripleaForgeError):
    """A proofs folder's manifest (or its equivalences) is missing or wrong: said with its file."""


def manifest_error(path: Path, message: str) -> ProofManifestError:
    """MESSAGE about PATH, named as the other messages name files: from the working folder when inside it."""
    try:
        shown = path.relative_to(Path.cwd().resolve())
    except ValueError:
        shown = path
    return ProofManifestError(f"{shown}: {message}")


@cache
def shipped_rules() -> Path:
    """The variants triplea-forge ships: `paths.base_rules_dir`, which the catalog may not import
    (it sits beside `paths` in the layering), said again."""
    package = Path(__file__).resolve().parents[1]
    packaged = package / "_rules"
    return packaged if packaged.is_dir() else package.parents[0] / "rules"


def proof_folders() -> list[Path]:
    """The proofs folders of the shipped variants, then of the rules folder in use, in name order:
    what the harness compiles, and whose scenarios `SCENARIOS` holds. A variant of the folder in use
    with proofs of its own (a copy of a shipped one) replaces the shipped variant's, as its YAML does."""
    return _with_in_use(_listed(shipped_rules()))


def use_rules(folder: Path) -> None:
    """Make FOLDER the rules folder in use (a command's `--rules`): its variants' proofs are compiled
    and listed beside the shipped ones, here and in every process this one starts."""
    os.environ[RULES_ENV] = os.path.realpath(folder)


def _with_in_use(shipped: Sequence[Path]) -> list[Path]:
    in_use = _in_use(os.getcwd(), os.environ.get(RULES_ENV, ""))
    if in_use == shipped_rules():
        return list(shipped)
    own = _listed(in_use)
    mine = {folder.parent.name for folder in own}
    return [*(folder for folder in shipped if folder.parent.name not in mine), *own]


def _listed(rules: Path) -> list[Path]:
    # With plain os calls: SCENARIOS lists the folder in use at every look-up (a check looks once a proof).
    try:
        names = sorted(entry.name for entry in os.scandir(rules) if entry.is_dir())
    except OSError:  # no rules folder here
        return []
    return [rules / name / PROOFS for name in names if os.path.isdir(os.path.join(rules, name, PROOFS))]


@cache
def _shipped() -> tuple[Path, ...]:
    """The shipped variants' proofs folders, listed once a process for SCENARIOS: they are the
    package's (`proof_folders`, for the harness's compile, lists them again)."""
    return tuple(_listed(shipped_rules()))


@lru_cache(maxsize=64)
def _in_use(cwd: str, told: str) -> Path:
    return Path(told) if told else Path(os.path.realpath(os.path.join(cwd, RULES)))


class _Scenarios(Mapping[str, ScenarioInfo]):
    """Every scenario of the proofs in use, by name: read from the manifests when first asked for,
    and again when the working folder, its proofs folders or a manifest changed (a shipped variant's
    proofs folder made while the process runs is seen by the next one)."""

    def _now(self) -> dict[str, ScenarioInfo]:
        folders = _with_in_use(_shipped())
        return _read(tuple(_stamp(os.path.join(folder, MANIFEST)) for folder in folders))

    def __getitem__(self, name: str) -> ScenarioInfo:
        return self._now()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())


SCENARIOS: Mapping[str, ScenarioInfo] = _Scenarios()


def _stamp(path: str) -> tuple[str, int, int]:
    """The manifest PATH with its modification time and size (-1, -1 when it is missing)."""
    try:
        stat = os.stat(path)
    except OSError:
        return path, -1, -1
    return path, stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=8)
def _read(manifests: tuple[tuple[str, int, int], ...]) -> dict[str, ScenarioInfo]:
    """The scenarios the MANIFESTS provide (the tool's own first), each listed on the games its
    manifest names and on those every manifest's `plays` adds."""
    games: dict[str, list[str]] = {name: [] for name in ANY_GAME}
    found: dict[str, tuple[str, Path | None]] = {name: (text, None) for name, text in ANY_GAME.items()}
    plays: list[tuple[Path, str, list[str]]] = []
    for file, _, size in manifests:
        path = Path(file)
        if size < 0:
            raise manifest_error(path.parent, f"holds no {MANIFEST}: name there the scenarios its classes play")
        manifest = _load(path)
        default = _names(manifest.get("games", []), path, "games")
        for key, entry in _mapping(manifest.get("scenarios", {}), path, "scenarios").items():
            for name, proves in _expand(str(key), _mapping(entry, path, f"scenarios.{key}"), path):
                if name in found:
                    other = found[name][1] or "the tool itself"
                    raise manifest_error(path, f"scenario '{name}' is provided by {other} too")
                found[name] = (proves, path)
                games[name] = _names(entry.get("games", default), path, f"scenarios.{key}.games")
        for name, on in _mapping(manifest.get("plays", {}), path, "plays").items():
            plays.append((path, str(name), _names(on, path, f"plays.{name}")))
    for path, name, on in plays:
        if name not in found:
            raise manifest_error(path, f"plays.{name}: no proofs folder in use provides a scenario '{name}'")
        games[name] += [game for game in on if game not in games[name]]
    return {name: ScenarioInfo(proves, tuple(games[name]), where) for name, (proves, where) in found.items()}


_KEYS = {"games", "scenarios", "plays"}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_ENTRY_KEYS = {"proves", "games", "each"}


def _load(path: Path) -> dict[str, Any]:
    if not path.is_file() or path.stat().st_size > _MAX_BYTES:
        raise manifest_error(path, f"not a regular file of at most {_MAX_BYTES} bytes")
    try:
        tree = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise manifest_error(path, f"not readable YAML: {exc}") from exc
    manifest = _mapping(tree, path, "the manifest")
    unknown = sorted(str(k) for k in manifest if k not in _KEYS)
    if unknown:
        raise manifest_error(path, f"unknown key '{unknown[0]}' (known: {', '.join(sorted(_KEYS))})")
    return manifest


def _expand(key: str, entry: dict[str, Any], path: Path) -> Iterator[tuple[str, str]]:
    """The (name, what it proves) of a scenario entry: one, or one per `each` item when its name
    holds `{}` (declare-{} with each: [Winter, Railway] is declare-Winter and declare-Railway)."""
    unknown = sorted(str(k) for k in entry if k not in _ENTRY_KEYS)
    if unknown:
        raise manifest_error(path, f"scenarios.{key}: unknown key '{unknown[0]}' (known: proves, games, each)")
    proves = entry.get("proves")
    if not isinstance(proves, str) or not proves.strip():
        raise manifest_error(path, f"scenarios.{key}: say what it proves (`proves: text`)")
    if ("{}" in key) != ("each" in entry):
        raise manifest_error(path, f"scenarios.{key}: a name with {{}} takes `each`, and only such a name")
    items = _names(entry["each"], path, f"scenarios.{key}.each") if "each" in entry else [""]
    for item in items:
        name = key.replace("{}", item)
        # A name is a word of the driver's command line and of its batch's lines.
        if not _NAME.fullmatch(name):
            raise manifest_error(path, f"scenarios.{key}: '{name}' is not a name (letters, digits, '.', '_', '-')")
        yield name, proves.replace("{}", item)


def _mapping(value: Any, path: Path, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise manifest_error(path, f"{where}: expected a mapping")
    return value


def _names(value: Any, path: Path, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise manifest_error(path, f"{where}: expected a list of names")
    return list(value)
