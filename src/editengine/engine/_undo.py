"""Undo (and redo) from the write journal: put files back exactly as they were.

``engine.undo(path=None, steps=1)`` reverses the newest writes still in effect — the
newest anywhere in the workspace, or the newest of one file. A write is reversed only if
the file still has the sha256 the journal recorded after it: otherwise someone changed it
since, and the undo is refused with :class:`~editengine.StaleFile` naming the file,
before anything is written. Every step is checked first (all or nothing on a refusal);
then every step is committed through the write transaction (``engine/_transaction.py``):
journaled ahead, each file checked at the last moment and written atomically, all put back
if any write fails, and journaled as ``undo`` entries, which ``engine.redo()`` can reverse in
turn (until the file is edited again).

Why one long module: choosing the steps, checking them and describing what was restored
belong to one operation.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

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
from editengine._journal import Journal, JournalEntry
from editengine.engine import _transaction as transaction
from editengine.engine._parts import EngineParts
from editengine.files import FileSnapshot, Target

_PLAN_ATTEMPTS = 5
_NO_LIMIT = 1 << 62  # undo restores whatever size the journal recorded

logger = logging.getLogger("editengine")


@dataclass(frozen=True)
class RestoredFile:
    """One reversed write: ``file_path`` went from ``hash_before`` back to ``hash_after``."""

    file_path: str
    reversed_entry: JournalEntry
    hash_before: str | None
    hash_after: str | None
    diff: str

    @property
    def deleted(self) -> bool:
        return self.hash_after is None

    @property
    def created(self) -> bool:
        return self.hash_before is None

    def describe(self, operation: str) -> str:
        what = self.reversed_entry.summary or f"{self.reversed_entry.operation} of {self.file_path}"
        if operation == "redo":
            return f"Redid in {self.file_path}: {what}"
        if self.deleted:
            return f"Deleted {self.file_path}, which the undone write had created ({what})"
        return f"Restored {self.file_path} to its content before: {what}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file_path": self.file_path,
            "reversed": self.reversed_entry.to_dict(),
            "hash_before": self.hash_before,
            "hash_after": self.hash_after,
            "deleted": self.deleted,
            "created": self.created,
            "diff": self.diff,
        }


@dataclass(frozen=True)
class UndoResult:
    """What ``engine.undo()`` / ``engine.redo()`` did, newest reversed write first."""

    operation: str
    restored: tuple[RestoredFile, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def summary(self) -> str:
        verb = "Undid" if self.operation == "undo" else "Redid"
        count = len(self.restored)
        files = sorted({item.file_path for item in self.restored})
        return f"{verb} {count} write{'s' if count != 1 else ''}: {', '.join(files)}"

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item.file_path for item in self.restored))

    def text(self) -> str:
        """What a model or a person reads: summary, one line per step, then the diffs."""
        parts = [self.summary + "."]
        parts.extend(item.describe(self.operation) + "." for item in self.restored)
        parts.extend(self.notes)
        parts.extend(item.diff.rstrip("\n") for item in self.restored if item.diff)
        return "\n\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "summary": self.summary,
            "restored": [item.to_dict() for item in self.restored],
            "notes": list(self.notes),
        }


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


def record_write(
    engine: EngineParts,
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
    """Journal one write that succeeded; notes for the result (empty when all went well).

    Writes that belong together (the files of one patch) pass the same ``group``: one undo
    step then reverses all of them."""
    journal = engine.journal
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
            real=_relative_real(engine, target),
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


def undoable(engine: EngineParts, entries: Sequence[JournalEntry]) -> set[str]:
    """The ids of the entries an undo would restore now: in effect, restorable, their
    path still leading to the file written, that file still as the newest write of it in
    effect left it (older writes of the file are reached by undoing the newer first), and
    every other file of their group (one patch) undoable too."""
    found = candidates(entries)
    now: dict[str, str | None] = {}
    accepted: set[str] = set()
    for entry in found:  # newest first
        if entry.real not in now:
            now[entry.real] = _hash_now(engine, entry)
        restorable = entry.before_sha256 is None or entry.restore is not None
        if restorable and now[entry.real] == entry.after_sha256:
            accepted.add(entry.id)
            now[entry.real] = entry.before_sha256  # what undoing it leaves
        else:
            now[entry.real] = "blocked"  # older writes of this file are out of reach
    refused_groups = {e.group for e in found if e.group is not None and e.id not in accepted}
    return {e.id for e in found if e.id in accepted and e.group not in refused_groups}


def _hash_now(engine: EngineParts, entry: JournalEntry) -> str | None:
    """The sha256 of the file ``entry`` wrote as it is now (``None``: no file; a text that
    matches no hash when the path leads elsewhere or cannot be read)."""
    try:
        target = engine.workspace.resolve(entry.path)
        if _relative_real(engine, target) != entry.real:
            return "elsewhere"
        snapshot = _snapshot(engine, target)
    except EditError:
        return "unreadable"
    return _sha(snapshot.data) if snapshot.exists else None


def recover_interrupted(engine: EngineParts) -> None:
    """Settle the groups of writes a crashed process left half-done (at engine start):
    each file all old or all new again. Never fails the caller: what cannot be settled now
    is logged and left for the next undo."""
    try:
        transaction.recover(engine)
    except (EditError, OSError) as error:
        logger.warning("could not settle interrupted writes: %s", error)


def list_entries(
    engine: EngineParts, *, path: str | os.PathLike[str] | None = None
) -> list[JournalEntry]:
    """The journal's entries (of ``path`` when given), oldest first."""
    journal = _journal(engine)
    real = _real_key(engine, path) if path is not None else None
    return [entry for entry in journal.entries() if real is None or entry.real == real]


def reverse(
    engine: EngineParts,
    *,
    path: str | os.PathLike[str] | None = None,
    steps: int = 1,
    redo: bool = False,
) -> UndoResult:
    """Undo (or redo) the newest ``steps`` writes still in effect; see the module docstring."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise BadRequest(f"steps must be a positive integer, got {steps!r}.")
    journal = _journal(engine)
    transaction.recover(engine)  # a group of writes cut short by a crash is settled first
    real = _real_key(engine, path) if path is not None else None
    operation = "redo" if redo else "undo"
    for _ in range(_PLAN_ATTEMPTS):
        chosen = _choose(journal.entries(), redo=redo, real=real, steps=steps, path=path)
        targets = _targets(engine, chosen)
        with engine._locks.hold_all((t.real, t.display) for t in targets.values()):
            # Writes may have landed while we waited for the locks: decide again, and go on
            # only if the same files are concerned (their locks are the ones we hold).
            again = _choose(journal.entries(), redo=redo, real=real, steps=steps, path=path)
            if [entry.id for entry in again] != [entry.id for entry in chosen]:
                continue
            planned, modes = _check(engine, chosen, targets)
            writes = _writes(engine, planned, targets, modes, operation)

            def rolled_back(error: EditError, restored: int) -> None:
                error.add_note_for_agent(
                    f"The {operation} was rolled back: the {restored} file(s) it had already "
                    "written were put back, so no file was changed."
                )

            _, notes = transaction.commit(
                engine,
                writes,
                operation=operation,
                group=transaction.new_group(),
                on_failure=rolled_back,
            )
            restored = []
            for (entry, before, after), write in zip(planned, writes, strict=True):
                if after is None and entry.folders:
                    transaction.remove_empty_folders(
                        engine, transaction.created_by(engine, write.target, entry)
                    )
                restored.append(_restored(write.target, entry, before, after))
            return UndoResult(operation=operation, restored=tuple(restored), notes=notes)
    raise JournalError(
        "The journal kept changing while the undo was being planned; nothing was restored.",
        hint="Other processes are editing these files. Retry in a moment.",
    )


def _writes(
    engine: EngineParts,
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
        parts = engine.files.parts_of(target.real)[1]
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
                folders=len(transaction.missing_folders(engine, parts, target.display))
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


def _journal(engine: EngineParts) -> Journal:
    journal = engine.journal
    if journal is None:
        raise JournalError(
            "This engine keeps no undo journal (journal=False), so there is nothing to undo.",
            hint="Create the engine with the default journal to make edits undoable.",
        )
    return journal


def _real_key(engine: EngineParts, path: str | os.PathLike[str]) -> str:
    target = engine.workspace.resolve(path)
    return _relative_real(engine, target)


def _relative_real(engine: EngineParts, target: Target) -> str:
    return target.real.relative_to(engine.workspace.real_root).as_posix()


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


def _targets(engine: EngineParts, chosen: Sequence[JournalEntry]) -> dict[str, Target]:
    """Each file concerned, through the workspace guard, keyed by its real relative path."""
    targets: dict[str, Target] = {}
    for entry in chosen:
        if entry.real in targets:
            continue
        target = engine.workspace.resolve(entry.path)
        if _relative_real(engine, target) != entry.real:
            raise StaleFile(
                f"{entry.path} now leads to another file ({_relative_real(engine, target)}) "
                f"than the one written ({entry.real}); nothing was restored.",
                path=entry.path,
                hint="A symbolic link on that path changed. Restore the file by hand.",
            )
        targets[entry.real] = target
    return targets


def _check(
    engine: EngineParts, chosen: Sequence[JournalEntry], targets: dict[str, Target]
) -> tuple[list[tuple[JournalEntry, bytes | None, bytes | None]], dict[str, int | None]]:
    """Every step's (entry, bytes now, bytes after reversing) and each file's permission
    bits now, or StaleFile before any write."""
    state: dict[str, bytes | None] = {}
    modes: dict[str, int | None] = {}
    for key, target in targets.items():
        snapshot = _snapshot(engine, target)
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


def _snapshot(engine: EngineParts, target: Target) -> FileSnapshot:
    try:
        return engine.files.read(target.real, display=target.display, max_bytes=_NO_LIMIT)
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
