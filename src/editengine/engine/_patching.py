"""``EditEngine.apply_patch``: a multi-file patch on the workspace, all or nothing.

1. parse; put every path the patch names through the workspace guard (a path leading out is
   refused before anything is read);
2. read every file under its lock (stale checks against the read tracker) and match every
   hunk of every file (the fixer may correct a hunk that no tier places);
3. ask ``confirm`` once, with the combined diff;
4. take every file's lock (in one global order), check that no file changed since step 2,
   then commit through the write transaction (:mod:`editengine.journal._transaction`):
   journaled ahead, each file checked at the last moment and written atomically, every file
   already written put back on a failure, a crash settled by the next engine or undo. A
   symbolic link the patch deletes or moves away is removed itself, never its target.

This module is the only one of the patch feature that touches the file layer
(:mod:`editengine.files`).

A hunk no tier places goes to the fixer through :mod:`._patch_fixing`; the results, diffs,
diagnostics and telemetry of a patch are made in :mod:`._patch_reporting`.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from editengine._diff import FileDiff
from editengine._edits import ConfirmRequest, Decision
from editengine._errors import (
    BadRequest,
    EditError,
    EditRejected,
    FileTooLarge,
    PatchFailed,
    StaleFile,
    WriteFailed,
)
from editengine._state import FixerCall
from editengine.engine._callbacks import resolve_sync, run_hooks
from editengine.engine._parts import PatchParts
from editengine.engine._patch_fixing import fixer_hook
from editengine.engine._patch_reporting import (
    combined_diff,
    diagnosed,
    edit_result,
    patch_summary,
    syntax_checks,
    telemetry_failure,
    telemetry_success,
)
from editengine.files import FileSnapshot, MissingFolder, Target
from editengine.journal import _transaction as transaction
from editengine.patch import AUTO, FileChange, Patch, PatchResult, parse_patch
from editengine.patch._apply import apply_operations


@dataclass
class _File:
    """One path of the patch: where it is, what it held when read."""

    target: Target
    snapshot: FileSnapshot
    # The path is a symbolic link the patch deletes or moves away: the link is removed,
    # never the file it leads to (which is still what is read).
    link: bool = False


@dataclass(frozen=True)
class _Step:
    """One file write of the commit: new bytes, or ``None`` to delete."""

    file: _File
    data: bytes | None


class _ChangedWhilePreparing(Exception):
    """A file of the patch was saved by someone else between its read and the commit:
    ``error`` is the refusal to give when the patch is not prepared again."""

    def __init__(self, error: StaleFile) -> None:
        super().__init__(error.message)
        self.error = error


# How often a patch is prepared again when a file it touches changed under it (as an edit
# is placed again): the patch is still applied to what the file now holds, or refused.
_PREPARE_ATTEMPTS = 3


def apply_patch(
    ctx: PatchParts,
    patch: str,
    *,
    format: str = AUTO,
    instruction: str | None = None,
    dry_run: bool = False,
) -> PatchResult:
    """See :meth:`EditEngine.apply_patch`."""
    for attempt in range(1, _PREPARE_ATTEMPTS + 1):
        try:
            return _apply_patch_once(
                ctx, patch, format=format, instruction=instruction, dry_run=dry_run,
                last_attempt=attempt == _PREPARE_ATTEMPTS,
            )  # fmt: skip
        except _ChangedWhilePreparing as changed:
            if attempt == _PREPARE_ATTEMPTS:
                raise changed.error from None
    raise AssertionError("unreachable")  # pragma: no cover


def _apply_patch_once(
    ctx: PatchParts,
    patch: str,
    *,
    format: str,
    instruction: str | None,
    dry_run: bool,
    last_attempt: bool,
) -> PatchResult:
    started = time.perf_counter()
    if instruction is not None and not isinstance(instruction, str):
        raise BadRequest(f"instruction must be a string, got {type(instruction).__name__}.")
    parsed = parse_patch(patch, format)
    files, parsed = _resolve(ctx, parsed)
    _read_all(ctx, files)
    fixer_calls: dict[tuple[str, int], FixerCall] = {}
    fix = fixer_hook(ctx, instruction, fixer_calls) if ctx.fixer is not None else None
    contents = {path: (f.snapshot.text if f.snapshot.exists else None) for path, f in files.items()}
    try:
        result = apply_operations(contents, parsed, cascade=ctx.cascade, fix=fix)
    except PatchFailed as error:
        telemetry_failure(ctx, parsed, error, fixer_calls, dry_run, started)
        raise
    changed = [change for change in result.changes if not change.no_change]
    _check_sizes(ctx, changed)
    checks = syntax_checks(ctx.syntax_guard, changed, result)  # SyntaxBroken: nothing written
    diffs: dict[str, FileDiff] = {}
    diff = combined_diff(changed, diffs)
    result = replace(result, diff=diff, dry_run=dry_run)
    if dry_run or not changed:
        result = replace(result, summary=patch_summary(result, changed, dry_run=dry_run))
        telemetry_success(ctx, parsed, result, fixer_calls, dry_run, started)
        return result
    if ctx.confirm is not None:
        approved = _confirmed(ctx, files, result, changed, diff)
        if approved != changed:  # the user's own content: its diff is new
            changed, diffs = approved, {}
            diff = combined_diff(changed, diffs)
    try:
        journal_notes = _commit(ctx, files, changed, result.strategy)
    except _ChangedWhilePreparing as saved:
        # Prepared again only when that costs no fixer call and asks no one twice.
        if last_attempt or fixer_calls or ctx.confirm is not None:
            raise saved.error from None
        raise
    result = replace(
        result,
        notes=(*result.notes, *journal_notes),
        summary=patch_summary(result, changed, dry_run=False),
        diff=diff,
        files={**result.files, **{c.path: c.new_content for c in changed}},
        results=tuple(
            diagnosed(
                ctx,
                edit_result(files[c.path].target, files[c.path].snapshot, c, result, diffs[c.path]),
                checks,
            )
            for c in changed
        ),
    )
    telemetry_success(ctx, parsed, result, fixer_calls, dry_run, started)
    for edited in result.results:
        run_hooks(ctx.on_edited, edited)
    return result


def _resolve(ctx: PatchParts, parsed: Patch) -> tuple[dict[str, _File], Patch]:
    """Every path through the workspace guard; the patch re-keyed by workspace-relative path."""
    display: dict[str, str] = {}
    files: dict[str, _File] = {}
    for path in parsed.paths():
        target = ctx.writer.workspace.resolve(path)
        display[path] = target.display
        files.setdefault(target.display, _File(target, FileSnapshot(exists=False)))
    for op in parsed.operations:
        leaves = op.kind == "delete" or (op.move_to is not None and op.move_to != op.path)
        file = files[display[op.path]]
        if (
            leaves
            and file.target.absolute != file.target.real
            and file.target.absolute.is_symlink()
        ):
            file.link = True
    operations = tuple(
        replace(
            op,
            path=display[op.path],
            move_to=display[op.move_to] if op.move_to is not None else None,
        )
        for op in parsed.operations
    )
    return files, replace(parsed, operations=operations)


def _read_all(ctx: PatchParts, files: dict[str, _File]) -> None:
    with _locked(ctx, files.values()):
        for file in files.values():
            file.snapshot = _read(ctx, file.target)
            if ctx.writer.read_tracker is not None and file.snapshot.exists:
                ctx.writer.read_tracker.check(
                    os.fspath(file.target.real), file.snapshot.sha256, display=file.target.display
                )


def _read(ctx: PatchParts, target: Target) -> FileSnapshot:
    return ctx.writer.files.read(
        target.real, display=target.display, max_bytes=ctx.writer.max_file_bytes
    )


def _locked(ctx: PatchParts, files: Sequence[_File] | Any) -> Any:
    """Every file's lock, taken in one global order so two patches naming the same files
    cannot deadlock."""
    return ctx.writer.hold_all(file.target for file in files)


def _confirmed(
    ctx: PatchParts,
    files: dict[str, _File],
    result: PatchResult,
    changed: list[FileChange],
    diff: str,
) -> list[FileChange]:
    """The changes the ``confirm`` callback approved (one question for the whole patch)."""
    assert ctx.confirm is not None
    first = changed[0]
    single = len(changed) == 1
    request = ConfirmRequest(
        file_path=", ".join(change.path for change in changed),
        absolute_path=os.fspath(files[first.path].target.absolute if single else ctx.root),
        diff=diff,
        summary=patch_summary(result, changed, dry_run=False, preview=True),
        old_text=(first.old_content or "") if single else "",
        new_text=(first.new_content or "") if single else "",
        created=single and first.old_content is None,
    )
    decision = Decision.of(resolve_sync(ctx.confirm(request), "confirm"))
    if decision.action == "reject":
        why = f" ({decision.reason})" if decision.reason else ""
        raise EditRejected(
            f"The patch was rejected{why}; nothing was written.",
            hint="Ask the user what to change, or propose a different patch.",
        )
    if decision.action == "modify" and decision.content is not None:
        if not single or first.new_content is None:
            raise EditRejected(
                "The confirm callback answered with new content, which only applies to a "
                "patch that changes one file; nothing was written.",
                hint="Approve or reject a multi-file patch as a whole.",
            )
        return [replace(first, new_content=decision.content)]
    return changed


def _commit(
    ctx: PatchParts, files: dict[str, _File], changed: list[FileChange], strategy: str
) -> tuple[str, ...]:
    """Write every change under every lock, journaled ahead as one group (one undo step
    takes the patch back); on any failure every file already written is put back."""
    steps = [_step(files[change.path], change) for change in changed]
    links = [step.file for step in steps if step.file.link and step.data is None]
    steps = [step for step in steps if not (step.file.link and step.data is None)]
    group = transaction.new_group()
    with _locked(ctx, [step.file for step in steps]):
        writes = []
        for step in steps:
            target, snapshot = step.file.target, step.file.snapshot
            current = _read(ctx, target)
            if current.sha256 != snapshot.sha256:
                raise _ChangedWhilePreparing(
                    StaleFile(
                        f"{target.display} changed on disk while the patch was being "
                        "prepared; nothing was written.",
                        path=target.display,
                        hint="Read the file again and redo the patch against its current content.",
                    )
                )
            parts = ctx.writer.files.parts_of(target.real)[1]
            writes.append(
                transaction.FileWrite(
                    target=target,
                    before=snapshot.data if snapshot.exists else None,
                    after=step.data,
                    mode=snapshot.mode,
                    summary=f"Patched {target.display}",
                    strategy=strategy,
                    stale=_changed_during(target),
                    folder_gone=_folder_gone(target),
                    group=group,
                    folders=0
                    if snapshot.exists or step.data is None
                    else len(transaction.missing_folders(ctx.writer, parts, target.display)),
                )
            )

        def rolled_back(error: EditError, restored: int) -> None:
            error.add_note_for_agent(
                f"The patch was rolled back: {restored} file(s) already written were "
                "restored; no file was changed."
            )

        _, notes = transaction.commit(
            ctx.writer,
            writes,
            operation="patch",
            group=group,
            on_failure=rolled_back,
        )
    return notes + tuple(_remove_link(ctx, file) for file in links)


def _remove_link(ctx: PatchParts, file: _File) -> str:
    """Remove the symbolic link ``file`` names (never the file it leads to); a note, since
    the journal keeps bytes, not links, and undo cannot bring the link back."""
    lexical = file.target.absolute
    display = file.target.display
    parent = Path(os.path.realpath(lexical.parent))
    try:
        parts = parent.relative_to(ctx.writer.workspace.real_root).parts
        with ctx.writer.files.directory(tuple(parts), display=display) as folder:
            info = os.stat(lexical.name, dir_fd=folder.fd, follow_symlinks=False)
            if not stat.S_ISLNK(info.st_mode):
                raise StaleFile(
                    f"{display} is no longer a symbolic link; it was left as it is.", path=display
                )
            os.unlink(lexical.name, dir_fd=folder.fd)
    except (OSError, ValueError, MissingFolder) as error:
        raise WriteFailed(
            f"The other files of the patch were written, but the link {display} could not "
            f"be removed: {error}.",
            path=display,
        ) from error
    return (
        f"{display} was a symbolic link: the link was removed and the file it led to was "
        "kept; undo does not bring the link back."
    )


def _changed_during(target: Target) -> transaction.Stale:
    def stale(current: bytes | None) -> EditError:
        what = "deleted" if current is None else "changed"
        return StaleFile(
            f"{target.display} was {what} by another program during the patch; "
            "nothing was written.",
            path=target.display,
            hint="Read the file again and redo the patch.",
        )

    return stale


def _check_sizes(ctx: PatchParts, changed: list[FileChange]) -> None:
    """A patch writes no file an edit could not then read: the edit size limit holds."""
    for change in changed:
        if change.new_content is None:
            continue
        size = len(change.new_content.encode("utf-8", "surrogatepass"))
        if size > ctx.writer.max_file_bytes:
            raise FileTooLarge(
                f"The patch would make {change.path} {size:,} bytes, over the "
                f"{ctx.writer.max_file_bytes:,}-byte limit for editing; nothing was written.",
                path=change.path,
                hint="Split the content over smaller files, or raise max_file_bytes.",
            )


def _folder_gone(target: Target) -> Callable[[], EditError]:
    def gone() -> EditError:
        return StaleFile(
            f"The folder of {target.display} was moved or deleted during the patch; "
            "nothing was written.",
            path=target.display,
            hint="Check the folder layout, read the files again and redo the patch.",
        )

    return gone


def _step(file: _File, change: FileChange) -> _Step:
    if change.new_content is None:
        return _Step(file, None)
    try:
        return _Step(file, change.new_content.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise BadRequest(
            f"The new content of {change.path} holds characters that cannot be written as "
            f"UTF-8 ({error.reason}); nothing was written.",
            hint="Remove lone surrogate escapes (such as \\ud800) from the patch.",
        ) from error
