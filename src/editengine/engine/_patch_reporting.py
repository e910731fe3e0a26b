"""What a patch hands back and records: per-file results, diffs, diagnostics, telemetry.

Each changed file becomes an :class:`~editengine.EditResult` (as an edit's, with its diff and
the problems the patch introduced); the patch's summary and combined diff are made from
them; every hunk is one ``edit`` in telemetry, placed or refused.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import replace

from editengine._diff import FileDiff, unified_diff
from editengine._errors import MatchError, PatchFailed
from editengine._results import EditResult
from editengine._state import EditState, FixerCall
from editengine.diagnostics import SyntaxCheck, SyntaxGuard, forgiving, guard_edit
from editengine.engine._callbacks import notify
from editengine.engine._parts import PatchParts
from editengine.files import FileSnapshot, Target, sha256_hex
from editengine.patch import FileChange, Hunk, Patch, PatchResult


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


def combined_diff(changed: list[FileChange], diffs: dict[str, FileDiff]) -> str:
    """Every change's diff, in patch order; ``diffs`` gets each one computed (once)."""
    parts = []
    for change in changed:
        if change.moved_from is not None:
            parts.append(f"# moved from {change.moved_from}\n")
        if change.path not in diffs:
            diffs[change.path] = _diff(change)
        parts.append(diffs[change.path].text)
    return "".join(parts)


def patch_summary(
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


def edit_result(
    target: Target, snapshot: FileSnapshot, change: FileChange, result: PatchResult, diff: FileDiff
) -> EditResult:
    strategies = [h.strategy for h in result.hunks if h.path in (change.path, change.moved_from)]
    data = None if change.new_content is None else change.new_content.encode("utf-8")
    verb = {"add": "Created", "delete": "Deleted", "update": "Updated"}[change.kind]
    return EditResult(
        summary=f"{verb} {change.path} (patch)",
        file_path=change.path,
        absolute_path=os.fspath(target.absolute),
        replacements=len(strategies),
        strategy="+".join(dict.fromkeys(strategies)) or change.kind,
        diff=diff.text,
        additions=diff.additions,
        deletions=diff.deletions,
        hash_before=snapshot.sha256,
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


def diagnosed(ctx: PatchParts, edited: EditResult, checks: dict[str, SyntaxCheck]) -> EditResult:
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


def telemetry_success(
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


def telemetry_failure(
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
