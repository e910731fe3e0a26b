"""Writes of several files as one: journaled ahead, each checked at the last moment, all
taken back on a failure, and a half-done group rolled back after a crash.

:func:`commit` is what a patch and an undo do once their plan is made and every lock is
held:

1. the journal's *intent* is written (every file's entry, old and new sha256 and the full
   reverse) before the first file is replaced (:meth:`Journal.begin`);
2. each file is replaced or deleted through the workspace's folder descriptors, right
   after a last check that it still holds the bytes the plan was made from (another
   program's save just then is never overwritten or deleted);
3. a failure on any file puts back every file already written, last first, and drops the
   intent; success appends the entries in one write and drops the intent.

A process killed during step 2 leaves the intent on disk, unlocked:
:func:`editengine.journal._recovery.recover` settles it. Every function here takes the
engine's :class:`~editengine.journal._writer.FileWriter` (its files, locks, journal and
read tracker), never the engine.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from editengine._errors import (
    BinaryFile,
    EditError,
    JournalError,
    UnsupportedEncoding,
    WriteFailed,
)
from editengine.files import AnchoredDir, MissingFolder, Target
from editengine.journal._intents import Intent
from editengine.journal._journal import Journal
from editengine.journal._records import JournalEntry
from editengine.journal._writer import FileWriter

logger = logging.getLogger("editengine")

_NO_LIMIT = 1 << 62  # a file is compared whatever its size
#: What :func:`last_look` answers for a file that is no longer UTF-8 text (editengine never
#: writes such bytes, so it is never what a plan read).
NOT_TEXT = b"\x00editengine: not text\x00"

#: Builds the refusal for a file found holding other bytes than the plan's (``None``: gone).
Stale = Callable[[bytes | None], EditError]


@dataclass(frozen=True)
class FileWrite:
    """One file of a group: from ``before`` to ``after`` (``None``: no file)."""

    target: Target
    before: bytes | None
    after: bytes | None
    mode: int | None
    summary: str
    strategy: str | None
    stale: Stale
    folder_gone: Callable[[], EditError]  # the refusal when a folder on its path vanished
    not_text: Callable[[], EditError] | None = None  # when it is no longer text (else stale)
    reverses: str | None = None
    group: str | None = None  # the journal group of its entry (one undo step)
    folders: int = 0  # folders on its path that writing it creates (known when planned)


def new_group() -> str:
    return uuid.uuid4().hex[:16]


def commit(
    writer: FileWriter,
    writes: Sequence[FileWrite],
    *,
    operation: str,
    group: str,
    on_failure: Callable[[EditError, int], None] | None = None,
) -> tuple[list[JournalEntry], tuple[str, ...]]:
    """Write every file (their locks held by the caller), all or nothing; the journal
    entries appended and notes for the result. ``group`` names the intent (each entry's
    own group is its write's). ``on_failure(error, restored)`` may add to the error of a
    failed write before it is raised."""
    journal = writer.journal
    notes: list[str] = []
    intent: Intent | None = None
    if journal is not None:
        try:
            entries = [_entry(writer, journal, write, operation) for write in writes]
            intent = journal.begin(group, entries)
        except JournalError as error:
            notes.extend(_unjournaled(writes, error))
            journal = None
    done: list[tuple[FileWrite, list[tuple[str, ...]]]] = []
    try:
        for write in writes:
            try:
                done.append((write, write_file(writer, write)))
            except OSError as failure:  # the file layer maps its own; this is a last net
                raise WriteFailed(
                    f"Could not write {write.target.display}: {failure.strerror or failure}.",
                    path=write.target.display,
                    hint="Check free disk space and permissions, then retry.",
                ) from failure
    except BaseException as error:
        restored = _take_back(writer, done)
        if intent is not None and journal is not None:
            if restored == len(done):
                with contextlib.suppress(JournalError, OSError):
                    journal.abandon(intent)
            else:  # left for recover() to finish
                intent.release()
        if isinstance(error, EditError) and on_failure is not None:
            on_failure(error, restored)
        raise
    appended: list[JournalEntry] = []
    if intent is not None and journal is not None:
        try:
            appended = journal.commit(intent)
        except JournalError as error:
            notes.extend(_unjournaled(writes, error))
    _track(writer, writes)
    return appended, tuple(dict.fromkeys(notes))


def write_file(writer: FileWriter, write: FileWrite) -> list[tuple[str, ...]]:
    """Replace (or delete) one file, right after checking that it still holds
    ``write.before``; the folders created for it (outermost first)."""
    target = write.target
    name, parts = writer.files.parts_of(target.real)
    created = [] if write.before is not None else missing_folders(writer, parts, target.display)

    def still_same(folder: AnchoredDir) -> None:
        current = last_look(folder, name, target.display)
        if current is NOT_TEXT and write.not_text is not None:
            raise write.not_text()
        if current != write.before:
            raise write.stale(current)

    try:
        with writer.files.directory(
            parts, display=target.display, create=write.after is not None and bool(created)
        ) as folder:
            if write.after is None:
                folder.delete(
                    name, display=target.display, before_delete=lambda: still_same(folder)
                )
                return []
            try:
                folder.write(
                    name,
                    write.after,
                    display=target.display,
                    mode=write.mode,
                    before_replace=lambda: still_same(folder),
                )
            except BaseException:
                folder.remove_created()
                raise
    except MissingFolder:
        raise write.folder_gone() from None
    return created


def last_look(folder: AnchoredDir, name: str, display: str) -> bytes | None:
    """What the file holds right before it is replaced or deleted (``None``: no file)."""
    try:
        now = folder.read(name, display=display, max_bytes=_NO_LIMIT)
    except (BinaryFile, UnsupportedEncoding):
        return NOT_TEXT
    return now.data if now.exists else None


def missing_folders(
    writer: FileWriter, parts: tuple[str, ...], display: str
) -> list[tuple[str, ...]]:
    """The folders on ``parts`` that do not exist yet (outermost first)."""
    for depth in range(1, len(parts) + 1):
        try:
            with writer.files.directory(parts[:depth], display=display):
                pass
        except MissingFolder:
            return [parts[:end] for end in range(depth, len(parts) + 1)]
    return []


def remove_empty_folders(writer: FileWriter, folders: Sequence[tuple[str, ...]]) -> None:
    """Remove ``folders`` (outermost first in the list), innermost first, if still empty."""
    for parts in reversed(folders):
        display = "/".join(parts)
        with (
            contextlib.suppress(OSError, EditError, MissingFolder),
            writer.files.directory(parts[:-1], display=display) as parent,
        ):
            os.rmdir(parts[-1], dir_fd=parent.fd)


def created_by(writer: FileWriter, target: Target, entry: JournalEntry) -> list[tuple[str, ...]]:
    """The folders the write of ``entry`` created on the path of ``target`` (outermost
    first): its innermost ``entry.folders`` folders."""
    parts = writer.files.parts_of(target.real)[1]
    count = min(entry.folders, len(parts))
    return [parts[:end] for end in range(len(parts) - count + 1, len(parts) + 1)]


def _take_back(writer: FileWriter, done: list[tuple[FileWrite, list[tuple[str, ...]]]]) -> int:
    """Put back every file already written, last first; how many were put back."""
    restored = 0
    for write, created in reversed(done):
        if put(writer, write.target, write.before, write.mode):
            remove_empty_folders(writer, created)
            restored += 1
    return restored


def put(writer: FileWriter, target: Target, data: bytes | None, mode: int | None) -> bool:
    """Write ``data`` (``None``: delete) without checks (the lock is held); success."""
    name, parts = writer.files.parts_of(target.real)
    try:
        with writer.files.directory(
            parts, display=target.display, create=data is not None
        ) as folder:
            if data is None:
                if folder.exists(name):
                    folder.delete(name, display=target.display)
            else:
                folder.write(name, data, display=target.display, mode=mode)
    except (OSError, EditError, MissingFolder) as error:
        logger.error("could not put back %s: %s", target.display, error)
        return False
    return True


def _entry(writer: FileWriter, journal: Journal, write: FileWrite, operation: str) -> JournalEntry:
    return journal.entry(
        write.target.display,
        write.before,
        write.after,
        strategy=write.strategy,
        operation=operation,
        summary=write.summary,
        real=writer.relative_real(write.target),
        mode=write.mode,
        target=write.reverses,
        group=write.group,
        keep_all=True,
        folders=write.folders,
    )


def _track(writer: FileWriter, writes: Sequence[FileWrite]) -> None:
    tracker = writer.read_tracker
    if tracker is None:
        return
    for write in writes:
        key = os.fspath(write.target.real)
        if write.after is None:
            tracker.forget(key)
        else:
            tracker.record(key, hashlib.sha256(write.after).hexdigest())


def _unjournaled(writes: Sequence[FileWrite], error: JournalError) -> list[str]:
    names = dict.fromkeys(write.target.display for write in writes)
    for name in names:
        logger.warning("could not journal the write of %s: %s", name, error)
    return [
        f"The write of {name} succeeded but could not be recorded in the undo journal "
        f"({error.message}); it cannot be undone with editengine."
        for name in names
    ]
