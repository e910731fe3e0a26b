"""The LLM fixer step: ask once, then trust nothing it says without checking the file.

A fixer only proposes. Its corrected search is run back through the cascade on the file as
it is *now* (re-read under the lock), with the caller's count rules; what is written there is
the caller's own edit carried onto that search, which the model's replace must agree with
(:class:`~editengine.verdict.RelatednessGuard`). Anything doubtful returns the
caller's original :class:`~editengine.NoMatch` with a note saying why.

Why one long module: asking, judging and settling a correction are the steps of one fixer
pass over the same job, each refusal worded where it is decided.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from editengine._edits import EditSpec
from editengine._errors import (
    AmbiguousMatch,
    CountMismatch,
    EditError,
    FixerError,
    FixerTimeout,
    InvalidCorrection,
    MatchError,
    NoMatch,
)
from editengine._results import Region, TextEdit, TierAttempt
from editengine._state import FixerCall, FixerOutcome
from editengine._text import to_lf
from editengine.engine._jobs import Job, NeedsFix
from editengine.files import FileSnapshot, Target
from editengine.fixer._cache import correction_key
from editengine.fixer._protocol import Correction, Fixer, FixRequest
from editengine.verdict import NotTheRequestedEdit, RelatednessGuard

logger = logging.getLogger("editengine")

# (text, old_string, new_string) -> the cascade's answer under the job's edit rules. (Not
# a matching.base.Match: this is the whole cascade run, not one place a tier found.)
RunCascade = Callable[[str, str, str], TextEdit]

SYNTHESISED_INSTRUCTION = (
    "Replace the code that looks like old_string with new_string, "
    "leaving everything else unchanged."
)


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


def instruction_or_default(instruction: str | None) -> str:
    """The instruction the fixer is given: the agent's, or one prompt for a missing and a
    blank one alike (a blank instruction says nothing more than none)."""
    if instruction is not None and instruction.strip():
        return instruction
    return SYNTHESISED_INSTRUCTION


def fix_request(job: Job, target: Target, snapshot: FileSnapshot, error: NoMatch) -> NeedsFix:
    spec = job.specs[0]
    request = FixRequest(
        file_path=target.display,
        content=snapshot.text,
        old_string=spec.old_string,
        new_string=spec.new_string,
        error=error,
        instruction=instruction_or_default(spec.instruction),
        replace_all=spec.replace_all,
        expected_replacements=spec.expected_replacements,
    )
    return NeedsFix(target, snapshot, error, request)


def ask(fixer: Fixer, job: Job, step: NeedsFix) -> Correction:
    started = time.perf_counter()
    try:
        correction = fixer.correct(step.request)
    except Exception as error:
        raise _fixer_failed(fixer, job, step, error, started) from error
    job.state.fixer = _fixer_call(fixer, correction, step.request)
    return correction


async def aask(fixer: Fixer, job: Job, step: NeedsFix) -> Correction:
    started = time.perf_counter()
    try:
        correction = await fixer.acorrect(step.request)
    except asyncio.CancelledError:
        # The request may have been sent and paid for: the call is recorded, its tokens
        # unknown (no answer came back to count them).
        job.state.fixer = _call_of(fixer, "cancelled", started)
        job.state.fixer.note = "the edit was cancelled while the LLM fixer ran; tokens unknown"
        mark_fixer_pass(job)
        raise
    except Exception as error:
        raise _fixer_failed(fixer, job, step, error, started) from error
    job.state.fixer = _fixer_call(fixer, correction, step.request)
    return correction


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


def settle(job: Job, correction: Correction, verdict: Verdict) -> Accepted:
    """Record ``verdict`` on the job (the traces around the fixer's pass, the fixer's
    outcome, the notes) and return the accepted text, or raise the refusal."""
    if job.state.fixer is None:  # a caller that did not go through ask()
        job.state.fixer = _fixer_call(None, correction)
    job.state.attempts.extend(verdict.recheck)
    mark_fixer_pass(job)
    job.state.attempts.extend(verdict.fix_pass)
    job.notes.extend(verdict.notes)
    decision = verdict.decision
    if isinstance(decision, Refused):
        for note in verdict.error_notes:
            verdict.error.add_note_for_agent(note)
        error = refuse(job, verdict.error, decision.why, decision.reason)
        if decision.cause is not None:
            raise error from decision.cause
        raise error
    if decision.fixer_outcome is not None:
        job.state.fixer.outcome = decision.fixer_outcome
    if decision.fixer_note is not None:
        job.state.fixer.note = decision.fixer_note
    return decision


def refuse(job: Job, error: NoMatch, why: str, reason: str = "refused") -> NoMatch:
    """``error`` (the agent's), noted with why the fixer's answer was not used (``reason``:
    the same as a stable code, for telemetry)."""
    why = clipped(why)
    set_outcome(job, "failed_validation", why, reason)
    error.add_note_for_agent(
        f"The LLM fixer proposed a correction, but {why}. The model's answer was not used; "
        "your old_string still does not match the file, so correct it and try again."
    )
    return error


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


def set_outcome(
    job: Job, outcome: FixerOutcome, note: str, refusal_reason: str | None = None
) -> None:
    if job.state.fixer is None:
        job.state.fixer = FixerCall()
    job.state.fixer.outcome = outcome
    job.state.fixer.note = note
    if refusal_reason is not None:
        job.state.fixer.refusal_reason = refusal_reason
    if job.state.fixer_pass_start is None:
        mark_fixer_pass(job)


def mark_fixer_pass(job: Job) -> None:
    """Tier attempts recorded from now on placed the fixer's correction, not old_string."""
    job.state.fixer_pass_start = len(job.state.attempts)


def _fixer_failed(
    fixer: Fixer, job: Job, step: NeedsFix, error: Exception, started: float
) -> NoMatch:
    """A fixer that fails (or crashes) returns the original error, with a note saying why."""
    if not isinstance(error, FixerError):
        logger.warning("the fixer raised an unexpected error", exc_info=error)
    reason: Any = clipped(
        " ".join(part for part in (error.message, error.hint) if part)
        if isinstance(error, EditError)
        else repr(error)
    )
    call = _call_of(fixer, "timeout" if isinstance(error, FixerTimeout) else "error", started)
    call.note = reason
    if isinstance(error, InvalidCorrection):
        # The model answered and was paid for; its answer was the problem, not an outage.
        call.outcome = "invalid_answer"
        call.provider = error.provider or call.provider
        call.model = error.model or call.model
        call.input_tokens = error.input_tokens
        call.output_tokens = error.output_tokens
        call.prompt_chars = error.prompt_chars
        call.prompt_bytes = error.prompt_bytes
        call.windowed = error.windowed
        reason = (
            f"{reason} The model's answer was at fault, not your edit; "
            "your old_string still does not match the file."
        )
    # A caller that shared a concurrent identical request's call made none of its own.
    call.cache_hit = getattr(error, "shared_call", False) is True
    call.request_key = request_key(step.request)
    job.state.fixer = call
    mark_fixer_pass(job)
    step.error.add_note_for_agent(f"The LLM fixer could not correct it: {reason}")
    return step.error


def request_key(request: FixRequest) -> str:
    """A short fingerprint of what decides the fixer's answer (the cache's key): equal for
    identical requests, so telemetry can tell a repeated request from a new one."""
    return correction_key(request)[:16]


def _call_of(fixer: Fixer, outcome: FixerOutcome, started: float) -> FixerCall:
    """A call that brought no correction back: who was asked, for how long."""
    provider = getattr(fixer, "provider", None)
    provider_name = getattr(provider, "name", None)
    model = getattr(provider, "model", None)
    return FixerCall(
        provider=provider_name if isinstance(provider_name, str) else None,
        model=model if isinstance(model, str) else None,
        outcome=outcome,
        latency_ms=(time.perf_counter() - started) * 1000,
        deadline_ms=_deadline_ms(fixer),
    )


def _fixer_call(
    fixer: Fixer | None, correction: Correction, request: FixRequest | None = None
) -> FixerCall:
    return FixerCall(
        request_key=request_key(request) if request is not None else None,
        provider=correction.provider,
        model=correction.model,
        outcome="corrected",
        latency_ms=correction.latency_ms,
        input_tokens=correction.input_tokens,
        output_tokens=correction.output_tokens,
        cache_hit=correction.cache_hit,
        windowed=correction.windowed,
        prompt_chars=correction.prompt_chars,
        prompt_bytes=getattr(correction, "prompt_bytes", 0),
        prompt_tokens=getattr(correction, "prompt_tokens", 0),
        prompt_budget_bytes=getattr(correction, "prompt_budget_bytes", None),
        deadline_ms=_deadline_ms(fixer),
    )


def _deadline_ms(fixer: Fixer | None) -> float | None:
    """The fixer's configured deadline (``LLMFixer.timeout``, seconds), if it has one."""
    timeout = getattr(fixer, "timeout", None)
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
        return float(timeout) * 1000.0
    return None
