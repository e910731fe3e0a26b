"""The LLM fixer step: ask once, then trust nothing it says without checking the file.

A fixer only proposes. Its answer is judged (:mod:`._judging`) against the file as it is
*now* (re-read under the lock); this module asks the fixer (sync or async, timed, its
failures worded for the agent), settles the verdict on the job (traces, the fixer's outcome,
notes) and records the call. Anything doubtful returns the caller's original
:class:`~editengine.NoMatch` with a note saying why.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from editengine._errors import EditError, FixerError, FixerTimeout, InvalidCorrection, NoMatch
from editengine._state import FixerCall, FixerOutcome
from editengine.engine._jobs import Job, NeedsFix
from editengine.engine._judging import Accepted, Refused, Verdict, clipped
from editengine.files import FileSnapshot, Target
from editengine.fixer._cache import correction_key
from editengine.fixer._protocol import Correction, Fixer, FixRequest

logger = logging.getLogger("editengine")


SYNTHESISED_INSTRUCTION = (
    "Replace the code that looks like old_string with new_string, "
    "leaving everything else unchanged."
)


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
