"""Corrections the engine just wrote: which requests they answer, and the plan they make."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from editengine._errors import NoMatch
from editengine._state import FixerCall
from editengine.engine._jobs import Job, NeedsFix, edit_job
from editengine.engine._landed import LandedCorrections, landed_plan
from editengine.files import FileSnapshot, Target
from editengine.fixer._protocol import Correction, FixRequest

CORRECTION = Correction(
    "a = 1", "a = 2", explanation="quoted a stale value", provider="openai", model="gpt-x"
)


def _job(old: str = "a = l", *, dry_run: bool = False) -> Job:
    return edit_job(
        "src/a.py",
        old,
        "a = 2",
        instruction=None,
        replace_all=False,
        expected_replacements=None,
        match_mode="auto",
        dry_run=dry_run,
        expected_hash=None,
        check_match_mode=lambda mode: None,
    )


def _step(job: Job, real: str = "/ws/src/a.py") -> NeedsFix:
    spec = job.specs[0]
    target = Target("src/a.py", Path(real), Path(real))
    request = FixRequest("src/a.py", "a = 1\n", spec.old_string, spec.new_string, NoMatch("no"))
    return NeedsFix(target, FileSnapshot(True, "a = 1\n", "h0"), NoMatch("no"), request)


class TestWhichRequestsLand:
    def test_the_same_request_on_the_written_content_is_answered(self):
        landed, job = LandedCorrections(), _job()
        landed.record(job, _step(job), "h1", CORRECTION)
        assert landed.landed(_job(), _step(_job()), "h1") == CORRECTION
        assert landed.landed(_job(), _step(_job()), "h2") is None

    def test_another_old_string_is_another_request(self):
        landed, job = LandedCorrections(), _job()
        landed.record(job, _step(job), "h1", CORRECTION)
        other = _job("a = I")
        assert landed.landed(other, _step(other), "h1") is None

    def test_the_same_request_on_another_file_is_another_request(self):
        landed, job = LandedCorrections(), _job()
        landed.record(job, _step(job), "h1", CORRECTION)
        assert landed.landed(job, _step(job, real="/ws/src/b.py"), "h1") is None

    def test_a_dry_run_is_another_request(self):
        landed, job = LandedCorrections(), _job()
        landed.record(job, _step(job), "h1", CORRECTION)
        dry = _job(dry_run=True)
        assert landed.landed(dry, _step(dry), "h1") is None


class TestHowManyAreKept:
    @staticmethod
    def _record(landed: LandedCorrections, count: int) -> list[Job]:
        jobs = [_job(f"a = {n}") for n in range(count)]
        for n, job in enumerate(jobs):
            landed.record(job, _step(job), f"h{n}", CORRECTION)
        return jobs

    def test_sixty_four_by_default_the_oldest_forgotten_first(self):
        landed = LandedCorrections()
        jobs = self._record(landed, 65)
        found = [landed.landed(job, _step(job), f"h{n}") for n, job in enumerate(jobs)]
        assert found[0] is None
        assert all(correction == CORRECTION for correction in found[1:])

    def test_recording_a_request_again_makes_it_the_newest(self):
        landed = LandedCorrections(maxsize=2)
        first, second, third = _job("x"), _job("y"), _job("z")
        landed.record(first, _step(first), "h1", CORRECTION)
        landed.record(second, _step(second), "h2", CORRECTION)
        landed.record(first, _step(first), "h1", CORRECTION)
        landed.record(third, _step(third), "h3", CORRECTION)
        assert landed.landed(first, _step(first), "h1") == CORRECTION
        assert landed.landed(second, _step(second), "h2") is None
        assert landed.landed(third, _step(third), "h3") == CORRECTION


class TestLandedPlan:
    @staticmethod
    def _plan(job: Job, correction: Correction = CORRECTION) -> dict[str, Any]:
        step = _step(job)
        current = FileSnapshot(True, "a = 2\n", "h1")

        def make_plan(target, snapshot, computed, **options):  # type: ignore[no-untyped-def]  # a stand-in plan maker
            return {"target": target, "snapshot": snapshot, "computed": computed, **options}

        return landed_plan(job, step, current, correction, make_plan)  # type: ignore[return-value]  # a stand-in plan maker

    def test_makes_a_no_change_plan_on_the_current_file(self):
        job = _job()
        plan = self._plan(job)
        computed = plan["computed"]
        assert (computed.new_content, computed.replacements) == ("a = 2\n", 0)
        assert (computed.strategy, computed.no_change) == ("already_applied", True)
        assert plan["snapshot"].sha256 == "h1"
        assert plan["corrected_by_fixer"] is True
        assert plan["fixer_explanation"] == "quoted a stale value"

    def test_without_an_explanation_names_none(self):
        plan = self._plan(_job(), Correction("a = 1", "a = 2"))
        assert plan["fixer_explanation"] is None

    def test_found_on_the_first_read_records_a_cache_hit_of_that_provider(self):
        job = _job()
        self._plan(job)
        fixer = job.state.fixer
        assert fixer is not None
        assert (fixer.provider, fixer.model, fixer.cache_hit) == ("openai", "gpt-x", True)
        assert fixer.outcome == "no_change"
        assert fixer.note == "an identical edit applied this correction already"
        assert job.notes == [
            "An identical edit (sent at the same time, or just before) already applied this "
            "change through the LLM fixer; the file holds exactly its result, so nothing was "
            "written."
        ]

    def test_after_a_model_call_keeps_that_calls_figures(self):
        job = _job()
        job.state.fixer = FixerCall(provider="anthropic", model="claude-x", input_tokens=120)
        self._plan(job)
        fixer = job.state.fixer
        assert (fixer.provider, fixer.input_tokens, fixer.cache_hit) == ("anthropic", 120, False)
        assert fixer.outcome == "no_change"
