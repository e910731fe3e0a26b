"""Every pathological input at 400 KB gives the right answer, in a fresh process.

The timeout only guards against a hang (the machine may be loaded); the figures are
printed by ``editengine bench --pathological``, never asserted here.
"""

from __future__ import annotations

import subprocess

import pytest

from editengine.bench import pathological

HANG_GUARD_SECONDS = 60.0
OWN_CASES = [case.name for case in pathological.CASES]


@pytest.mark.parametrize("name", OWN_CASES)
def test_pathological_input_at_400_kb_answers_right(name):
    try:
        figures = pathological.run_in_subprocess(name, 400_000, timeout=HANG_GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name} at 400 KB did not finish within {HANG_GUARD_SECONDS:g} s (a hang)")
    assert figures["outcome"] == figures["expected"], figures
    assert figures["right"], figures


def test_each_case_builds_an_input_of_about_its_size():
    for case in pathological.CASES:
        if case.prepare is not None:
            continue
        content, old, new = case.build(100_000)
        assert 80_000 <= len(content) <= 120_000, case.name
        assert old and old != new, case.name


def test_a_wrong_outcome_is_reported_as_wrong(monkeypatch):
    case = pathological.case_named("identical_lines")
    wrong = pathological.Case(case.name, case.build, "exact", case.about)
    figures = pathological.run_case(wrong, 5_000)
    assert figures["outcome"] == "ambiguous"
    assert figures["right"] is False


def test_curve_prints_every_size_and_fails_on_a_wrong_answer(capsys, monkeypatch):
    code = pathological.print_curve(["nested_brackets_lines"], [2_000, 8_000], timeout=60.0)
    out = capsys.readouterr().out
    assert code == 0
    assert "2 KB" in out and "8 KB" in out and "line_trimmed" in out

    def wrong(name, size, timeout):
        return {"outcome": "exact", "right": False, "seconds": 0.01}

    monkeypatch.setattr(pathological, "run_in_subprocess", wrong)
    assert pathological.print_curve(["nested_brackets_lines"], [2_000], timeout=1.0) == 1
    assert "WRONG" in capsys.readouterr().out
