"""Zips from elsewhere (a download, a base map, a previous release, a map in the maps folder), read within bounds.

`zipfile` reads a zip's whole central directory into memory and makes an object of every entry
before anyone can count them: a 53 MB zip listing a million entries takes ~520 MB, one at the
download cap ~20 GB. So the end record is read first and the directory counted record by record
from the file (a 46-byte header at a time, nothing kept) against the caller's cap, and its size
capped, before `zipfile` is given the file. An encrypted entry, a compression method `zipfile`
cannot read and data that does not inflate are refused in words (ZipRefused), never raised as
whatever `zipfile` or `zlib` raise; an entry is read against a byte cap, whatever size the
directory declares for it.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from generator.errors import TripleaForgeError

MAX_DIRECTORY = 64 << 20  # bytes of central directory: 50,000 entries with names of over a kilobyte
_CHUNK = 1 << 16
_END = b"PK\x05\x06"
_END_SIZE = 22
_LOCATOR64 = b"PK\x06\x07"
_LOCATOR64_SIZE = 20
_END64 = b"PK\x06\x06"
_END64_SIZE = 56
_CENTRAL = b"PK\x01\x02"
_CENTRAL_SIZE = 46
_ENCRYPTED = 0x1
_UTF8 = 0x800
# What zipfile and zlib raise on a zip that is not what it says (a method it lacks, a password it
# has not, data cut short or not deflate at all, a name that is not in its encoding).
_UNREADABLE = (
    zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, NotImplementedError, RuntimeError,
    zlib.error, struct.error,
)  # fmt: skip


class ZipRefused(TripleaForgeError):
    """Why a zip (or one entry of it) is not read, in words."""


class NotAZip(ZipRefused):
    """The file is no zip, or a broken one: "not a readable zip (why)"."""


def _directory(fp: BinaryIO) -> tuple[int, int]:
    """(start, size) of the central directory, found as zipfile finds it (its _EndRecData)."""
    fp.seek(0, 2)
    size = fp.tell()
    if size < _END_SIZE:
        raise NotAZip("not a readable zip (File is not a zip file)")
    fp.seek(size - _END_SIZE)
    last = fp.read(_END_SIZE)
    if last[:4] == _END and last[-2:] == b"\0\0":  # no comment: the last 22 bytes, as zipfile looks first
        end, record = size - _END_SIZE, last
    else:  # else a comment of up to 64 KiB follows the end record
        start = max(size - 0xFFFF - _END_SIZE, 0)
        fp.seek(start)
        tail = fp.read()
        at = tail.rfind(_END)
        if at < 0 or len(tail) - at < _END_SIZE:
            raise NotAZip("not a readable zip (File is not a zip file)")
        end, record = start + at, tail[at : at + _END_SIZE]
    # zipfile takes the directory to end where the end records begin (a zip may follow other
    # data, so its recorded offset is not where it is): its size is all that is needed.
    dir_size = struct.unpack("<L", record[12:16])[0]
    place = end
    if end >= _LOCATOR64_SIZE + _END64_SIZE:
        fp.seek(end - _LOCATOR64_SIZE)
        if fp.read(4) == _LOCATOR64:
            fp.seek(end - _LOCATOR64_SIZE - _END64_SIZE)
            record64 = fp.read(_END64_SIZE)
            if record64[:4] == _END64:
                dir_size = struct.unpack("<Q", record64[40:48])[0]
                place = end - _LOCATOR64_SIZE - _END64_SIZE
    if dir_size > MAX_DIRECTORY:
        raise ZipRefused(f"the zip's directory is {dir_size} bytes, more than any map's ({MAX_DIRECTORY}); refusing it")
    if place - dir_size < 0:
        raise NotAZip("not a readable zip (Bad offset for central directory)")
    return place - dir_size, dir_size


def _count(fp: BinaryIO, start: int, size: int, max_entries: int) -> None:
    """Walk the directory's records without keeping them: their number against the cap, and no
    entry encrypted."""
    fp.seek(start)
    done = count = 0
    while done < size:
        header = fp.read(_CENTRAL_SIZE)
        if len(header) != _CENTRAL_SIZE or header[:4] != _CENTRAL:
            raise NotAZip("not a readable zip (Bad magic number for central directory)")
        count += 1
        if count > max_entries:
            raise ZipRefused(f"the zip holds more than {max_entries} entries, more than any map; refusing it")
        flags = struct.unpack("<H", header[8:10])[0]
        name_size, extra_size, comment_size = struct.unpack("<3H", header[28:34])
        if flags & _ENCRYPTED:
            raw = fp.read(name_size)
            name = raw.decode("utf-8" if flags & _UTF8 else "cp437", "replace")
            raise ZipRefused(f"zip entry {name!r} is encrypted, which no map is; refusing the zip")
        fp.seek(name_size + extra_size + comment_size, 1)
        done += _CENTRAL_SIZE + name_size + extra_size + comment_size


def open_zip(path: Path, max_entries: int) -> zipfile.ZipFile:
    """`path` opened as a zip once its directory is known to list at most `max_entries` entries in
    at most MAX_DIRECTORY bytes, none encrypted; ZipRefused otherwise."""
    try:
        with open(path, "rb") as fp:
            start, size = _directory(fp)
            _count(fp, start, size, max_entries)
        return zipfile.ZipFile(path)
    except ZipRefused:
        raise
    except _UNREADABLE as exc:
        raise NotAZip(f"not a readable zip ({exc})") from exc


def read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, max_bytes: int) -> bytes:
    """The bytes of one entry, at most `max_bytes` of them (the directory's sizes may lie)."""
    chunks: list[bytes] = []
    copy_entry(archive, info, chunks.append, max_bytes)
    return b"".join(chunks)


def copy_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, put: Callable[[bytes], object], max_bytes: int) -> int:
    """One entry given chunk by chunk to `put` (a list's append, a file's write); the bytes it holds.

    ZipRefused when it holds more than `max_bytes` or cannot be read.
    """
    done = 0
    try:
        with archive.open(info) as source:
            while chunk := source.read(_CHUNK):
                done += len(chunk)
                if done > max_bytes:
                    raise ZipRefused(f"zip entry {info.filename!r} unpacks to more than {max_bytes} bytes")
                put(chunk)
    except ZipRefused:
        raise
    except _UNREADABLE as exc:
        raise ZipRefused(f"zip entry {info.filename!r} cannot be read ({exc})") from exc
    return done


def entry_parts(name: str) -> list[str] | None:
    """An entry's path parts, or None when it would leave the folder it is unpacked into (an
    absolute name, a drive, '..', a backslash, a control character)."""
    if name.startswith("/") or "\\" in name or (len(name) > 1 and name[1] == ":") or not name.isprintable():
        return None
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    return None if ".." in parts else parts
