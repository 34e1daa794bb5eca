"""Where the package's own files are, and the rules every path we read or write from input obeys.

A name that becomes a path (a variant, a map, a `map_files` entry, `--name`) must be a plain
name; a file we read from the user must be a regular file of bounded size (a FIFO would hang a
build, `/dev/zero` would fill the memory); a file we write must stay inside its output folder
and be a regular file or nothing yet (never a FIFO or a device), on a way of folders.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from generator.errors import TripleaForgeError

# Letters, digits, '.', '_' and '-'; starting with a letter or digit; no '--' (it ends an XML
# comment, where variant names are written). Safe in a path, a URL, a shell word and map.yml.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._]|-(?!-))*")


SPEC_SUFFIXES = (".yaml", ".yml")
# The engine every command reads (its grammar of a game XML inside it is what `build` checks
# against): the jar TRIPLEA_JAR names, else Debian's package `triplea`.
JAR_ENV = "TRIPLEA_JAR"
DEBIAN_JAR = Path("/usr/share/games/triplea/bin/triplea.jar")
DTD_IN_JAR = "games/strategy/engine/xml/game.dtd"


class UnreadableFile(TripleaForgeError):
    """A file we refuse or fail to read, with the reason in words."""


class UnwritableFile(TripleaForgeError):
    """A file we refuse or fail to write, with the reason in words."""


def display_path(path: Path) -> str:
    """A path as messages show it: relative to the working folder when inside it, else as given."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def engine_jar() -> Path:
    """The engine's jar: $TRIPLEA_JAR, else where Debian's package installs it (read at each call:
    a test or a long-running `watch` may set it later)."""
    return Path(os.environ.get(JAR_ENV) or DEBIAN_JAR)


def template_dir() -> Path:
    """`templates/` of a source checkout, or its copy inside an installed wheel."""
    packaged = Path(__file__).parent / "_templates"
    return packaged if packaged.is_dir() else Path(__file__).parents[1] / "templates"


def base_rules_dir() -> Path:
    """The variants triplea-forge ships (`rules/` of a checkout, or its copy in a wheel)."""
    packaged = Path(__file__).parent / "_rules"
    return packaged if packaged.is_dir() else Path(__file__).parents[1] / "rules"


def cache_dir(*parts: str) -> Path:
    """`${XDG_CACHE_HOME:-~/.cache}/triplea-forge/<parts>`: every cache of the tool lives here."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "triplea-forge", *parts)


def spec_files(folder: Path) -> list[Path]:
    """A variant's spec files: `*.yaml` and `*.yml` directly in its folder, in name order."""
    return sorted(p for p in folder.glob("*.y*ml") if p.suffix in SPEC_SUFFIXES and not p.name.startswith("."))


def variant_folders(rules_dir: Path) -> list[Path]:
    """Sub-folders of the rules folder that hold spec files (symlinked ones too), in name order."""
    if not rules_dir.is_dir():
        return []
    return sorted(p for p in rules_dir.iterdir() if not p.name.startswith(".") and p.is_dir() and spec_files(p))


def plain_name_problem(name: str, what: str) -> str | None:
    """Why `name` cannot be used as a file or folder name, or None when it can."""
    if _PLAIN_NAME.fullmatch(name) and len(name) <= 100:
        return None
    shown = repr(name) if len(name) <= 60 else repr(name[:60]) + "..."
    return (
        f"{what} {shown} is not a plain name: use letters, digits, '.', '_' and '-' "
        "(starting with a letter or digit, no '--', at most 100 characters)"
    )


def path_component_problem(name: str, what: str) -> str | None:
    """Why `name` cannot be one folder or file name (spaces are fine), or None when it can."""
    if not name or len(name) > 100:
        return f"{what} must have 1 to 100 characters"
    if name.startswith(".") or "/" in name or "\\" in name or any(ord(c) < 32 for c in name):
        return f"{what} {name!r} cannot be a folder name: no '/', '\\' or control characters, no '.' at the start"
    return None


def read_regular_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of `path` if it is a regular file of at most `max_bytes`; else UnreadableFile.

    Opened without blocking, so a FIFO is refused instead of waiting for a writer forever, and
    read with a cap, so a device or a file that grows while read cannot exhaust the memory.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UnreadableFile(f"cannot read file: {exc.strerror or exc}") from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
            raise UnreadableFile(f"not a regular file ({kind})")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:
            raise UnreadableFile(f"file is larger than {max_bytes} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(f"cannot read file: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` (after following `..` and symlinks) lies inside `folder`."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def file_kind(mode: int) -> str:
    """What a file of this `st_mode` is, in words: 'a folder', 'a FIFO', 'a file'..."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    return "a file" if stat.S_ISREG(mode) else "a device or socket"


def output_folder_problem(folder: Path) -> str | None:
    """Why files cannot be written into `folder` (made if missing), in words that follow
    "cannot write <folder>: ", or None when they can.

    Each part of the way must be a folder or not exist yet: a file on the way, a symbolic link
    to nowhere or a loop of them would fail the first write. (Permissions are left to the write,
    which reports them: root ignores them.)
    """
    for candidate in (folder, *folder.parents):
        name = "it" if candidate == folder else str(candidate)
        try:
            mode = candidate.stat().st_mode
        except NotADirectoryError:
            continue  # a file further up: found below
        except FileNotFoundError:
            if candidate.is_symlink():
                return f"{name} is a symbolic link to {os.readlink(candidate)}, which does not exist"
            continue
        except OSError as exc:
            if candidate.is_symlink():
                return f"{name} is a symbolic link that leads nowhere ({exc.strerror or exc})"
            return f"{name}: {exc.strerror or exc}"
        if stat.S_ISDIR(mode):
            return None
        return f"{name} is {file_kind(mode)}, not a folder"
    return None


def output_file_problem(path: Path) -> str | None:
    """Why `path` cannot be a file we write, in words that follow "cannot write <path>: ", or None.

    It must not exist yet or be a regular file. Outputs, like inputs, are never FIFOs or devices:
    a FIFO would block the write until a reader comes (forever), a device would be written into
    or, as root, replaced.
    """
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        if path.is_symlink():
            return None  # a link to a file yet to be made: the write makes it
        return output_folder_problem(path.parent) if path.parent != path else None
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISREG(mode):
        return None
    return f"it is {file_kind(mode)}, not a file"


def open_output(path: Path) -> BinaryIO:
    """`path` opened to be written from the start; UnwritableFile ("cannot write ...") when it is
    no file we may write.

    Opened without blocking, so a FIFO that appears between the check and the open is refused
    (no reader: ENXIO; a reader: not a regular file) rather than waited on.
    """
    problem = output_file_problem(path)
    if problem:
        raise UnwritableFile(f"cannot write {path}: {problem}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        reason = "it is a FIFO, not a file" if exc.errno == errno.ENXIO else exc.strerror or str(exc)
        raise UnwritableFile(f"cannot write {path}: {reason}") from exc
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise UnwritableFile(f"cannot write {path}: it is {file_kind(mode)}, not a file")
    os.set_blocking(fd, True)
    os.ftruncate(fd, 0)
    return os.fdopen(fd, "wb")


def output_in_rules_problem(out: Path, rules_dir: Path, option: str) -> str | None:
    """Why an output folder may not be `out` (None when it may): where specs are read (spec_reader).

    Whatever a command writes there is read back as specs by every later command (a package's
    map.yml in a folder of rules/ is a spec file that breaks every build).
    """
    reader = spec_reader(out, rules_dir)
    if reader is None:
        return None
    where = f"the rules folder {rules_dir}/" if reader == rules_dir else f"{reader}/"
    return (
        f"{option} {out}: it is inside {where}, where what is written is read as specs "
        "by every later build; give a folder outside it"
    )


def spec_reader(output: Path, rules_dir: Path) -> Path | None:
    """The folder whose specs a file written into `output` could become, or None when none.

    Whatever lies under a rules folder may be read as a spec (a map.yml written into rules/x/
    makes x a variant), so no command may write there: the rules folder, the shipped variants,
    and each variant folder, wherever a symlinked one really is.
    """
    for root in (rules_dir, base_rules_dir()):
        for folder in (root, *variant_folders(root)):
            if inside(output, folder):
                return folder
    return None
