"""Stage 6, write: put generated files in place so that a set of them switches together.

Everything is first written into a staging folder inside the output folder (so the final renames
never cross a filesystem), then a journal naming every move is written, then the moves are made.
Before the journal, every move is checked (its folders are folders, no folder stands where a file
goes), so a switch that cannot be made is refused with the old files untouched. Each move puts
what it replaces aside in the staging folder first: a move the system refuses half-way (a full
disk) is undone, the journal dropped, and the error names the output file, not the staging path.
A run killed before the journal leaves only a staging folder, which the next run removes; a run
killed after it is finished by the next run (`settle`) before anything reads the folder. One
lock per output folder keeps two runs from mixing their files: what is stale is decided under it.
Unchanged files are not touched, which keeps no-op rebuilds fast. Every name starting with
`.forge` belongs to this mechanism.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path, PurePosixPath

from generator.diagnostics import Diagnostic, ForgeError
from generator.paths import UnreadableFile, inside, output_file_problem, read_regular_file

JOURNAL = ".forge-journal.json"
STAGE_PREFIX = ".forge-stage-"
_TRASH = "trash"  # inside the staging folder: what a move replaced
_MAX_JOURNAL = 64 << 20  # a journal names each output file twice: a million of them


def _plain_rel(rel: object) -> bool:
    """Whether `rel` is a path inside a folder, made of plain parts, none of them ours (`.forge*`)."""
    if not isinstance(rel, str) or not rel or not rel.isprintable() or "\\" in rel:
        return False
    path = PurePosixPath(rel)  # written as it reads: no '.', '//' or '/' at the end to name a folder
    if path.as_posix() != rel or path.is_absolute() or ".." in path.parts or not path.parts:
        return False
    return not path.parts[0].startswith(".forge")


def _check_rel(out_dir: Path, rel: str) -> None:
    if not _plain_rel(rel):
        raise ForgeError([Diagnostic(f"refusing to write '{rel}': it is not a plain path inside {out_dir}")])


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    # The folder itself is locked (Linux locks directories too): no lock file is left behind.
    fd = os.open(out_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _move(out_dir: Path, stage: Path, staged: str, final: str) -> bool:
    """One move of a journal; False when it was made already (so a rerun is harmless).

    What the move replaces is put aside in the staging folder first, so a switch that fails
    half-way can be undone; it goes when the staging folder does.
    """
    source = stage / staged
    if not _exists(source) or not inside(source.parent, stage):  # a link in the stage leads elsewhere
        return False
    target = out_dir / final
    # Checked before a folder is made: a symlinked folder inside the output folder leads outside it.
    if not inside(target.parent, out_dir):
        raise ForgeError([Diagnostic(f"refusing to write '{final}': {target.parent} leads outside {out_dir}")])
    target.parent.mkdir(parents=True, exist_ok=True)
    if _exists(target):
        aside = stage / _TRASH / final
        aside.parent.mkdir(parents=True, exist_ok=True)
        os.replace(target, aside)
    os.replace(source, target)
    return True


def _put_aside(out_dir: Path, stage: Path, rel: str) -> bool:
    """One removal of a journal: the file goes into the staging folder (removed with it)."""
    target = out_dir / rel
    if not _exists(target) or not inside(target.parent, out_dir):  # never through a link out of the folder
        return False
    aside = stage / _TRASH / rel
    aside.parent.mkdir(parents=True, exist_ok=True)
    os.replace(target, aside)
    return True


def _journal(out_dir: Path) -> tuple[Path, list[tuple[str, str]], list[str]] | None:
    """The stage, moves and removals of the journal in `out_dir`, or None when it is not one a run
    of ours wrote: cut short, too big, or naming any path but plain ones inside the output folder
    (a planted `"remove": ["../notes.txt"]` would delete outside it). Such a journal is never
    acted on in part: a run of ours writes every entry it checked, or none."""
    try:
        record = json.loads(read_regular_file(out_dir / JOURNAL, _MAX_JOURNAL))
    except (UnreadableFile, ValueError):
        return None
    if not isinstance(record, dict) or not isinstance(name := record.get("stage"), str):
        return None
    moves, removals = record.get("moves"), record.get("remove")
    if not isinstance(moves, list) or not isinstance(removals, list):
        return None
    stage = out_dir / name
    if "/" in name or not name.startswith(STAGE_PREFIX) or not name.isprintable() or stage.is_symlink():
        return None
    pairs = [tuple(move) for move in moves if isinstance(move, list) and len(move) == 2]
    if len(pairs) != len(moves) or not all(_plain_rel(final) and staged == f"new/{final}" for staged, final in pairs):
        return None
    if not all(_plain_rel(rel) for rel in removals):
        return None
    return stage, [(str(staged), str(final)) for staged, final in pairs], [str(rel) for rel in removals]


def _finish(out_dir: Path) -> None:
    """Complete an interrupted write and remove staging folders; the caller holds the lock."""
    journal = out_dir / JOURNAL
    if journal.is_file() or journal.is_symlink():  # a folder of its name stays: the next commit says so
        found = None if journal.is_symlink() else _journal(out_dir)
        if found is not None and found[0].is_dir():  # else undone, never started, or not ours: not acted on
            stage, moves, removals = found
            for staged, final in moves:
                with suppress(ForgeError):  # a move through a link out of the folder is not made
                    _move(out_dir, stage, staged, final)
            for rel in removals:
                _put_aside(out_dir, stage, rel)
        journal.unlink()
    for leftover in out_dir.glob(STAGE_PREFIX + "*"):
        if not leftover.is_symlink():  # a link's target is not ours to remove
            shutil.rmtree(leftover, ignore_errors=True)


def settle(out_dir: Path) -> None:
    """Finish what an interrupted run left in `out_dir`; call before reading it."""
    if (out_dir / JOURNAL).exists() or any(out_dir.glob(STAGE_PREFIX + "*")):
        with _locked(out_dir):
            _finish(out_dir)


class Transaction:
    """Files and folders staged for one switch: `file`/`folder` give where to put them.

    `display` is how messages name the output folder; they name the output file that could not
    be written, never the staging folder (which is ours, not the user's).
    """

    def __init__(self, out_dir: Path, stage: Path, display: str | None = None) -> None:
        self.out_dir = out_dir
        self.stage = stage
        self.display = display if display is not None else str(out_dir)
        self.moves: list[tuple[str, str]] = []
        self.removals: list[str] = []

    def problem(self, rel: str, reason: str) -> ForgeError:
        return ForgeError([Diagnostic(f"cannot write {self.display}/{rel}: {reason}; nothing was changed")])

    def _staged(self, rel: str) -> Path:
        _check_rel(self.out_dir, rel)
        staged = f"new/{rel}"
        self.moves.append((staged, rel))
        path = self.stage / staged
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self.problem(rel, _reason(exc)) from exc
        return path

    def file(self, rel: str, content: bytes) -> None:
        path = self._staged(rel)
        try:
            path.write_bytes(content)
        except OSError as exc:
            raise self.problem(rel, _reason(exc)) from exc

    def path(self, rel: str) -> Path:
        """Where to build the file or folder that becomes `out_dir/rel` (a whole folder is swapped)."""
        return self._staged(rel)

    def remove(self, rel: str) -> None:
        _check_rel(self.out_dir, rel)
        self.removals.append(rel)

    def _prepare(self) -> None:
        """Everything a move needs, checked before the switch is decided: the folders it goes into
        are folders (made now when missing), and no folder stands where a file goes."""
        for staged, final in self.moves:
            target = self.out_dir / final
            for parent in reversed(PurePosixPath(final).parents[:-1]):
                folder = self.out_dir / parent
                if _exists(folder) and not folder.is_dir():
                    raise self.problem(final, f"{self.display}/{parent} is not a folder")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise self.problem(final, _reason(exc)) from exc
            if not inside(target.parent, self.out_dir):
                raise self.problem(final, f"{self.display}/{PurePosixPath(final).parent} leads outside it")
            if target.is_dir() and not target.is_symlink() and not (self.stage / staged).is_dir():
                raise self.problem(final, "a folder stands where the file goes; remove it")
            if not os.access(target.parent, os.W_OK):
                raise self.problem(final, f"{self.display}/{PurePosixPath(final).parent} is read-only")

    def commit(self) -> None:
        self._prepare()
        record = {"stage": self.stage.name, "moves": self.moves, "remove": self.removals}
        temporary = self.stage / "journal"
        journal = self.out_dir / JOURNAL
        try:
            temporary.write_text(json.dumps(record), encoding="utf-8")
            os.replace(temporary, journal)  # from here on, the switch is decided
        except OSError as exc:
            raise ForgeError([Diagnostic(f"cannot write into {self.display}/: {_reason(exc)}")]) from exc
        done: list[tuple[str, str]] = []
        current = ""
        try:
            for staged, final in self.moves:
                current = final
                if _move(self.out_dir, self.stage, staged, final):
                    done.append((staged, final))
            for rel in self.removals:
                current = rel
                if _put_aside(self.out_dir, self.stage, rel):
                    done.append(("", rel))
        except OSError as exc:
            # Not a crash but a refusal (a full disk, a file made immutable): undo what was
            # moved, so the folder holds the old set whole, and drop the journal.
            self._undo(done)
            journal.unlink(missing_ok=True)
            raise self.problem(current, _reason(exc)) from exc
        journal.unlink()

    def _undo(self, done: list[tuple[str, str]]) -> None:
        for staged, final in reversed(done):
            target, aside = self.out_dir / final, self.stage / _TRASH / final
            try:
                if staged:
                    os.replace(target, self.stage / staged)
                if _exists(aside):
                    os.replace(aside, target)
            except OSError:
                continue  # the rest is still put back


@contextmanager
def transaction(out_dir: Path, display: str | None = None) -> Iterator[Transaction]:
    """Stage writes under `out_dir`; they all take effect when the block ends without an error.

    A folder we may not write (read-only, not a folder) is an error in words, not a traceback;
    messages name the output folder as `display` does (default: as given).
    """
    shown = display if display is not None else str(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with _locked(out_dir):
            _finish(out_dir)
            stage = Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=out_dir))
            try:
                tx = Transaction(out_dir, stage, shown)
                yield tx
                if tx.moves or tx.removals:
                    tx.commit()
            finally:
                shutil.rmtree(stage, ignore_errors=True)
    except OSError as exc:
        where = str(exc.filename or "")
        internal = not where or STAGE_PREFIX in where or JOURNAL in where or Path(where) == out_dir
        what = f"into {shown}/" if internal else where
        raise ForgeError([Diagnostic(f"cannot write {what}: {_reason(exc)}")]) from exc


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
    except OSError as exc:  # named as the file asked for: the temporary one beside it is ours
        raise ForgeError([Diagnostic(f"cannot write {path}: {_reason(exc)}")]) from exc
    return True


def stale_files(out_dir: Path, files: Mapping[str, bytes]) -> list[str]:
    """Relative paths whose content on disk differs from `files` (missing counts as stale)."""
    stale = []
    for rel, content in sorted(files.items()):
        path = out_dir / rel
        if not path.is_file() or path.read_bytes() != content:
            stale.append(rel)
    return stale


def switch(
    out_dir: Path, files: Mapping[str, bytes], plan: Callable[[], tuple[list[str], list[str]]], display: str | None
) -> tuple[list[str], list[str]]:
    """One switch of `files` under `out_dir`: `plan()` says which of them to write and which paths
    to remove (or raises ForgeError); returns (written, removed).

    The plan is made again under the output folder's lock, so two runs never mix their files: the
    folder ends with one run's whole set. Asked once before, so a run with nothing to do takes no
    lock and stages nothing.
    """
    for rel in files:
        _check_rel(out_dir, rel)
    if out_dir.is_dir():
        settle(out_dir)
        if plan() == ([], []):
            return [], []
    with transaction(out_dir, display) as tx:
        written, removed = plan()
        for rel in written:
            tx.file(rel, files[rel])
        for rel in removed:
            tx.remove(rel)
    return written, removed


def write_files(
    out_dir: Path, files: Mapping[str, bytes], remove: list[str] | None = None, display: str | None = None
) -> list[str]:
    """Write the stale ones of `files` under `out_dir` and delete `remove`, all in one switch.

    Returns what was written.
    """

    def plan() -> tuple[list[str], list[str]]:
        return stale_files(out_dir, files), [rel for rel in remove or [] if _exists(out_dir / rel)]

    return switch(out_dir, files, plan, display)[0]
