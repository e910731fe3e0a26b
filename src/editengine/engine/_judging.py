"""Judging a fixer's correction: the requested edit, where it was meant, or a refusal.

The corrected search is run back through the cascade on the file as it is now, with the
caller's count rules; what is written there is the caller's own edit carried onto that search,
which the model's replace must agree with (:class:`~editengine.verdict.RelatednessGuard`).
:func:`judge_correction` is pure: from the request, the file and the answer it returns a
:class:`Verdict` (:class:`Accepted` text, or :class:`Refused` with its reason), each refusal
worded where it is decided.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from editengine._edits import EditSpec
from editengine._errors import AmbiguousMatch, CountMismatch, EditError, MatchError, NoMatch
from editengine._results import Region, TextEdit, TierAttempt
from editengine._state import FixerOutcome
from editengine._text import to_lf
from editengine.engine._jobs import NeedsFix
from editengine.files import FileSnapshot
from editengine.fixer._protocol import Correction
from editengine.verdict import NotTheRequestedEdit, RelatednessGuard

# (text, old_string, new_string) -> the cascade's answer under the job's edit rules. (Not
# a matching.base.Match: this is the whole cascade run, not one place a tier found.)
RunCascade = Callable[[str, str, str], TextEdit]


# Characters of any one text the fixer step hands back to the agent (a model's explanation,
# why its answer was refused, why the call failed): a model can answer megabytes, and a
# search can match thousands of places, but the agent's context is not the place for them.
AGENT_TEXT_LIMIT = 2_000


# Places listed when a search matches many.
_PLACES_LISTED = 5


def clipped(text: str, limit: int = AGENT_TEXT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit:,} more characters not shown]"


def model_prose(text: str | None) -> str | None:
    """The model's explanation as it may reach the agent: clipped, and ``None`` when empty.
    (It is shown as the model's words, after "the LLM fixer corrected old_string:".)"""
    if not text:
        return None
    return clipped(text, AGENT_TEXT_LIMIT // 4)


@dataclass(frozen=True)
class Accepted:
    """The text to write and what the fixer step says of it.

    ``by_fixer`` is False when the original edit matched the file as it changed during the
    call (the correction was not needed); ``fixer_outcome`` is then ``None``.
    """

    edit: TextEdit
    by_fixer: bool
    fixer_outcome: FixerOutcome | None = None
    fixer_note: str | None = None
    explanation: str | None = None


@dataclass(frozen=True)
class Refused:
    """Why the answer was not used; ``cause`` is the cascade's refusal of its search."""

    why: str
    cause: Exception | None = None
    # A stable code for the reason (telemetry's refusal_reason), e.g. "misplaced".
    reason: str = "refused"


@dataclass(frozen=True)
class Verdict:
    """The check of one correction, decided without touching the job.

    ``recheck`` is the trace of the original edit re-run on a file that changed during the
    call, ``fix_pass`` the trace of placing the correction (telemetry counts the fixer's
    pass from where ``recheck`` ends). ``notes`` are for the agent's result; on a refusal,
    ``error`` is the error to answer with (the first read's, or one describing the file as
    it is now) and ``error_notes`` the sentences to add to it.
    """

    decision: Accepted | Refused
    error: NoMatch
    notes: tuple[str, ...] = ()
    error_notes: tuple[str, ...] = ()
    recheck: tuple[TierAttempt, ...] = ()
    fix_pass: tuple[TierAttempt, ...] = ()


def judge_correction(
    spec: EditSpec,
    step: NeedsFix,
    current: FileSnapshot,
    correction: Correction,
    *,
    run: RunCascade,
    guard: RelatednessGuard,
) -> Verdict:
    """Whether ``correction`` leads to the requested edit on ``current`` (the file re-read
    after the call), and the text to write if so. Pure: ``run`` is the cascade under the
    request's rules, and nothing here records, notes or mutates."""
    closest: tuple[Region, ...] = step.error.closest
    error = step.error
    notes: list[str] = []
    error_notes: list[str] = []
    recheck: tuple[TierAttempt, ...] = ()
    if current.sha256 != step.snapshot.sha256:
        try:
            original = run(current.text, spec.old_string, spec.new_string)
        except MatchError as now:
            recheck = tuple(now.trace)
            # Where old_string most nearly is *now*: the first read's line numbers are stale.
            closest = tuple(getattr(now, "closest", ()) or getattr(now, "candidates", ()))
            notes.append(
                "The file changed on disk while the LLM fixer ran; the correction was "
                "checked against the new content."
            )
            error, error_notes = _as_of_now(step.error, now)
        else:
            return Verdict(
                Accepted(
                    original,
                    by_fixer=False,
                    fixer_note="not used: the original edit matched the changed file",
                ),
                error,
                notes=(
                    "The file changed on disk while the LLM fixer ran; the original edit "
                    "matches the new content, so it was applied as given.",
                ),
                recheck=tuple(original.trace),
            )

    def refused(
        reason: str, why: str, cause: Exception | None = None, trace: Sequence[TierAttempt] = ()
    ) -> Verdict:
        return Verdict(
            Refused(why, cause, reason),
            error,
            tuple(notes),
            tuple(error_notes),
            recheck,
            tuple(trace),
        )

    def accepted(edit: TextEdit, outcome: FixerOutcome) -> Verdict:
        decision = Accepted(edit, True, outcome, explanation=model_prose(correction.explanation))
        return Verdict(decision, error, tuple(notes), (), recheck, tuple(edit.trace))

    if correction.no_changes_required:
        if guard.already_applied_where_meant(
            text=current.text,
            old_string=spec.old_string,
            new_string=spec.new_string,
            closest=closest,
            search=correction.search if isinstance(correction.search, str) else "",
            count=_count_of(spec),
        ):
            return accepted(
                TextEdit(current.text, 0, "already_applied", no_change=True), "no_change"
            )
        return refused(
            "not_applied_where_meant", _not_applied_where_meant(guard, closest, _count_of(spec))
        )
    if not isinstance(correction.search, str) or not correction.search:
        return refused("empty_search", "its search text is empty")
    unnumbered = without_shown_numbers(current.text, correction)
    if unnumbered is not None:
        correction = unnumbered
        notes.append(
            "The LLM fixer copied the line numbers its prompt showed into its search text; "
            "they were taken off before it was checked (your old_string had none)."
        )
    if not isinstance(correction.replace, str):
        return refused("replacement_not_text", "its replacement is not text")
    if correction.search == correction.replace:
        return refused("search_equals_replace", "its search and replace are identical")
    split = guard.splits_a_word(text=current.text, search=correction.search)
    if split is not None:
        return refused("splits_a_word", split)
    # The text written is the agent's edit carried onto the corrected search; the model's
    # replace only has to agree with it. A search that cannot place the edit is the first
    # thing to say, so the cascade runs before a disagreement is reported.
    other: NotTheRequestedEdit | None = None
    try:
        replacement = guard.replacement(
            old_string=spec.old_string,
            new_string=spec.new_string,
            search=correction.search,
            replace=correction.replace,
            file_text=current.text,
        )
    except NotTheRequestedEdit as disagreement:
        other, replacement = disagreement, correction.replace
    try:
        edit = run(current.text, correction.search, replacement)
    except MatchError as failed:
        why = f"its search text does not place the edit safely ({_search_failed(failed)})"
        return refused(f"search_{failed.code}", why, failed, failed.trace)
    except EditError as failed:
        # Said of the model's texts (a request error here is the fixer's, never the agent's).
        first_line = failed.message.splitlines()[0] if failed.message else failed.code
        why = "its search and replace texts cannot be used: " + _of_the_answer(first_line)
        return refused("unusable_texts", why, failed)
    if edit.no_change and other is None:
        # The cascade judged the correction applied already; that is a success only where
        # old_string meant, as for a "no change needed" answer.
        if not guard.already_applied_where_meant(
            text=current.text,
            old_string=spec.old_string,
            new_string=spec.new_string,
            closest=closest,
            search=correction.search,
            count=_count_of(spec),
        ):
            why = "it changes nothing and new_string is not where old_string meant"
            return refused("changes_nothing_elsewhere", why, trace=edit.trace)
    elif not edit.no_change:
        misplaced = guard.why_misplaced(
            old_string=spec.old_string,
            search=correction.search,
            spans=edit.spans,
            closest=closest,
        )
        if misplaced is not None:
            return refused("misplaced", misplaced, trace=edit.trace)
    if other is not None:
        return refused("not_the_requested_edit", str(other), other, edit.trace)
    if not edit.no_change and _count_of(spec) == 1:
        # Where old_string is as like two places, the instruction picks, not the model.
        untold = guard.why_not_the_one_pointed_at(
            text=current.text, closest=closest, spans=edit.spans, instruction=spec.instruction
        )
        if untold is not None:
            return refused("not_pointed_at", untold, trace=edit.trace)
    return accepted(edit, "no_change" if edit.no_change else "corrected")


# A line as the fixer's prompt shows the file: its number, right-aligned, and a tab.
_SHOWN_NUMBER = re.compile(r"^ *([0-9]+)\t")


def without_shown_numbers(text: str, correction: Correction) -> Correction | None:
    """``correction`` with the line numbers the prompt showed taken off its search (and off
    the lines of its replace that carry them), when every line of the search carries one,
    numbered in order, and the numbered search is not the file's own text. ``None`` when
    it does not look so."""
    search = to_lf(correction.search)
    lines = search.split("\n")
    if search.endswith("\n"):
        lines.pop()
    numbers = [_SHOWN_NUMBER.match(line) for line in lines]
    if not lines or any(number is None for number in numbers) or search in to_lf(text):
        return None
    values = [int(number.group(1)) for number in numbers if number is not None]
    if values != list(range(values[0], values[0] + len(values))):
        return None

    def unnumbered(part: str) -> str:
        return "\n".join(_SHOWN_NUMBER.sub("", line, count=1) for line in part.split("\n"))

    return dataclasses.replace(
        correction,
        search=unnumbered(search),
        replace=unnumbered(to_lf(correction.replace))
        if isinstance(correction.replace, str)
        else correction.replace,
    )


def _of_the_answer(sentence: str) -> str:
    """An error's sentence about the agent's fields, said of the model's answer."""
    return (
        sentence.replace("old_string", "its search text")
        .replace("new_string", "its replacement")
        .rstrip(".")
    )


def _count_of(spec: EditSpec) -> int | None:
    """The places the request changes: ``None`` for all of them (replace_all)."""
    if spec.replace_all:
        return None
    return spec.expected_replacements or 1


def _not_applied_where_meant(
    guard: RelatednessGuard, closest: tuple[Region, ...], count: int | None = 1
) -> str:
    contenders = guard.contenders(closest)
    meant = ", ".join(region.describe() for region in contenders[:_PLACES_LISTED])
    meant += (
        f" and {len(contenders) - _PLACES_LISTED:,} more"
        if len(contenders) > _PLACES_LISTED
        else ""
    )
    where = f" ({meant})" if meant else ""
    if count != 1:
        wanted = "every place" if count is None else f"{count} places"
        return (
            f"it said no change was needed, but the request changes {wanted}, and new_string "
            f"does not stand in place of what old_string quotes at each of them{where}"
        )
    return (
        "it said no change was needed, but new_string is not in the file where old_string "
        f"most nearly is{where}, in place of what old_string quotes"
    )


def _as_of_now(first: NoMatch, now: MatchError) -> tuple[NoMatch, list[str]]:
    """The error to answer with when the file changed during the call, and the notes to
    add to it: the first read's snippet and line numbers are stale, so a refusal shows the
    current text and says the file changed."""
    changed = (
        "The file changed on disk while the LLM fixer ran: this error describes its "
        "current content, not what you read."
    )
    if isinstance(now, NoMatch):
        fresh = NoMatch(now.message, closest=now.closest, hint=now.hint, trace=now.trace)
        return fresh, [*first.notes_for_agent, changed]
    first_line = now.message.splitlines()[0] if now.message else now.code
    return first, [
        f"The file changed on disk while the LLM fixer ran; on its current content, {first_line}"
    ]


def _search_failed(error: MatchError) -> str:
    """Why the fixer's search text failed, said of *its* search, never of old_string."""
    if isinstance(error, AmbiguousMatch):
        places = ", ".join(region.describe() for region in error.candidates[:_PLACES_LISTED])
        more = len(error.candidates) - _PLACES_LISTED
        places += f" and {more:,} more" if more > 0 else ""
        return f"it matches {len(error.candidates)} places: {places}"
    if isinstance(error, CountMismatch):
        return f"it matches {error.found} places, not the {error.expected} expected"
    if isinstance(error, NoMatch):
        return "it is not in the file"
    first_line = error.message.splitlines()[0] if error.message else error.code
    return first_line.replace("old_string", "its search text")
