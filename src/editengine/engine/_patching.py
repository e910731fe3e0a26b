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

Why one long module: the four steps above are one all-or-nothing transaction over the files.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from editengine._diff import FileDiff, unified_diff
from editengine._edits import ConfirmRequest, Decision
from editengine._errors import (
    BadRequest,
    EditError,
    EditRejected,
    FileTooLarge,
    MatchError,
    NoMatch,
    PatchFailed,
    StaleFile,
    WriteFailed,
)
from editengine._results import EditResult, TextEdit
from editengine._state import EditState, FixerCall
from editengine._text import to_lf
from editengine.diagnostics import SyntaxCheck, SyntaxGuard, forgiving, guard_edit
from editengine.engine._callbacks import notify, resolve_sync, run_hooks
from editengine.engine._fixing import instruction_or_default, request_key
from editengine.engine._parts import PatchParts
from editengine.files import FileSnapshot, MissingFolder, Target, sha256_hex
from editengine.fixer._protocol import FixRequest
from editengine.journal import _transaction as transaction
from editengine.matching import _already_applied as already_applied
from editengine.patch import AUTO, FileChange, Hunk, Patch, PatchResult, parse_patch
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
    fix = _fixer_hook(ctx, instruction, fixer_calls) if ctx.fixer is not None else None
    contents = {path: (f.snapshot.text if f.snapshot.exists else None) for path, f in files.items()}
    try:
        result = apply_operations(contents, parsed, cascade=ctx.cascade, fix=fix)
    except PatchFailed as error:
        _telemetry_failure(ctx, parsed, error, fixer_calls, dry_run, started)
        raise
    changed = [change for change in result.changes if not change.no_change]
    _check_sizes(ctx, changed)
    checks = syntax_checks(ctx.syntax_guard, changed, result)  # SyntaxBroken: nothing written
    diffs: dict[str, FileDiff] = {}
    diff = _combined_diff(changed, diffs)
    result = replace(result, diff=diff, dry_run=dry_run)
    if dry_run or not changed:
        result = replace(result, summary=_summary(result, changed, dry_run=dry_run))
        _telemetry_success(ctx, parsed, result, fixer_calls, dry_run, started)
        return result
    if ctx.confirm is not None:
        approved = _confirmed(ctx, files, result, changed, diff)
        if approved != changed:  # the user's own content: its diff is new
            changed, diffs = approved, {}
            diff = _combined_diff(changed, diffs)
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
        summary=_summary(result, changed, dry_run=False),
        diff=diff,
        files={**result.files, **{c.path: c.new_content for c in changed}},
        results=tuple(
            _diagnosed(ctx, _edit_result(files[c.path], c, result, diffs[c.path]), checks)
            for c in changed
        ),
    )
    _telemetry_success(ctx, parsed, result, fixer_calls, dry_run, started)
    for edited in result.results:
        run_hooks(ctx.on_edited, edited)
    return result


# ---------------------------------------------------------------------- guard and read


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


# ---------------------------------------------------------------------- the fixer


def _fixer_hook(
    ctx: PatchParts, instruction: str | None, calls: dict[tuple[str, int], FixerCall]
) -> Any:
    """A hunk fixer: ask the LLM for a corrected before-text; trust it only when the cascade
    places it and it makes the hunk's change (the same checks as for ``edit``)."""
    fixer = ctx.fixer
    assert fixer is not None

    def fix(path: str, content: str, hunk: Hunk, error: NoMatch) -> TextEdit | None:
        call = FixerCall()
        calls[(path, hunk.line)] = call
        request = FixRequest(
            file_path=path,
            content=content,
            old_string=hunk.before,
            new_string=hunk.after,
            error=error,
            instruction=instruction_or_default(instruction),  # blank or missing: one prompt
        )
        call.request_key = request_key(request)
        started = time.perf_counter()
        try:
            correction = fixer.correct(request)
        except Exception as failure:
            reason = failure.message if isinstance(failure, EditError) else repr(failure)
            call.note = reason
            call.latency_ms = (time.perf_counter() - started) * 1000
            error.add_note_for_agent(f"The LLM fixer could not correct it: {reason}")
            return None
        call.provider, call.model = correction.provider, correction.model
        call.latency_ms = correction.latency_ms
        call.input_tokens, call.output_tokens = correction.input_tokens, correction.output_tokens
        call.cache_hit = correction.cache_hit
        why = _why_not(ctx, content, hunk, error, correction)
        if isinstance(why, tuple):
            call.refusal_reason, reason = why
            call.outcome, call.note = "failed_validation", reason
            error.add_note_for_agent(f"The LLM fixer proposed a correction, but {reason}.")
            return None
        call.outcome = "no_change" if why.no_change else "corrected"
        return why

    return fix


def _why_not(
    ctx: PatchParts, content: str, hunk: Hunk, error: NoMatch, correction: Any
) -> TextEdit | tuple[str, str]:
    """The checked edit, or why the correction is refused: (a stable code, the sentence)."""
    wanted = to_lf(hunk.after)
    if correction.no_changes_required:
        # The rule of every path (matching._already_applied): what the hunk adds or
        # rewrites stands, byte for byte, as whole lines; kept context proves nothing.
        if already_applied.stands_verbatim(to_lf(content), to_lf(hunk.before), wanted):
            return TextEdit(content, 0, "already_applied", no_change=True)
        return (
            "not_applied_where_meant",
            "it said no change was needed, but the hunk's new text is not in the file",
        )
    search, replacement = correction.search, correction.replace
    if not isinstance(search, str) or not search or not isinstance(replacement, str):
        return "empty_search", "its search text is empty or not text"
    if search == replacement:
        return "search_equals_replace", "its search and replace are identical"
    try:
        edit: TextEdit = ctx.cascade.edit(content, search, replacement)
    except MatchError as failure:
        first = failure.message.splitlines()[0] if failure.message else failure.code
        return (
            f"search_{failure.code}",
            f"its search text does not place the edit safely ({first})",
        )
    if edit.no_change:
        return "changes_nothing_elsewhere", "it changes nothing"
    unrelated = ctx.fixer_guard.why_unrelated(
        old_string=hunk.before,
        new_string=hunk.after,
        search=search,
        replace=replacement,
        spans=edit.spans,
        closest=error.closest,
    )
    return ("misplaced", unrelated) if unrelated is not None else edit


# ---------------------------------------------------------------------- approval


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
        summary=_summary(result, changed, dry_run=False, preview=True),
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


# ---------------------------------------------------------------------- commit


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


# ---------------------------------------------------------------------- reporting


def _diff(change: FileChange) -> FileDiff:
    """The change's diff (``+++ /dev/null`` for a deletion)."""
    diff = unified_diff(
        change.old_content or "",
        change.new_content or "",
        change.path,
        created=change.old_content is None,
    )
    if change.new_content is None:
        text = diff.text.replace(f"+++ b/{change.path}\n", "+++ /dev/null\n", 1)
        diff = FileDiff(text, diff.additions, diff.deletions)
    return diff


def _combined_diff(changed: list[FileChange], diffs: dict[str, FileDiff]) -> str:
    """Every change's diff, in patch order; ``diffs`` gets each one computed (once)."""
    parts = []
    for change in changed:
        if change.moved_from is not None:
            parts.append(f"# moved from {change.moved_from}\n")
        if change.path not in diffs:
            diffs[change.path] = _diff(change)
        parts.append(diffs[change.path].text)
    return "".join(parts)


def _summary(
    result: PatchResult, changed: list[FileChange], *, dry_run: bool, preview: bool = False
) -> str:
    if not changed:
        return "No change: every hunk of the patch is already applied"
    added = sum(1 for c in changed if c.kind == "add" and c.moved_from is None)
    moved = sum(1 for c in changed if c.moved_from is not None)
    deleted = sum(1 for c in changed if c.kind == "delete" and c.moved_to is None)
    updated = sum(1 for c in changed if c.kind == "update")
    parts = [
        f"{count} file{'s' if count != 1 else ''} {what}"
        for count, what in (
            (updated, "updated"),
            (added, "added"),
            (deleted, "deleted"),
            (moved, "moved"),
        )
        if count
    ]
    hunks = len(result.hunks)
    what = f"{', '.join(parts)} ({hunks} hunk{'s' if hunks != 1 else ''}, {result.strategy})"
    if dry_run:
        return f"Preview (dry run): the patch would leave {what}; nothing was written"
    if preview:
        return f"Will apply the patch: {what}"
    return f"Applied the patch: {what}"


def _edit_result(
    file: _File, change: FileChange, result: PatchResult, diff: FileDiff
) -> EditResult:
    strategies = [h.strategy for h in result.hunks if h.path in (change.path, change.moved_from)]
    data = None if change.new_content is None else change.new_content.encode("utf-8")
    verb = {"add": "Created", "delete": "Deleted", "update": "Updated"}[change.kind]
    return EditResult(
        summary=f"{verb} {change.path} (patch)",
        file_path=change.path,
        absolute_path=os.fspath(file.target.absolute),
        replacements=len(strategies),
        strategy="+".join(dict.fromkeys(strategies)) or change.kind,
        diff=diff.text,
        additions=diff.additions,
        deletions=diff.deletions,
        hash_before=file.snapshot.sha256,
        hash_after=sha256_hex(data) if data is not None else None,
        created=change.old_content is None,
        corrected_by_fixer=any(h.corrected_by_fixer for h in result.hunks if h.path == change.path),
        old_text=change.old_content or "",
        new_text=change.new_content or "",
    )


def syntax_checks(
    mode: SyntaxGuard, changed: Sequence[FileChange], result: PatchResult
) -> dict[str, SyntaxCheck]:
    """Each updated file's syntax check (docs/diagnostics.md): a file whose hunks were placed
    loosely and whose touched region stops parsing is refused, before anything is written."""
    checks: dict[str, SyntaxCheck] = {}
    for change in changed:
        if change.new_content is None:
            continue
        hunks = [h for h in result.hunks if h.path in (change.path, change.moved_from)]
        strategy = "+".join(dict.fromkeys(h.strategy for h in hunks)) or "exact"
        corrected = any(h.corrected_by_fixer for h in hunks)
        checks[change.path] = guard_edit(
            # An added file's problems are all new, as a created file's are (from nothing).
            change.old_content or "",
            change.new_content,
            change.path,
            mode=mode,
            tier="fixer" if corrected else strategy,
            forgiven=forgiving(strategy, corrected_by_fixer=corrected),
        )
    return checks


def _diagnosed(ctx: PatchParts, edited: EditResult, checks: dict[str, SyntaxCheck]) -> EditResult:
    """``edited`` with its syntax check's problems and what the language servers said."""
    check = checks.get(edited.file_path)
    if check is not None:
        edited = replace(edited, diagnostics=check.introduced, diagnostics_note=check.note)
    return ctx.server_diagnostics(edited)


def _hunk_state(path: str, dry_run: bool, hunk: Hunk | None = None) -> EditState:
    state = EditState(file_path=path, dry_run=dry_run)
    state.operation = "patch"
    if hunk is not None:
        state.old_chars, state.new_chars = len(hunk.before), len(hunk.after)
    return state


def _hunks_by_place(parsed: Patch) -> dict[tuple[str, int], Hunk]:
    """Each parsed hunk under its file and the patch line it starts on: its texts give the
    sizes telemetry reports, as an edit's old_string and new_string do."""
    return {(op.path, hunk.line): hunk for op in parsed.operations for hunk in op.hunks}


def _telemetry_success(
    ctx: PatchParts,
    parsed: Patch,
    result: PatchResult,
    calls: dict[tuple[str, int], FixerCall],
    dry_run: bool,
    started: float,
) -> None:
    if not ctx.observers:
        return
    elapsed = (time.perf_counter() - started) * 1000
    parsed_hunks = _hunks_by_place(parsed)
    for hunk in result.hunks:
        state = _hunk_state(hunk.path, dry_run, parsed_hunks.get((hunk.path, hunk.line)))
        state.attempts = list(hunk.trace)
        state.fixer = calls.get((hunk.path, hunk.line))
        state.outcome = "no_change" if hunk.no_change else "success"
        state.strategy = hunk.strategy
        state.replacements = 0 if hunk.no_change else 1
        state.corrected_by_fixer = hunk.corrected_by_fixer
        state.duration_ms = elapsed / max(1, len(result.hunks))
        notify(ctx.observers, "edit_started", state)
        notify(ctx.observers, "edit_finished", state)


def _telemetry_failure(
    ctx: PatchParts,
    parsed: Patch,
    error: PatchFailed,
    calls: dict[tuple[str, int], FixerCall],
    dry_run: bool,
    started: float,
) -> None:
    if not ctx.observers:
        return
    # An operation's own failure names the operation's line, which no hunk starts on.
    hunk = _hunks_by_place(parsed).get((error.path, error.line or 0))
    state = _hunk_state(error.path, dry_run, hunk)
    cause = error.cause
    state.attempts = list(cause.trace) if isinstance(cause, MatchError) else []
    state.fixer = calls.get((error.path, error.line or 0))
    state.outcome = "error"
    state.error_code = cause.code
    state.duration_ms = (time.perf_counter() - started) * 1000
    notify(ctx.observers, "edit_started", state)
    notify(ctx.observers, "edit_finished", state)
