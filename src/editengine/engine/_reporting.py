"""What an edit tells its caller: the summary line, the :class:`EditResult`, telemetry outcome."""

from __future__ import annotations

import json
import os

from editengine._diff import FileDiff, unified_diff
from editengine._errors import EditError, SyntaxBroken
from editengine._results import EditResult
from editengine._state import EditState
from editengine.engine._jobs import Job, Plan
from editengine.files import FileSnapshot, Target

_PAST = {"create": "Created", "rewrite": "Rewrote", "apply": "Applied", "replace": "Replaced"}


def diff_of(target: Target, snapshot: FileSnapshot, new_content: str) -> FileDiff:
    return unified_diff(snapshot.text, new_content, target.display, created=not snapshot.exists)


def summary_of(plan: Plan, *, dry_run: bool, preview: bool = False) -> str:
    """``Replaced 1 occurrence in a.py (exact match)``; ``Preview (dry run): would ...``;
    ``Will ...`` (``preview``, for the confirm callback); ``No change: ...``."""
    computed = plan.computed
    path = plan.target.display
    if computed.no_change:
        if plan.corrected_by_fixer:
            why = f": {_quoted(plan.fixer_explanation)}" if plan.fixer_explanation else ""
            return f"No change: the LLM fixer found the edit already applied in {path}{why}"
        if computed.note:
            return f"No change in {path}: {computed.note}"
        return f"No change: the edit is already applied in {path}"
    count = computed.replacements
    if not plan.snapshot.exists:
        verb, rest = "create", f"{path} ({_lines(computed.new_content)})"
    elif computed.strategy == "whole_file":
        verb, rest = "rewrite", f"{path} ({_lines(computed.new_content)})"
    elif computed.edits > 1:
        verb = "apply"
        rest = (
            f"{computed.edits} edits ({_plural(count, 'replacement')}) "
            f"to {path} ({computed.strategy} match)"
        )
    else:
        verb = "replace"
        rest = f"{_plural(count, 'occurrence')} in {path} ({computed.strategy} match)"
    if dry_run:
        text = f"Preview (dry run): would {verb} {rest}; nothing was written"
    elif preview:
        text = f"Will {verb} {rest}"
    else:
        text = f"{_PAST[verb]} {rest}"
    if plan.corrected_by_fixer:
        why = f": {_quoted(plan.fixer_explanation)}" if plan.fixer_explanation else ""
        text += f", after the LLM fixer corrected old_string{why}"
    if plan.modified_by_user:
        text += ", with the user's modifications"
    return text


def result_of(job: Job, plan: Plan, *, hash_after: str | None) -> EditResult:
    computed = plan.computed
    notes = list(job.notes)
    if computed.note and not computed.no_change:
        notes.append(computed.note)
    return EditResult(
        summary=summary_of(plan, dry_run=job.dry_run),
        file_path=plan.target.display,
        absolute_path=os.fspath(plan.target.absolute),
        replacements=0 if computed.no_change else computed.replacements,
        strategy=computed.strategy,
        diff=plan.diff.text,
        additions=plan.diff.additions,
        deletions=plan.diff.deletions,
        hash_before=plan.snapshot.sha256,
        hash_after=hash_after,
        no_change=computed.no_change,
        dry_run=job.dry_run,
        created=not plan.snapshot.exists,
        corrected_by_fixer=plan.corrected_by_fixer,
        fixer_explanation=plan.fixer_explanation,
        modified_by_user=plan.modified_by_user,
        notes=tuple(notes),
        edit_id=job.state.edit_id,
        old_text=plan.snapshot.text,
        new_text=computed.new_content,
        diagnostics=plan.diagnostics,
        diagnostics_note=plan.diagnostics_note,
    )


def record_file(state: EditState, target: Target, snapshot: FileSnapshot) -> None:
    state.file_path = target.display
    state.file_bytes = snapshot.size if snapshot.exists else None
    state.file_lines = snapshot.lines if snapshot.exists else None
    state.hash_before = snapshot.sha256


def record_success(state: EditState, result: EditResult) -> None:
    state.outcome = "no_change" if result.no_change else "success"
    state.error_code = None
    state.strategy = result.strategy
    state.replacements = result.replacements
    state.corrected_by_fixer = result.corrected_by_fixer


def record_failure(state: EditState, error: BaseException) -> None:
    state.outcome = "error"
    state.error_code = error.code if isinstance(error, EditError) else "internal_error"
    if isinstance(error, SyntaxBroken):
        state.syntax_guard_tier = error.tier


def _quoted(prose: str) -> str:
    """The model's words as a quoted string (line breaks and quotes escaped): read as what
    the model said, never as the engine's own text or an instruction to the agent."""
    return json.dumps(prose, ensure_ascii=False)


def _lines(text: str) -> str:
    count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return _plural(count, "line")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
