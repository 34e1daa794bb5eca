"""Stage 6, write: put generated files in place so that a set of them switches together.

Everything is first written into a staging folder inside the output folder (so the final renames
never cross a filesystem), then a journal naming every move is written, then the moves are made.
A run killed before the journal leaves only a staging folder, which the next run removes; a run
killed after it is finished by the next run (`settle`) before anything reads the folder. One
lock per output folder keeps two runs from mixing their files. Unchanged files are not touched,
which keeps no-op rebuilds fast. Every name starting with `.forge` belongs to this mechanism.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from generator.diagnostics import Diagnostic, ForgeError
from generator.paths import inside, output_file_problem

JOURNAL = ".forge-journal.json"
STAGE_PREFIX = ".forge-stage-"
_TRASH = "trash"  # inside the staging folder: what a move replaced


def _check_rel(out_dir: Path, rel: str) -> None:
    parts = PurePosixPath(rel).parts
    if not rel or PurePosixPath(rel).is_absolute() or ".." in parts or "\\" in rel or parts[0].startswith(".forge"):
        raise ForgeError([Diagnostic(f"refusing to write '{rel}': it is not a plain path inside {out_dir}")])


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    # The folder itself is locked (Linux locks directories too): no lock file is left behind.
    fd = os.open(out_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _move(out_dir: Path, stage: Path, staged: str, final: str) -> None:
    """One move of a journal; does nothing when it was made already (so a rerun is harmless)."""
    source = stage / staged
    if not source.exists():
        return
    target = out_dir / final
    target.parent.mkdir(parents=True, exist_ok=True)
    if not inside(target.parent, out_dir):  # a symlinked folder inside the output folder
        raise ForgeError([Diagnostic(f"refusing to write '{final}': {target.parent} leads outside {out_dir}")])
    if source.is_dir() and target.exists():
        aside = stage / _TRASH / final
        aside.parent.mkdir(parents=True, exist_ok=True)
        os.replace(target, aside)
    os.replace(source, target)


def _finish(out_dir: Path) -> None:
    """Complete an interrupted write and remove staging folders; the caller holds the lock."""
    journal = out_dir / JOURNAL
    if journal.is_file():
        try:
            record = json.loads(journal.read_text(encoding="utf-8"))
            stage = out_dir / record["stage"]
            for staged, final in record["moves"]:
                _move(out_dir, stage, staged, final)
            for rel in record["remove"]:
                (out_dir / rel).unlink(missing_ok=True)
        except (ValueError, KeyError, TypeError):
            pass  # a journal cut short is never acted on: it is written whole or not at all
        journal.unlink()
    for leftover in out_dir.glob(STAGE_PREFIX + "*"):
        shutil.rmtree(leftover, ignore_errors=True)


def settle(out_dir: Path) -> None:
    """Finish what an interrupted run left in `out_dir`; call before reading it."""
    if (out_dir / JOURNAL).exists() or any(out_dir.glob(STAGE_PREFIX + "*")):
        with _locked(out_dir):
            _finish(out_dir)


class Transaction:
    """Files and folders staged for one switch: `file`/`folder` give where to put them."""

    def __init__(self, out_dir: Path, stage: Path) -> None:
        self.out_dir = out_dir
        self.stage = stage
        self.moves: list[tuple[str, str]] = []
        self.removals: list[str] = []

    def _staged(self, rel: str) -> Path:
        _check_rel(self.out_dir, rel)
        staged = f"new/{rel}"
        self.moves.append((staged, rel))
        path = self.stage / staged
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def file(self, rel: str, content: bytes) -> None:
        self._staged(rel).write_bytes(content)

    def path(self, rel: str) -> Path:
        """Where to build the file or folder that becomes `out_dir/rel` (a whole folder is swapped)."""
        return self._staged(rel)

    def remove(self, rel: str) -> None:
        _check_rel(self.out_dir, rel)
        self.removals.append(rel)

    def commit(self) -> None:
        record = {"stage": self.stage.name, "moves": self.moves, "remove": self.removals}
        temporary = self.stage / "journal"
        temporary.write_text(json.dumps(record), encoding="utf-8")
        os.replace(temporary, self.out_dir / JOURNAL)  # from here on, the switch is decided
        _finish(self.out_dir)


@contextmanager
def transaction(out_dir: Path) -> Iterator[Transaction]:
    """Stage writes under `out_dir`; they all take effect when the block ends without an error.

    A folder we may not write (read-only, not a folder) is an error in words, not a traceback.
    """
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with _locked(out_dir):
            _finish(out_dir)
            stage = Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=out_dir))
            try:
                tx = Transaction(out_dir, stage)
                yield tx
                if tx.moves or tx.removals:
                    tx.commit()
            finally:
                shutil.rmtree(stage, ignore_errors=True)
    except OSError as exc:
        where = exc.filename or out_dir
        raise ForgeError([Diagnostic(f"cannot write {where}: {exc.strerror or exc}")]) from exc


def write_file(path: Path, content: bytes) -> bool:
    """One file replaced atomically (written beside it, then renamed); False when unchanged.

    What is there must be a regular file or nothing: a FIFO or a device is refused, not replaced.
    """
    problem = output_file_problem(path)
    if problem:
        raise ForgeError([Diagnostic(f"cannot write {path}: {problem}")])
    if path.is_file() and path.read_bytes() == content:
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".forge-", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(content)
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)
    except OSError as exc:  # named as asked, not as our temporary file beside it
        raise ForgeError([Diagnostic(f"cannot write {path}: {exc.strerror or exc}")]) from exc
    return True


def stale_files(out_dir: Path, files: Mapping[str, bytes]) -> list[str]:
    """Relative paths whose content on disk differs from `files` (missing counts as stale)."""
    stale = []
    for rel, content in sorted(files.items()):
        path = out_dir / rel
        if not path.is_file() or path.read_bytes() != content:
            stale.append(rel)
    return stale


def write_files(out_dir: Path, files: Mapping[str, bytes], remove: list[str] | None = None) -> list[str]:
    """Write the stale ones of `files` under `out_dir` and delete `remove`, all in one switch.

    Returns what was written.
    """
    for rel in files:
        _check_rel(out_dir, rel)
    if out_dir.is_dir():
        settle(out_dir)
    changed = stale_files(out_dir, files)
    leftovers = [rel for rel in remove or [] if (out_dir / rel).exists()]
    if not changed and not leftovers:
        return []
    with transaction(out_dir) as tx:
        for rel in changed:
            tx.file(rel, files[rel])
        for rel in leftovers:
            tx.remove(rel)
    return changed


def orphans(out_dir: Path, files: Mapping[str, bytes], folder: str = "games") -> list[str]:
    """Generated-looking files under `out_dir/folder` that no variant makes any more."""
    base = out_dir / folder
    if not base.is_dir():
        return []
    found = (p.relative_to(out_dir).as_posix() for p in base.iterdir() if p.is_file())
    return sorted(rel for rel in found if rel not in files and rel.endswith((".xml", ".notes.html")))
