"""The journal's folder on disk: its lock, its segments, appends that survive a crash.

One journal per workspace, kept outside it (like the lock files): a folder named by a
sha256 of the workspace's real path, under a per-user folder in the system temp
directory. Every process that edits the workspace appends to it, under a lock.

Crash safety: an entry is written with a single ``write`` to a file opened for appending,
then fsynced. A line that does not end in a newline is a write interrupted by a crash: it
is ignored when reading and cut off before the next append, so the journal is never left
half-written. Any other damaged line makes a read raise :class:`~editengine.JournalCorrupt`:
a journal that cannot be read whole is never trusted to restore anything.

Bounded size: when the current segment passes ``max_segment_bytes`` it is rotated
(``journal.jsonl`` -> ``journal.1.jsonl`` -> ...), and the oldest of ``segments`` is
dropped.
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import filelock

from editengine._errors import JournalCorrupt, JournalError
from editengine.journal._records import JournalEntry, decode

_CURRENT = "journal.jsonl"


def default_journal_dir() -> Path:
    """A per-user folder under the system temp directory (next to the lock folder)."""
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f"editengine-journal-{user}"


class SegmentStore:
    """The folder of the journal of the workspace at ``root``: locked, segmented appends
    and reads of whole lines (:class:`~editengine.journal.Journal` adds what they mean)."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        directory: str | os.PathLike[str] | None,
        lock_timeout: float,
        max_segment_bytes: int,
        segments: int,
    ) -> None:
        self.root = Path(os.path.realpath(os.fspath(root)))
        base = Path(directory) if directory is not None else default_journal_dir()
        key = hashlib.sha256(os.fsencode(self.root)).hexdigest()[:32]
        self.base = base
        self.directory = base / key
        self.max_segment_bytes = max_segment_bytes
        self.segments = max(1, segments)
        self.lock_timeout = lock_timeout
        self._thread_lock = threading.RLock()

    @property
    def path(self) -> Path:
        """The current segment (the newest entries)."""
        return self.directory / _CURRENT

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with self._thread_lock:
            try:
                self._ensure_directory()
                lock = filelock.FileLock(
                    self.directory / "journal.lock", timeout=self.lock_timeout, thread_local=False
                )
                lock.acquire(poll_interval=0.005)
            except filelock.Timeout as error:
                raise JournalError(
                    f"The undo journal {self.directory} stayed locked for {self.lock_timeout:g} s.",
                    hint="Another process is using it; retry in a moment.",
                ) from error
            except OSError as error:
                raise JournalError(
                    f"Could not open the undo journal {self.directory}: {error.strerror or error}.",
                    hint="Check that the folder is writable and belongs to you.",
                ) from error
            try:
                yield
            finally:
                lock.release()

    def _ensure_directory(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        # In a shared temp dir a folder of that name made by another user is not ours to
        # trust: it would hold (and could forge) the content that undo writes back.
        for folder in (self.base, self.directory):
            owner = folder.stat().st_uid
            if hasattr(os, "getuid") and owner != os.getuid():
                raise PermissionError(
                    errno.EPERM, f"the journal folder {folder} belongs to another user"
                )
        marker = self.directory / "workspace"
        expected = os.fspath(self.root) + "\n"
        if not marker.exists() or marker.stat().st_size == 0:  # (empty: a crash mid-write)
            with open(marker, "w", encoding="utf-8") as handle:
                handle.write(expected)
            return
        # A journal folder copied or moved from another workspace (or a forged one) holds
        # that workspace's writes: undoing them here would put its bytes into these files.
        recorded = marker.read_text(encoding="utf-8", errors="replace")
        if recorded != expected:
            raise JournalCorrupt(
                f"The undo journal {self.directory} belongs to another workspace "
                f"({recorded.strip()!r}, not {os.fspath(self.root)!r}); it is not trusted, and "
                "nothing was restored or recorded.",
                path=os.fspath(self.directory),
                hint=(
                    f"Move the folder {self.directory} aside to start a new journal for this "
                    "workspace."
                ),
            )

    def _segment_paths(self) -> list[Path]:
        """Oldest first: journal.N.jsonl ... journal.1.jsonl, journal.jsonl."""
        rotated = [self.directory / f"journal.{n}.jsonl" for n in range(self.segments - 1, 0, -1)]
        return [*rotated, self.path]

    def _read_all(self) -> list[JournalEntry]:
        entries: list[JournalEntry] = []
        for segment in self._segment_paths():
            try:
                data = segment.read_bytes()
            except FileNotFoundError:
                continue
            except OSError as error:
                raise JournalError(
                    f"Could not read the undo journal {segment}: {error.strerror or error}."
                ) from error
            lines = data.split(b"\n")
            # The last piece is b"" when the segment ends with a newline; otherwise it is a
            # record whose write was cut short by a crash: not an entry, never trusted.
            for number, line in enumerate(lines[:-1], 1):
                entries.append(decode(line, segment, number))
        return entries

    def _next_seq(self) -> int:
        """One more than the newest complete entry's (read from the end: appends stay cheap)."""
        for segment in reversed(self._segment_paths()):
            try:
                with open(segment, "rb") as handle:
                    size = handle.seek(0, os.SEEK_END)
                    end = _last_newline_end(handle, size)  # past a torn tail, if any
                    if end == 0:
                        continue
                    start = _last_newline_end(handle, end - 1)
                    handle.seek(start)
                    line = handle.read(end - 1 - start)
            except FileNotFoundError:
                continue
            except OSError as error:  # a folder in its place, no permission: not a crash
                raise JournalError(
                    f"Could not read the undo journal {segment}: {error.strerror or error}."
                ) from error
            return decode(line, segment, 0).seq + 1
        return 1

    def _append(self, line: bytes) -> None:
        try:
            self._cut_torn_tail()
            self._rotate_if_full()
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
            fd = os.open(self.path, flags, 0o600)
            try:
                written = os.write(fd, line)
                if written != len(line):  # a short write: cut it off, or it would be glued
                    os.ftruncate(fd, os.fstat(fd).st_size - written)
                    raise OSError(errno.EIO, "short write to the journal")
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            raise JournalError(
                f"Could not append to the undo journal {self.path}: {error.strerror or error}."
            ) from error

    def _cut_torn_tail(self) -> None:
        """Drop a last line left without its newline by a writer that crashed mid-append."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size == 0:
            return
        with open(self.path, "rb+") as handle:
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return
            keep = _last_newline_end(handle, size)
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())

    def _rotate_if_full(self) -> None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size < self.max_segment_bytes:
            return
        paths = self._segment_paths()  # oldest first; the oldest is overwritten
        for older, newer in itertools.pairwise(paths):
            if newer.exists():
                os.replace(newer, older)
        sync_directory(self.directory)


def _last_newline_end(handle: Any, size: int) -> int:
    position = size
    while position > 0:
        start = max(0, position - 65536)
        handle.seek(start)
        chunk: bytes = handle.read(position - start)
        index = chunk.rfind(b"\n")
        if index != -1:
            return start + index + 1
        position = start
    return 0


def sync_directory(directory: Path) -> None:
    if os.name == "nt":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass
