"""The journal of writes: what every edit did to a workspace, and how to take it back.

:class:`Journal` records each write as an entry (``_records``: the line format and the
reverse that gives the old bytes back) in the journal's folder (``_store``: locked,
segmented, crash-safe appends). Writes of several files (a patch, the undo of a patch) are
journaled *ahead* as an intent (``_intents``) and appended in one write once every file
landed. A reverse larger than ``max_restore_bytes`` is not kept: the entry says so, and
undoing it is refused.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import replace

from editengine._errors import JournalError
from editengine.journal._intents import Intent, drop_intent, read_pending, write_intent
from editengine.journal._records import (
    MODE_BITS,
    OPERATIONS,
    JournalEntry,
    Reverse,
    encode,
    sha,
)
from editengine.journal._store import SegmentStore

DEFAULT_MAX_SEGMENT_BYTES = 8 * 1024 * 1024
DEFAULT_SEGMENTS = 4
DEFAULT_MAX_RESTORE_BYTES = 2 * 1024 * 1024
_LOCK_TIMEOUT = 30.0


class Journal(SegmentStore):
    """The write journal of the workspace at ``root`` (see the module docstring).

    >>> journal = Journal("/path/to/project")                    # doctest: +SKIP
    >>> journal.record("a.py", b"x = 1\\n", b"x = 2\\n", strategy="exact")  # doctest: +SKIP
    >>> [entry.summary for entry in journal.entries()]           # doctest: +SKIP
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        directory: str | os.PathLike[str] | None = None,
        max_segment_bytes: int = DEFAULT_MAX_SEGMENT_BYTES,
        segments: int = DEFAULT_SEGMENTS,
        max_restore_bytes: int = DEFAULT_MAX_RESTORE_BYTES,
        lock_timeout: float = _LOCK_TIMEOUT,
    ) -> None:
        super().__init__(
            root,
            directory=directory,
            lock_timeout=lock_timeout,
            max_segment_bytes=max_segment_bytes,
            segments=segments,
        )
        self.max_restore_bytes = max_restore_bytes

    # ------------------------------------------------------------------ writing

    def record(
        self,
        path: str,
        before: bytes | None,
        after: bytes | None,
        *,
        strategy: str | None = None,
        operation: str = "edit",
        summary: str = "",
        real: str | None = None,
        mode: int | None = None,
        target: str | None = None,
        group: str | None = None,
    ) -> JournalEntry:
        """Append the write of ``path`` from ``before`` to ``after`` (``None``: no file).

        Call it after the write succeeded, with the file's lock still held, so entries of
        one file are in the order of its writes. Raises :class:`JournalError` when the
        journal cannot be written.
        """
        entry = self.entry(
            path, before, after, strategy=strategy, operation=operation, summary=summary,
            real=real, mode=mode, target=target, group=group,
        )  # fmt: skip
        with self._locked():
            entry = replace(entry, seq=self._next_seq())
            self._append(encode(entry))
        return entry

    # ------------------------------------------------------------------ reading

    def entries(self) -> list[JournalEntry]:
        """Every entry still kept, oldest first; :class:`JournalCorrupt` if any is damaged."""
        with self._locked():
            return self._read_all()

    # ------------------------------------------------------------------ writes of a group

    def entry(
        self,
        path: str,
        before: bytes | None,
        after: bytes | None,
        *,
        strategy: str | None = None,
        operation: str = "edit",
        summary: str = "",
        real: str | None = None,
        mode: int | None = None,
        target: str | None = None,
        group: str | None = None,
        keep_all: bool = False,
        folders: int = 0,
    ) -> JournalEntry:
        """The entry :meth:`record` would append (``seq`` 0, not appended). ``keep_all``
        keeps the reverse whatever its size (an intent needs it to roll back)."""
        if operation not in OPERATIONS:
            raise ValueError(f"unknown journal operation {operation!r}")
        if mode is not None:
            if isinstance(mode, bool) or not isinstance(mode, int) or not 0 <= mode <= 0o7777:
                raise JournalError(f"The mode {mode!r} is not a file's permission bits.")
            mode &= MODE_BITS  # a file is never given back setuid, setgid or sticky bits
        reverse: Reverse | None = None
        restore_size = 0
        if before is not None:
            reverse = Reverse.between(before, after or b"")
            restore_size = len(reverse.middle)
            if restore_size > self.max_restore_bytes and not keep_all:
                reverse = None
        return JournalEntry(
            id=uuid.uuid4().hex[:16],
            seq=0,
            time=time.time(),
            operation=operation,
            path=path,
            real=real if real is not None else path,
            before_sha256=sha(before),
            after_sha256=sha(after),
            strategy=strategy,
            summary=summary,
            mode=mode,
            restore=reverse,
            restore_size=restore_size,
            target=target,
            group=group,
            folders=folders,
        )

    def begin(self, group: str, entries: Sequence[JournalEntry]) -> Intent:
        """Write the intent of a group of writes (durably) and hold its lock; call it before
        the first write. Raises :class:`JournalError` when it cannot be written."""
        if not group or not group.isalnum():
            raise ValueError(f"a group name is letters and digits, got {group!r}")
        with self._locked():
            return write_intent(self.directory, group, entries)

    def commit(self, intent: Intent, *, check_journaled: bool = False) -> list[JournalEntry]:
        """Append the intent's entries (one write: all of the group or none), then drop the
        intent. ``check_journaled`` first looks whether they are in already (a writer killed
        between the append and the drop). Raises :class:`JournalError` when the journal
        cannot be written."""
        ids = {entry.id for entry in intent.entries}
        try:
            with self._locked():
                if check_journaled and any(entry.id in ids for entry in self._read_all()):
                    appended = []  # journaled already, by a recovery that ran meanwhile
                else:
                    seq = self._next_seq()
                    appended = [
                        self._kept(replace(entry, seq=seq + index))
                        for index, entry in enumerate(intent.entries)
                    ]
                    self._append(b"".join(encode(entry) for entry in appended))
                self._drop(intent)
        finally:
            intent.release()
        return appended

    def abandon(self, intent: Intent) -> None:
        """Drop the intent without journaling it (its writes were taken back, or none
        happened)."""
        try:
            with self._locked():
                self._drop(intent)
        finally:
            intent.release()

    def pending(self) -> list[Intent]:
        """Intents whose writer is gone (killed half-way), each holding its lock now.

        Never creates the journal folder; an intent file that cannot be read whole is
        reported as :class:`JournalCorrupt`."""
        if not self.directory.is_dir():
            return []
        with self._locked():  # the folder's owner and workspace checked, as for any read
            return read_pending(self.directory)

    def _kept(self, entry: JournalEntry) -> JournalEntry:
        """The entry as the journal keeps it: a reverse over the size limit is dropped."""
        if entry.restore is not None and entry.restore_size > self.max_restore_bytes:
            return replace(entry, restore=None)
        return entry

    def _drop(self, intent: Intent) -> None:
        drop_intent(self.directory, intent)
