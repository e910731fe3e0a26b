"""The LLM fixer on a patch hunk no tier places: what it is asked, when its answer is trusted,
why it is refused (in the error the agent reads), and what telemetry records of the call."""

from __future__ import annotations

from pathlib import Path

import pytest

from editengine import EditEngine, PatchFailed
from editengine._errors import FixerError
from editengine._state import EditState
from editengine.engine._fixing import SYNTHESISED_INSTRUCTION
from editengine.fixer._protocol import Correction, FixRequest

B = "def b():\n    return 2\n"
TYPO = (
    "*** Begin Patch\n*** Update File: src/b.py\n@@\n-    retrun 2\n+    return 20\n*** End Patch"
)


class Fixer:
    """Answers every request with ``answer`` (raised when it is an exception)."""

    def __init__(self, answer: Correction | Exception) -> None:
        self.answer = answer
        self.requests: list[FixRequest] = []

    def correct(self, request: FixRequest) -> Correction:
        self.requests.append(request)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    async def acorrect(self, request: FixRequest) -> Correction:
        return self.correct(request)


class Recorder:
    def __init__(self) -> None:
        self.finished: list[EditState] = []

    def edit_started(self, state: EditState) -> None:
        pass

    def edit_finished(self, state: EditState) -> None:
        self.finished.append(state)


@pytest.fixture
def root(workspace: Path) -> Path:
    (workspace / "src").mkdir()
    (workspace / "src/b.py").write_text(B)
    return workspace


def engine_with(root: Path, tmp_path: Path, fixer: Fixer, recorder: Recorder) -> EditEngine:
    return EditEngine(root, lock_dir=tmp_path / "locks", fixer=fixer, telemetry=recorder)


def test_the_fixer_is_asked_about_the_hunk_with_the_file_and_the_refusal(
    root: Path, tmp_path: Path
) -> None:
    fixer = Fixer(Correction(search="    return 2\n", replace="    return 20\n"))
    engine_with(root, tmp_path, fixer, Recorder()).apply_patch(TYPO)

    [request] = fixer.requests
    assert request.file_path == "src/b.py"
    assert request.content == B
    assert (request.old_string, request.new_string) == ("    retrun 2\n", "    return 20\n")
    assert request.error is not None and request.error.code == "no_match"
    assert request.instruction == SYNTHESISED_INSTRUCTION  # none was given


def test_a_placed_correction_is_written_and_its_cost_recorded(root: Path, tmp_path: Path) -> None:
    answer = Correction(
        search="    return 2\n",
        replace="    return 20\n",
        provider="acme",
        model="m-1",
        latency_ms=12.5,
        input_tokens=70,
        output_tokens=9,
        cache_hit=True,
    )
    recorder = Recorder()

    result = engine_with(root, tmp_path, Fixer(answer), recorder).apply_patch(TYPO)

    assert (root / "src/b.py").read_text() == "def b():\n    return 20\n"
    assert result.hunks[0].corrected_by_fixer and result.results[0].corrected_by_fixer
    [state] = recorder.finished
    assert state.corrected_by_fixer and state.outcome == "success"
    call = state.fixer
    assert call is not None
    assert (call.provider, call.model, call.outcome) == ("acme", "m-1", "corrected")
    assert (call.latency_ms, call.input_tokens, call.output_tokens) == (12.5, 70, 9)
    assert call.cache_hit and call.note is None


def test_no_change_required_is_trusted_when_the_new_text_is_already_there(
    root: Path, tmp_path: Path
) -> None:
    (root / "src/b.py").write_text("def b():\n    return 20\n")
    recorder = Recorder()
    fixer = Fixer(Correction(search="", replace="", no_changes_required=True))

    result = engine_with(root, tmp_path, fixer, recorder).apply_patch(TYPO)

    assert result.summary == "No change: every hunk of the patch is already applied"
    assert (result.hunks[0].strategy, result.hunks[0].no_change) == ("already_applied", True)
    [state] = recorder.finished
    assert state.fixer is not None and state.fixer.outcome == "no_change"
    assert (root / "src/b.py").read_text() == "def b():\n    return 20\n"


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (
            Correction(search="", replace="", no_changes_required=True),
            "it said no change was needed, but the hunk's new text is not in the file",
        ),
        (Correction(search="", replace="x"), "its search text is empty or not text"),
        (Correction(search=3, replace="x"), "its search text is empty or not text"),  # type: ignore[arg-type]  # a wrong type on purpose
        (Correction(search="x", replace=None), "its search text is empty or not text"),  # type: ignore[arg-type]  # a wrong type on purpose
        (Correction(search="def", replace="def"), "its search and replace are identical"),
        (
            Correction(search="def b():\n    return 20\n", replace="def b():\n    return 2\n"),
            "it changes nothing",
        ),
        (
            Correction(search="nowhere", replace="x"),
            "its search text does not place the edit safely (old_string was not found in the "
            "file (tried: exact, line_trimmed, boundary_trim, unescape, unicode_punctuation, "
            "whitespace, elision, block_anchor).)",
        ),
    ],
    ids=["nothing-needed", "empty", "not-text", "replace-not-text", "identical", "no-op", "lost"],
)
def test_a_correction_that_cannot_be_trusted_is_refused_saying_why(
    root: Path, tmp_path: Path, answer: Correction, why: str
) -> None:
    recorder = Recorder()

    with pytest.raises(PatchFailed) as caught:
        engine_with(root, tmp_path, Fixer(answer), recorder).apply_patch(TYPO)

    # The agent reads of the hunk's old lines where the fixer's own note says old_string.
    shown = why.replace("old_string was", "the hunk's old lines (context and '-' lines) were")
    assert f"The LLM fixer proposed a correction, but {shown}." in str(caught.value)
    [state] = recorder.finished
    assert state.fixer is not None
    assert (state.fixer.outcome, state.fixer.note) == ("failed_validation", why)
    assert (root / "src/b.py").read_text() == B


def test_new_text_of_only_spaces_is_not_taken_as_already_there(root: Path, tmp_path: Path) -> None:
    patch = "*** Begin Patch\n*** Update File: src/b.py\n@@\n-    retrun 2\n+    \n*** End Patch"
    fixer = Fixer(Correction(search="", replace="", no_changes_required=True))

    with pytest.raises(PatchFailed) as caught:
        engine_with(root, tmp_path, fixer, Recorder()).apply_patch(patch)

    assert "it said no change was needed, but the hunk's new text is not in the file" in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (FixerError("the quota is spent"), "the quota is spent"),
        (RuntimeError("boom"), "RuntimeError('boom')"),
    ],
    ids=["fixer-error", "any-other-exception"],
)
def test_a_fixer_that_fails_is_named_in_the_error_and_in_telemetry(
    root: Path, tmp_path: Path, failure: Exception, reason: str
) -> None:
    recorder = Recorder()

    with pytest.raises(PatchFailed) as caught:
        engine_with(root, tmp_path, Fixer(failure), recorder).apply_patch(TYPO)

    assert f"The LLM fixer could not correct it: {reason}" in str(caught.value)
    [state] = recorder.finished
    assert state.fixer is not None
    assert (state.fixer.outcome, state.fixer.note) == ("error", reason)
    assert state.fixer.latency_ms > 0


def test_no_change_required_is_trusted_in_a_crlf_file(root: Path, tmp_path: Path) -> None:
    (root / "src/b.py").write_bytes(b"def b():\r\n    return 20\r\n")
    fixer = Fixer(Correction(search="", replace="", no_changes_required=True))

    result = engine_with(root, tmp_path, fixer, Recorder()).apply_patch(TYPO)

    assert result.summary == "No change: every hunk of the patch is already applied"
    assert (root / "src/b.py").read_bytes() == b"def b():\r\n    return 20\r\n"


def test_a_crlf_patch_is_trusted_as_already_there_in_an_lf_file(root: Path, tmp_path: Path) -> None:
    (root / "src/b.py").write_text("def b():\n    return 20\n")
    fixer = Fixer(Correction(search="", replace="", no_changes_required=True))

    result = engine_with(root, tmp_path, fixer, Recorder()).apply_patch(TYPO.replace("\n", "\r\n"))

    assert result.summary == "No change: every hunk of the patch is already applied"


class Clock:
    """Stands in for the time module of the patch code: each reading is the next value."""

    def __init__(self, *readings: float) -> None:
        self.readings = list(readings)

    def perf_counter(self) -> float:
        return self.readings.pop(0)


def test_a_failed_fixer_call_is_timed_and_so_is_the_patch(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from editengine.engine import _patch_fixing, _patch_reporting, _patching

    recorder = Recorder()
    engine = engine_with(root, tmp_path, Fixer(RuntimeError("boom")), recorder)
    # the patch starts, the call starts, the call fails, the patch is refused: one clock
    # read by the patch, its fixer step and its report
    clock = Clock(10.0, 11.0, 11.5, 12.0)
    for module in (_patching, _patch_fixing, _patch_reporting):
        monkeypatch.setattr(module, "time", clock)

    with pytest.raises(PatchFailed):
        engine.apply_patch(TYPO)

    [state] = recorder.finished
    assert state.fixer is not None
    assert state.fixer.latency_ms == pytest.approx(500.0)
    assert state.duration_ms == pytest.approx(2000.0)
