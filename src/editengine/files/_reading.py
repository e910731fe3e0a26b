"""Reading a file for editing: its bytes, their sha256, and the text, or a typed refusal."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from editengine._errors import (
    BinaryFile,
    FileError,
    FileTooLarge,
    NotAFile,
    PathOutsideWorkspace,
    UnsupportedEncoding,
)

_UTF16_32_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class FileSnapshot:
    """What a file held when it was read; ``exists`` is False for a file yet to be created.

    ``text`` is the UTF-8 decoding of the bytes with any BOM kept as U+FEFF, so that
    writing ``text.encode("utf-8")`` back reproduces the bytes exactly.
    """

    exists: bool
    text: str = ""
    sha256: str | None = None
    size: int = 0
    mode: int | None = None
    data: bytes = field(default=b"", repr=False)

    @property
    def lines(self) -> int:
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)


MISSING = FileSnapshot(exists=False)


def read_snapshot(path: Path, *, display: str, max_bytes: int) -> FileSnapshot:
    """Read ``path`` (already through the workspace guard) or raise a :class:`FileError`.

    The path form of :func:`read_snapshot_at`: the parent folder is opened by path.
    """
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        dir_fd = os.open(path.parent, flags)
    except (FileNotFoundError, NotADirectoryError):
        return MISSING
    except OSError as exc:
        raise _os_error(exc, display) from exc
    try:
        return read_snapshot_at(dir_fd, path.name, display=display, max_bytes=max_bytes)
    finally:
        os.close(dir_fd)


def read_snapshot_at(dir_fd: int, name: str, *, display: str, max_bytes: int) -> FileSnapshot:
    """Read ``name`` in the folder ``dir_fd`` or raise a :class:`FileError`.

    A missing file is not an error here (the caller may be creating it): it returns
    ``MISSING``. Special files are refused from ``stat`` alone, so a FIFO is never opened.
    The guard resolved every link, so a link found here appeared after the check: refused.
    """
    try:
        info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return MISSING
    except OSError as exc:
        raise _os_error(exc, display) from exc
    if stat.S_ISLNK(info.st_mode):
        raise _link_refusal(dir_fd, name, display)
    if not stat.S_ISREG(info.st_mode):
        raise NotAFile(
            f"{display} is {_kind(info.st_mode)}, not a regular file; it cannot be edited.",
            path=display,
        )
    _check_size(info.st_size, display, max_bytes)

    # O_NONBLOCK: if the file were swapped for a FIFO after the stat, opening it must not
    # hang. O_NOFOLLOW: a link appearing now is refused.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags, dir_fd=dir_fd)
    except FileNotFoundError:
        return MISSING
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link_refusal(dir_fd, name, display) from exc
        raise _os_error(exc, display) from exc
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise NotAFile(
                f"{display} is {_kind(opened.st_mode)}, not a regular file.", path=display
            )
        data = _read_at_most(fd, max_bytes + 1)
    except OSError as exc:
        raise _os_error(exc, display) from exc
    finally:
        os.close(fd)
    _check_size(len(data), display, max_bytes)
    return FileSnapshot(
        exists=True,
        text=decode(data, display=display),
        sha256=sha256_hex(data),
        size=len(data),
        mode=stat.S_IMODE(opened.st_mode),
        data=data,
    )


def _link_refusal(dir_fd: int, name: str, display: str) -> FileError:
    """A link where the guard saw none: a loop (never resolvable) or a swap (refused)."""
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=True)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return NotAFile(
                f"{display} is a symbolic link loop; it cannot be edited.", path=display
            )
    return PathOutsideWorkspace(
        f"Refused {display}: it became a symbolic link after the path was checked; "
        "nothing was read or written.",
        path=display,
        hint="Check what replaced the file, then retry the edit.",
    )


def decode(data: bytes, *, display: str) -> str:
    """UTF-8 text of ``data`` (a BOM stays as U+FEFF), refusing binary and other encodings."""
    for bom, name in _UTF16_32_BOMS:
        if data.startswith(bom):
            raise UnsupportedEncoding(
                f"{display} is encoded as {name}; only UTF-8 files can be edited.",
                path=display,
                hint="Convert the file to UTF-8 first, or edit it with another tool.",
            )
    nul = data.find(b"\x00")
    if nul != -1:
        raise BinaryFile(
            f"{display} looks like a binary file (NUL byte at offset {nul}); "
            "binary files cannot be edited with text search/replace.",
            path=display,
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UnsupportedEncoding(
            f"{display} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}, "
            f"line {line}); only UTF-8 files can be edited.",
            path=display,
            hint="Convert the file to UTF-8 first, or edit it with another tool.",
        ) from exc


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    remaining = limit
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _check_size(size: int, display: str, max_bytes: int) -> None:
    if size > max_bytes:
        raise FileTooLarge(
            f"{display} is {size:,} bytes, over the {max_bytes:,}-byte limit for editing.",
            path=display,
            hint="Edit a smaller file, or raise max_file_bytes if this is intended.",
        )


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _os_error(exc: OSError, display: str) -> FileError:
    if exc.errno == errno.ELOOP:
        return NotAFile(f"{display} is a symbolic link loop; it cannot be edited.", path=display)
    if exc.errno == errno.EISDIR:
        return NotAFile(f"{display} is a directory, not a file.", path=display)
    reason = exc.strerror or exc.__class__.__name__
    return FileError(f"Could not read {display}: {reason}.", path=display)
