"""Undo (and redo) from the write journal: put files back exactly as they were.

``writer.undo(path=None, steps=1)`` reverses the newest writes still in effect — the
newest anywhere in the workspace, or the newest of one file. A write is reversed only if
the file still has the sha256 the journal recorded after it: otherwise someone changed it
since, and the undo is refused with :class:`~editengine.StaleFile` naming the file,
before anything is written. Every step is checked first (all or nothing on a refusal);
then every step is committed through the write transaction (``journal/_transaction.py``):
journaled ahead, each file checked at the last moment and written atomically, all put back
if any write fails, and journaled as ``undo`` entries, which ``writer.redo()`` can reverse in
turn (until the file is edited again).
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Sequence

from editengine._diff import unified_diff
from editengine._errors import (
    BadRequest,
    BinaryFile,
    EditError,
    JournalError,
    NothingToUndo,
    StaleFile,
    UnsupportedEncoding,
)
from editengine.files import FileSnapshot, Target, Workspace, WorkspaceDir
from editengine.journal import _recovery as recovery
from editengine.journal import _transaction as transaction
from editengine.journal._journal import Journal
from editengine.journal._records import JournalEntry
from editengine.journal._undo_results import RestoredFile, UndoResult
from editengine.journal._writer import FileWriter

_PLAN_ATTEMPTS = 5
_NO_LIMIT = 1 << 62  # undo restores whatever size the journal recorded

logger = logging.getLogger("editengine")


def candidates(
    entries: Sequence[JournalEntry], *, redo: bool = False, real: str | None = None
) -> list[JournalEntry]:
    """The writes (or, for ``redo``, the undos) still in effect, newest first.

    A write undone by a later ``undo`` entry is no longer in effect; an ``undo`` is
    redoable until it is redone or its file is written again by anything but an undo.
    """
    undone = {entry.target for entry in entries if entry.operation == "undo"}
    redone = {entry.target for entry in entries if entry.operation == "redo"}
    chosen: list[JournalEntry] = []
    written_since: set[str] = set()
    for entry in reversed(entries):
        if real is not None and entry.real != real:
            continue
        if redo:
            if entry.operation == "undo":
                if entry.id not in redone and entry.real not in written_since:
                    chosen.append(entry)
            elif entry.operation != "redo":
                written_since.add(entry.real)
        elif entry.operation != "undo" and entry.id not in undone:
            chosen.append(entry)
    return chosen


def undoable(
    workspace: Workspace, files: WorkspaceDir, entries: Sequence[JournalEntry]
) -> set[str]:
    """The ids of the entries an undo would restore now: in effect, restorable, their
    path still leading to the file written, that file still as the newest write of it in
    effect left it (older writes of the file are reached by undoing the newer first), and
    every other file of their group (one patch) undoable too."""
    found = candidates(entries)
    now: dict[str, str | None] = {}
    accepted: set[str] = set()
    for entry in found:  # newest first
        if entry.real not in now:
            now[entry.real] = _hash_now(workspace, files, entry)
        restorable = entry.before_sha256 is None or entry.restore is not None
        if restorable and now[entry.real] == entry.after_sha256:
            accepted.add(entry.id)
            now[entry.real] = entry.before_sha256  # what undoing it leaves
        else:
            now[entry.real] = "blocked"  # older writes of this file are out of reach
    refused_groups = {e.group for e in found if e.group is not None and e.id not in accepted}
    return {e.id for e in found if e.id in accepted and e.group not in refused_groups}


def _hash_now(workspace: Workspace, files: WorkspaceDir, entry: JournalEntry) -> str | None:
    """The sha256 of the file ``entry`` wrote as it is now (``None``: no file; a text that
    matches no hash when the path leads elsewhere or cannot be read)."""
    try:
        target = workspace.resolve(entry.path)
        if target.real.relative_to(workspace.real_root).as_posix() != entry.real:
            return "elsewhere"
        snapshot = _snapshot(files, target)
    except EditError:
        return "unreadable"
    return _sha(snapshot.data) if snapshot.exists else None


def recover_interrupted(writer: FileWriter) -> None:
    """Settle the groups of writes a crashed process left half-done (at engine start):
    each file all old or all new again. Never fails the caller: what cannot be settled now
    is logged and left for the next undo."""
    try:
        recovery.recover(writer)
    except (EditError, OSError) as error:
        logger.warning("could not settle interrupted writes: %s", error)


def list_entries(
    writer: FileWriter, *, path: str | os.PathLike[str] | None = None
) -> list[JournalEntry]:
    """The journal's entries (of ``path`` when given), oldest first."""
    journal = _journal(writer)
    real = _real_key(writer, path) if path is not None else None
    return [entry for entry in journal.entries() if real is None or entry.real == real]


def reverse(
    writer: FileWriter,
    *,
    path: str | os.PathLike[str] | None = None,
    steps: int = 1,
    redo: bool = False,
) -> UndoResult:
    """Undo (or redo) the newest ``steps`` writes still in effect; see the module docstring."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise BadRequest(f"steps must be a positive integer, got {steps!r}.")
    journal = _journal(writer)
    recovery.recover(writer)  # a group of writes cut short by a crash is settled first
    real = _real_key(writer, path) if path is not None else None
    operation = "redo" if redo else "undo"
    for _ in range(_PLAN_ATTEMPTS):
        chosen = _choose(journal.entries(), redo=redo, real=real, steps=steps, path=path)
        targets = _targets(writer, chosen)
        with writer.hold_all(targets.values()):
            # Writes may have landed while we waited for the locks: decide again, and go on
            # only if the same files are concerned (their locks are the ones we hold).
            again = _choose(journal.entries(), redo=redo, real=real, steps=steps, path=path)
            if [entry.id for entry in again] != [entry.id for entry in chosen]:
                continue
            planned, modes = _check(writer, chosen, targets)
            writes = _writes(writer, planned, targets, modes, operation)

            def rolled_back(error: EditError, restored: int) -> None:
                error.add_note_for_agent(
                    f"The {operation} was rolled back: the {restored} file(s) it had already "
                    "written were put back, so no file was changed."
                )

            _, notes = transaction.commit(
                writer,
                writes,
                operation=operation,
                group=transaction.new_group(),
                on_failure=rolled_back,
            )
            restored = []
            for (entry, before, after), write in zip(planned, writes, strict=True):
                if after is None and entry.folders:
                    transaction.remove_empty_folders(
                        writer, transaction.created_by(writer, write.target, entry)
                    )
                restored.append(_restored(write.target, entry, before, after))
            return UndoResult(operation=operation, restored=tuple(restored), notes=notes)
    raise JournalError(
        "The journal kept changing while the undo was being planned; nothing was restored.",
        hint="Other processes are editing these files. Retry in a moment.",
    )


def _writes(
    writer: FileWriter,
    planned: Sequence[tuple[JournalEntry, bytes | None, bytes | None]],
    targets: dict[str, Target],
    modes: dict[str, int | None],
    operation: str,
) -> list[transaction.FileWrite]:
    """One write per planned step; the steps of one reversed group share a new group."""
    groups: dict[str, str] = {}
    writes = []
    for entry, before, after in planned:
        target = targets[entry.real]
        group = None
        if entry.group is not None:
            group = groups.setdefault(entry.group, transaction.new_group())
        parts = writer.files.parts_of(target.real)[1]
        creates = before is None and after is not None
        writes.append(
            transaction.FileWrite(
                target=target,
                before=before,
                after=after,
                mode=modes.get(entry.real) if before is not None else entry.mode,
                summary=f"{operation} of: {entry.summary or entry.operation + ' ' + entry.path}",
                strategy=operation,
                stale=_stale_now(entry),
                folder_gone=_folder_gone(target),
                not_text=lambda target=target: _no_longer_text(target),  # type: ignore[misc]  # a default argument binds each target: mypy cannot type a lambda's default
                reverses=entry.id,
                group=group,
                folders=len(transaction.missing_folders(writer, parts, target.display))
                if creates
                else 0,
            )
        )
    return writes


def _stale_now(entry: JournalEntry) -> transaction.Stale:
    def stale(current: bytes | None) -> EditError:
        return _stale(entry, current, _sha(current), first=True)

    return stale


def _folder_gone(target: Target) -> Callable[[], EditError]:
    def gone() -> EditError:
        return StaleFile(
            f"The folder of {target.display} was moved or deleted during the undo; "
            "nothing was restored.",
            path=target.display,
            hint="Check the folder layout and run undo again.",
        )

    return gone


def _restored(
    target: Target, entry: JournalEntry, before: bytes | None, after: bytes | None
) -> RestoredFile:
    diff = unified_diff(_text(before), _text(after), target.display, created=before is None).text
    return RestoredFile(
        file_path=target.display,
        reversed_entry=entry,
        hash_before=_sha(before),
        hash_after=_sha(after),
        diff=diff,
    )


# ---------------------------------------------------------------------- helpers


def _journal(writer: FileWriter) -> Journal:
    journal = writer.journal
    if journal is None:
        raise JournalError(
            "This engine keeps no undo journal (journal=False), so there is nothing to undo.",
            hint="Create the engine with the default journal to make edits undoable.",
        )
    return journal


def _real_key(writer: FileWriter, path: str | os.PathLike[str]) -> str:
    target = writer.workspace.resolve(path)
    return writer.relative_real(target)


def _choose(
    entries: Sequence[JournalEntry],
    *,
    redo: bool,
    real: str | None,
    steps: int,
    path: str | os.PathLike[str] | None,
) -> list[JournalEntry]:
    found = candidates(entries, redo=redo, real=real)
    if not found:
        what = "undo to redo" if redo else "write to undo"
        where = f" of {os.fspath(path)}" if path is not None else " in this workspace"
        raise NothingToUndo(
            f"The journal holds no {what}{where}.",
            hint=(
                "Only writes made through editengine (edit, multi_edit, patch, undo) are "
                "journaled; an undo can be redone until its file is edited again."
            ),
        )
    grouped = _steps(found)
    chosen_steps = grouped[:steps]
    if len(grouped) < steps:
        raise NothingToUndo(
            f"Asked for {steps} steps, but the journal holds only {len(grouped)}"
            f"{' of ' + os.fspath(path) if path is not None else ''}; nothing was restored.",
            hint=f"Use --steps {len(grouped)} or fewer.",
        )
    return [entry for step in chosen_steps for entry in step]


def _steps(found: Sequence[JournalEntry]) -> list[list[JournalEntry]]:
    """Newest first; entries of one group (one patch) form one step."""
    steps: list[list[JournalEntry]] = []
    index: dict[str, list[JournalEntry]] = {}
    for entry in found:
        if entry.group is not None and entry.group in index:
            index[entry.group].append(entry)
            continue
        step = [entry]
        steps.append(step)
        if entry.group is not None:
            index[entry.group] = step
    return steps


def _targets(writer: FileWriter, chosen: Sequence[JournalEntry]) -> dict[str, Target]:
    """Each file concerned, through the workspace guard, keyed by its real relative path."""
    targets: dict[str, Target] = {}
    for entry in chosen:
        if entry.real in targets:
            continue
        target = writer.workspace.resolve(entry.path)
        if writer.relative_real(target) != entry.real:
            raise StaleFile(
                f"{entry.path} now leads to another file ({writer.relative_real(target)}) "
                f"than the one written ({entry.real}); nothing was restored.",
                path=entry.path,
                hint="A symbolic link on that path changed. Restore the file by hand.",
            )
        targets[entry.real] = target
    return targets


def _check(
    writer: FileWriter, chosen: Sequence[JournalEntry], targets: dict[str, Target]
) -> tuple[list[tuple[JournalEntry, bytes | None, bytes | None]], dict[str, int | None]]:
    """Every step's (entry, bytes now, bytes after reversing) and each file's permission
    bits now, or StaleFile before any write."""
    state: dict[str, bytes | None] = {}
    modes: dict[str, int | None] = {}
    for key, target in targets.items():
        snapshot = _snapshot(writer.files, target)
        state[key] = snapshot.data if snapshot.exists else None
        modes[key] = snapshot.mode
    planned: list[tuple[JournalEntry, bytes | None, bytes | None]] = []
    for entry in chosen:
        current = state[entry.real]
        current_sha = _sha(current)
        if current_sha != entry.after_sha256:
            raise _stale(entry, current, current_sha, first=not planned)
        restored = entry.restores(current)
        planned.append((entry, current, restored))
        state[entry.real] = restored
    return planned, modes


def _stale(
    entry: JournalEntry, current: bytes | None, current_sha: str | None, *, first: bool
) -> StaleFile:
    if current is None:
        now = "has been deleted"
    elif entry.after_sha256 is None:
        now = "exists again (the write being undone had deleted it)"
    else:
        now = f"has changed (sha256 {current_sha[:12] if current_sha else '?'}…)"
    recorded = entry.after_sha256[:12] + "…" if entry.after_sha256 else "no file"
    when = "" if first else " (reached after undoing the newer steps)"
    return StaleFile(
        f"{entry.path} {now} since the write being undone{when} — "
        f'"{entry.summary or entry.operation}" left sha256 {recorded}. '
        "Nothing was restored.",
        path=entry.path,
        hint=(
            "Undo only restores a file still exactly as editengine left it. Someone edited it "
            "since: read it and edit it back by hand, or restore it from version control."
        ),
    )


def _snapshot(files: WorkspaceDir, target: Target) -> FileSnapshot:
    try:
        return files.read(target.real, display=target.display, max_bytes=_NO_LIMIT)
    except (BinaryFile, UnsupportedEncoding) as error:
        raise _no_longer_text(target) from error


def _no_longer_text(target: Target) -> StaleFile:
    # editengine only ever writes UTF-8 text: someone else put these bytes there.
    return StaleFile(
        f"{target.display} is no longer UTF-8 text, so it changed since editengine wrote "
        "it; nothing was restored.",
        path=target.display,
        hint="Restore the file from version control, or fix it by hand.",
    )


def _text(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", errors="replace")


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()
