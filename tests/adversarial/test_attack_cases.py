"""The fixer guard over the hand-written corpus of ``attack_cases.py``, through EditEngine.

Independent of ``corpus.json``: other base files, other languages, and answers aimed at how
the guard carries the requested edit onto the model's search (a neighbouring line renamed
into place, a narrowed search that wraps other lines, blank lines and trailing spaces that
are content, a search whose extra context shifts the alignment).
"""

from __future__ import annotations

import pytest

from editengine import edit_text
from editengine._errors import NoMatch

from .attack_cases import SCENARIOS, all_answers
from .attack_runner import Result, run_every


@pytest.fixture(scope="module")
def results() -> list[Result]:
    return list(run_every(all_answers()))


def _id(result: Result) -> str:
    return f"{result.answer.scenario}/{result.answer.kind}"


def test_the_corpus_is_large_and_varied():
    answers = all_answers()
    bad = [answer for answer in answers if not answer.good]
    refused_outright = [answer for answer in bad if not answer.layout_only]
    assert len(refused_outright) >= 100
    assert len([answer for answer in answers if answer.good]) >= 50
    assert len({scenario.language for scenario in SCENARIOS}) >= 10
    assert any("\r\n" in scenario.content for scenario in SCENARIOS)
    assert any("\t" in scenario.content for scenario in SCENARIOS)
    assert any(not scenario.content.isascii() for scenario in SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda scenario: scenario.name)
def test_every_quote_needs_the_fixer(scenario):
    # Only a fixer answer can reach the file, so every answer below tests the guard.
    quotes = {(a.old or scenario.old, a.new or scenario.new) for a in scenario.answers}
    for old, new in quotes:
        with pytest.raises(NoMatch):
            edit_text(scenario.content, old, new)
    assert scenario.content.count(scenario.search) == 1


def test_no_unrequested_change_is_written(results):
    bad = [result for result in results if not result.answer.good]
    assert all(result.asked for result in bad)
    # A model's change nobody asked for never reaches the file...
    assert [_id(r) for r in bad if not r.untouched and not r.as_intended] == []
    # ... and, but for layout the engine replaces by the requested edit's, nothing is written.
    outright = [r for r in bad if not r.answer.layout_only]
    assert [_id(r) for r in outright if not r.untouched] == []
    assert {r.error for r in outright} == {"no_match"}


def test_legitimate_corrections_are_written_exactly(results):
    good = [result for result in results if result.answer.good]
    assert all(result.asked for result in good)
    assert [_id(r) for r in good if not r.as_intended] == []
    assert all(r.error is None for r in good)
