"""The fixer step's check is a pure judgement: it decides on a correction from the request,
the file as it is now and the answer, and records nothing; the engine records the verdict."""

from __future__ import annotations

import hashlib

import pytest

from editengine import edit_text
from editengine._edits import EditSpec
from editengine._errors import EditError, NoMatch
from editengine.engine import _fixing as fixing
from editengine.engine import _judging as judging
from editengine.engine._jobs import NeedsFix
from editengine.files._reading import FileSnapshot
from editengine.fixer._protocol import Correction, FixRequest
from editengine.verdict import RelatednessGuard

FILE = "def total(rows):\n    s = 0\n    for r in rows:\n        s += r.amount\n    return s\n"
SPEC = EditSpec("    s += r.amout\n", "    s += r.amount * r.rate\n")


def snapshot(text: str) -> FileSnapshot:
    data = text.encode()
    return FileSnapshot(True, text, hashlib.sha256(data).hexdigest(), len(data))


def step_for(text: str) -> NeedsFix:
    try:
        edit_text(text, SPEC.old_string, SPEC.new_string, match_mode="exact")
    except NoMatch as error:
        request = FixRequest("f.py", text, SPEC.old_string, SPEC.new_string, error, "why")
        return NeedsFix(target=None, snapshot=snapshot(text), error=error, request=request)  # type: ignore[arg-type]  # no target: a stand-in
    raise AssertionError("the exact tier must refuse the typo")


def run(text: str, old: str, new: str):
    return edit_text(text, old, new)


def judge(correction: Correction, now: str = FILE) -> judging.Verdict:
    step = step_for(FILE)
    notes_before = list(step.error.notes_for_agent)
    verdict = judging.judge_correction(
        SPEC, step, snapshot(now), correction, run=run, guard=RelatednessGuard()
    )
    assert step.error.notes_for_agent == notes_before  # nothing noted on the agent's error
    return verdict


def test_a_sound_correction_is_accepted_with_the_written_text_and_its_trace() -> None:
    verdict = judge(Correction("    s += r.amount\n", "    s += r.amount * r.rate\n"))
    assert isinstance(verdict.decision, judging.Accepted)
    assert verdict.decision.by_fixer and verdict.decision.fixer_outcome == "corrected"
    assert verdict.decision.edit.new_content == FILE.replace("r.amount\n", "r.amount * r.rate\n")
    assert verdict.fix_pass and verdict.fix_pass[0].tier == "exact"
    assert verdict.recheck == () and verdict.notes == ()


def test_an_answer_that_slips_in_another_change_is_refused_with_its_reason() -> None:
    slipped = "    s += r.amount * r.rate\n    return 0\n"
    verdict = judge(Correction("    s += r.amount\n    return s\n", slipped))
    assert isinstance(verdict.decision, judging.Refused)
    assert "it also turns 's' into '0'" in verdict.decision.why
    assert isinstance(verdict.error, NoMatch) and verdict.fix_pass


def test_a_file_changed_during_the_call_where_the_original_now_matches() -> None:
    now = FILE.replace("r.amount", "r.amout")
    verdict = judge(Correction("    s += r.amount\n", "    s += r.amount * r.rate\n"), now=now)
    assert isinstance(verdict.decision, judging.Accepted) and not verdict.decision.by_fixer
    assert verdict.decision.edit.new_content == now.replace("r.amout\n", "r.amount * r.rate\n")
    assert verdict.recheck and verdict.fix_pass == ()
    assert "original edit matches the new content" in verdict.notes[0]


def test_the_engine_records_a_refusal_and_raises_the_agents_error() -> None:
    from editengine.engine._jobs import edit_job

    job = edit_job(
        "f.py", SPEC.old_string, SPEC.new_string, instruction=None, replace_all=False,
        expected_replacements=None, match_mode="auto", dry_run=False, expected_hash=None,
        check_match_mode=lambda mode: None,
    )  # fmt: skip
    slipped = "    s += r.amount * r.rate\n    return 0\n"
    verdict = judge(Correction("    s += r.amount\n    return s\n", slipped))
    with pytest.raises(EditError) as raised:
        fixing.settle(job, Correction("x", "y"), verdict)
    assert raised.value is verdict.error
    assert job.state.fixer is not None and job.state.fixer.outcome == "failed_validation"
    assert job.state.fixer_pass_start == 0
    assert "The LLM fixer proposed a correction, but" in str(raised.value)
