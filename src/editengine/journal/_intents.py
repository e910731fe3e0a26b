"""Intents: the writes of one group (a patch, the undo of a patch) announced ahead.

Before the first file of a group is replaced, an intent file (``intent-<group>.jsonl`` in
the journal folder) holds every entry the writes will append, with the full reverse of each
(whatever its size). The writer holds an advisory lock on it while it works. On success the
entries are appended in one write and the intent removed; a writer killed half-way leaves
the intent, unlocked, and the next engine (or undo) finds it and rolls the files back (or,
if every file already holds its new bytes, journals them). These functions run with the
journal's lock held (see :class:`~editengine.journal.Journal`).
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from editengine._errors import JournalCorrupt, JournalError
from editengine.journal._records import JournalEntry, decode, encode
from editengine.journal._store import sync_directory

_INTENT_PREFIX = "intent-"
_INTENT_SUFFIX = ".jsonl"


@dataclass
class Intent:
    """The writes of one group announced ahead (see the module docstring).

    ``entries`` are the entries to append once every write landed (their ``seq`` is given
    then); ``file`` is the intent file; ``handle`` the open descriptor holding its lock
    while the writer works (``-1`` when none is held).
    """

    group: str
    entries: tuple[JournalEntry, ...]
    file: Path
    handle: int = -1

    def release(self) -> None:
        """Let go of the intent file's lock (it stays on disk)."""
        if self.handle >= 0:
            with contextlib.suppress(OSError):
                os.close(self.handle)
            self.handle = -1


def write_intent(directory: Path, group: str, entries: Sequence[JournalEntry]) -> Intent:
    """Write the intent of ``group`` (durably) and hold its lock."""
    body = b"".join(encode(entry) for entry in entries)
    file = directory / f"{_INTENT_PREFIX}{group}{_INTENT_SUFFIX}"
    temp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            _write_all(fd, body)
            os.fsync(fd)
        finally:
            os.close(fd)
        handle = os.open(temp, os.O_RDONLY)
        _try_lock(handle)
        os.replace(temp, file)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise JournalError(
            f"Could not write the intent of a multi-file write to {directory}: "
            f"{error.strerror or error}."
        ) from error
    sync_directory(directory)
    return Intent(group=group, entries=tuple(entries), file=file, handle=handle)


def drop_intent(directory: Path, intent: Intent) -> None:
    """Remove the intent file (its entries were journaled, or its writes taken back)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(intent.file)
    sync_directory(directory)


def read_pending(directory: Path) -> list[Intent]:
    """The intents in ``directory`` whose writer is gone, each holding its lock now."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    found: list[Intent] = []
    for name in names:
        if not (name.startswith(_INTENT_PREFIX) and name.endswith(_INTENT_SUFFIX)):
            continue
        group = name[len(_INTENT_PREFIX) : -len(_INTENT_SUFFIX)]
        file = directory / name
        try:
            handle = os.open(file, os.O_RDONLY)
        except OSError:
            continue  # dropped meanwhile
        try:
            if not _try_lock(handle):
                os.close(handle)
                continue  # its writer is still at work
            data = b""
            while chunk := os.read(handle, 1 << 20):
                data += chunk
        except OSError:
            os.close(handle)
            continue
        intent = Intent(group=group, entries=(), file=file, handle=handle)
        try:
            lines = data.split(b"\n")
            intent.entries = tuple(
                decode(line, file, number) for number, line in enumerate(lines[:-1], 1)
            )
        except JournalCorrupt:
            intent.release()
            raise
        found.append(intent)
    return found


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "short write")
        view = view[written:]


def _try_lock(fd: int) -> bool:
    """An exclusive advisory lock on ``fd`` without waiting; ``False`` when another open
    file holds it (in this process or another). Where there is no ``flock`` every intent
    counts as free."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
