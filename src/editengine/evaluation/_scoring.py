"""Scoring one case: did the file end up exactly as a careful human would have left it?

* ``SUCCESS``: the expected file (``expected_content``, or a file containing
  ``expected_contains``, or, with neither given, any reported success); for a case that
  expects a refusal, the file left untouched (a declined edit, or a no-op success that
  changed nothing). In either case, a reported success that produced exactly
  ``intended_content``, when the case gives it: the file a careful human would produce,
  even where a refusal is acceptable (an edit only an LLM can place, whose scripted answer
  is bad, may still be placed right by the cascade).
* ``REFUSED``: a change was expected, and the file was left untouched.
* ``WRONG``: the file changed into anything else. This is the outcome that matters most: an
  agent that is refused can retry, an agent whose file was silently damaged cannot tell.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from editengine.evaluation._dataset import EvalCase


class Outcome(str, Enum):
    SUCCESS = "success"
    REFUSED = "refused"
    WRONG = "wrong"


@dataclass(frozen=True)
class CaseResult:
    """What one engine did with one case.

    ``new_content`` is the file after the edit; ``None`` means the file was not touched
    (the usual answer of a declined edit).
    """

    ok: bool
    new_content: str | None = None
    strategy: str | None = None
    error_code: str | None = None
    error: str | None = None
    elapsed_ms: float = 0.0
    fixer_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hits: int = 0
    corrected_by_fixer: bool = False


def final_content(case: EvalCase, result: CaseResult) -> str:
    """The file as it stands after the engine ran."""
    return case.content if result.new_content is None else result.new_content


def meets_expectation(case: EvalCase, content: str) -> bool:
    """Exactly ``expected_content``; else containing ``expected_contains``; else any file
    (some peer tests only assert that the edit succeeded)."""
    if case.expected_content is not None:
        return content == case.expected_content
    if case.expected_contains is not None:
        return case.expected_contains in content
    return True


def score(case: EvalCase, result: CaseResult) -> Outcome:
    after = final_content(case, result)
    if result.ok and case.intended_content is not None and after == case.intended_content:
        return Outcome.SUCCESS
    if case.expect == "refuse":
        return Outcome.SUCCESS if after == case.content else Outcome.WRONG
    if result.ok and meets_expectation(case, after):
        return Outcome.SUCCESS
    if after == case.content:
        return Outcome.REFUSED
    return Outcome.WRONG
