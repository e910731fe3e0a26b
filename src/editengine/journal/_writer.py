"""The write transaction: the one way the engine changes a file of its workspace.

The engine builds one :class:`FileWriter` from its parts (workspace, files, locks, journal,
read tracker, size limit) and every write goes through it: an edit's (lock, read again,
check the file is still the one matched, replace it atomically after a last look, journal
it), and the groups of writes of a patch or an undo (:mod:`editengine.journal._transaction`
takes the writer). Nothing it is handed is the engine.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from contextlib import AbstractContextManager

from editengine._errors import JournalError, StaleFile
from editengine._read_tracker import ReadTracker
from editengine.files import (
    AnchoredDir,
    FileSnapshot,
    MissingFolder,
    PathLocks,
    Target,
    Workspace,
    WorkspaceDir,
    sha256_hex,
)
from editengine.journal._journal import Journal

logger = logging.getLogger("editengine")


class FileWriter:
    """Locks, reads, writes and journals the files of ``workspace``.

    ``journal`` and ``read_tracker`` may be replaced after construction (a front end gives
    each session its own read tracker): the engine's attributes of those names are this
    writer's."""

    def __init__(
        self,
        *,
        workspace: Workspace,
        files: WorkspaceDir,
        locks: PathLocks,
        journal: Journal | None,
        read_tracker: ReadTracker | None,
        max_file_bytes: int,
    ) -> None:
        self.workspace = workspace
        self.files = files
        self.locks = locks
        self.journal = journal
        self.read_tracker = read_tracker
        self.max_file_bytes = max_file_bytes

    def relative_real(self, target: Target) -> str:
        """The file's real path relative to the workspace's real root (the journal's key)."""
        return target.real.relative_to(self.workspace.real_root).as_posix()

    def read(self, target: Target) -> FileSnapshot:
        """The file as it is now, up to the size limit for editing."""
        return self.files.read(target.real, display=target.display, max_bytes=self.max_file_bytes)

    def hold(self, target: Target) -> AbstractContextManager[None]:
        """The file's lock (every writer of the workspace takes it)."""
        return self.locks.hold(target.real, display=target.display)

    def hold_all(self, targets: Iterable[Target]) -> AbstractContextManager[None]:
        """The locks of every file of a group, taken in one order (no deadlock)."""
        return self.locks.hold_all((target.real, target.display) for target in targets)

    # ------------------------------------------------------------------ one file

    def check_unchanged(self, target: Target, snapshot: FileSnapshot, meanwhile: str) -> None:
        """With the lock held: :class:`StaleFile` unless the file still has the hash of
        ``snapshot`` (what the edit was matched against)."""
        current = self.read(target)
        if current.sha256 != snapshot.sha256:
            raise StaleFile(
                f"{target.display} changed on disk {meanwhile}; nothing was written.",
                path=target.display,
                hint="Read the file again and redo the edit against its current content.",
            )

    def replace(
        self,
        target: Target,
        snapshot: FileSnapshot,
        data: bytes,
        *,
        strategy: str | None,
        operation: str,
        summary: str,
    ) -> tuple[str, tuple[str, ...]]:
        """With the lock held: replace the file that was ``snapshot`` with ``data`` (after a
        last look that it is unchanged), track and journal it; its sha256 and the notes."""
        name, parts = self.files.parts_of(target.real)
        try:
            with self.files.directory(
                parts, display=target.display, create=not snapshot.exists
            ) as folder:
                try:
                    durability_notes = folder.write(
                        name,
                        data,
                        display=target.display,
                        mode=snapshot.mode,
                        before_replace=lambda: self._still_same(folder, name, target, snapshot),
                    )
                except BaseException:
                    folder.remove_created()
                    raise
        except MissingFolder:
            raise StaleFile(
                f"The folder of {target.display} was moved or deleted during the edit; "
                "nothing was written.",
                path=target.display,
                hint="Check the folder layout, read the file again and redo the edit.",
            ) from None
        hash_after = sha256_hex(data)
        if self.read_tracker is not None:
            self.read_tracker.record(os.fspath(target.real), hash_after)
        notes = self.record(
            target,
            snapshot.data if snapshot.exists else None,
            data,
            strategy=strategy,
            operation=operation,
            summary=summary,
            mode=snapshot.mode,
        )
        return hash_after, (*durability_notes, *notes)

    def _still_same(
        self, folder: AnchoredDir, name: str, target: Target, snapshot: FileSnapshot
    ) -> None:
        """The last check before the rename, against writers that ignore our lock."""
        current = folder.read(name, display=target.display, max_bytes=self.max_file_bytes)
        if current.sha256 != snapshot.sha256:
            raise StaleFile(
                f"{target.display} was changed by another program during the edit; "
                "nothing was written.",
                path=target.display,
                hint="Read the file again and redo the edit.",
            )

    def record(
        self,
        target: Target,
        before: bytes | None,
        after: bytes | None,
        *,
        strategy: str | None,
        operation: str,
        summary: str,
        mode: int | None = None,
        reverses: str | None = None,
        group: str | None = None,
    ) -> tuple[str, ...]:
        """Journal one write that succeeded (lock held); notes for the result (empty when
        all went well). ``before``/``after`` are the bytes (``None``: no file); writes that
        belong together (the files of one patch) pass the same ``group``: one undo step
        then reverses all of them. A journal failure never fails a write already done."""
        journal = self.journal
        if journal is None:
            return ()
        try:
            journal.record(
                target.display,
                before,
                after,
                strategy=strategy,
                operation=operation,
                summary=summary,
                real=self.relative_real(target),
                mode=mode,
                target=reverses,
                group=group,
            )
        except JournalError as error:
            logger.warning("could not journal the write of %s: %s", target.display, error)
            return (
                f"The write of {target.display} succeeded but could not be recorded in the undo "
                f"journal ({error.message}); it cannot be undone with editengine.",
            )
        return ()
