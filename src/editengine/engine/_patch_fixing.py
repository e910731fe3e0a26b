"""The LLM fixer for a hunk of a patch that no tier places.

The hunk is one search/replace edit, so the fixer is asked as for an edit (the patch's
instruction guides it) and its answer is judged as an edit's is (:mod:`editengine.verdict`):
the requested change, where it was meant, or nothing. Each refusal says why, in the hunk's
terms, for the patch's error.
"""

from __future__ import annotations

import time
from typing import Any

from editengine._errors import EditError, MatchError, NoMatch
from editengine._results import TextEdit
from editengine._state import FixerCall
from editengine._text import to_lf
from editengine.engine._fixing import instruction_or_default, request_key
from editengine.engine._parts import PatchParts
from editengine.fixer._protocol import FixRequest
from editengine.matching import _already_applied as already_applied
from editengine.patch import Hunk


def fixer_hook(
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
