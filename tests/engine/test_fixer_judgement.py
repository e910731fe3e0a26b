"""The fixer step's helpers: how a failed search is described, what a changed file does
to the error, what a failed call records, and the fixer's deadline as telemetry sees it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from editengine._errors import (
    AmbiguousMatch,
    CountMismatch,
    InvalidCorrection,
    MatchError,
    NoMatch,
    UnmatchedElision,
)
from editengine._results import Region
from editengine.engine import _fixing as fixing
from editengine.fixer._protocol import Correction


def test_an_ambiguous_search_is_described_by_its_places() -> None:
    error = AmbiguousMatch("x", candidates=(Region(2, 2), Region(7, 9)), tier="exact")
    assert fixing._search_failed(error) == "it matches 2 places: line 2, lines 7-9"


def test_a_search_with_the_wrong_count_says_both_counts() -> None:
    error = CountMismatch("x", expected=1, found=3)
    assert fixing._search_failed(error) == "it matches 3 places, not the 1 expected"


def test_a_search_not_found_is_said_to_be_absent() -> None:
    assert fixing._search_failed(NoMatch("old_string is not in f.py")) == "it is not in the file"


def test_another_refusal_of_the_search_speaks_of_the_search_not_old_string() -> None:
    error = UnmatchedElision("old_string elides nothing\nsecond line")
    assert fixing._search_failed(error) == "its search text elides nothing"
    assert fixing._search_failed(MatchError("")) == "match_error"


def test_a_no_match_on_the_changed_file_replaces_the_first_error_and_keeps_its_notes() -> None:
    first = NoMatch("first read", closest=(Region(1, 1, 0.5),))
    first.add_note_for_agent("an earlier note")
    now = NoMatch("now", closest=(Region(8, 9, 0.7),), hint="look at lines 8-9")
    error, notes = fixing._as_of_now(first, now)
    assert error is not first and error is not now
    assert (error.message, error.closest, error.hint) == ("now", now.closest, now.hint)
    assert notes == [
        "an earlier note",
        "The file changed on disk while the LLM fixer ran: this error describes its "
        "current content, not what you read.",
    ]


def test_another_refusal_on_the_changed_file_keeps_the_first_error_with_its_first_line() -> None:
    first = NoMatch("first read")
    now = AmbiguousMatch("old_string matches 2 places\ndetails", candidates=(), tier="exact")
    error, notes = fixing._as_of_now(first, now)
    assert error is first
    assert notes == [
        "The file changed on disk while the LLM fixer ran; on its current content, "
        "old_string matches 2 places"
    ]
    _, notes = fixing._as_of_now(first, MatchError(""))
    assert notes[0].endswith("on its current content, match_error")


@pytest.mark.parametrize(
    ("timeout", "deadline_ms"),
    [(40, 40000.0), (0.5, 500.0), (0, None), (-1, None), (True, None), ("40", None)],
)
def test_the_deadline_recorded_is_a_positive_number_of_seconds(timeout, deadline_ms) -> None:
    assert fixing._deadline_ms(SimpleNamespace(timeout=timeout)) == deadline_ms
    assert fixing._deadline_ms(None) is None


def test_a_correction_s_call_is_recorded_field_by_field() -> None:
    correction = Correction(
        search="a",
        replace="b",
        provider="p",
        model="m",
        latency_ms=12.5,
        input_tokens=100,
        output_tokens=20,
        cache_hit=True,
        windowed=True,
        prompt_chars=300,
        prompt_bytes=310,
        prompt_tokens=80,
        prompt_budget_bytes=4096,
    )
    call = fixing._fixer_call(SimpleNamespace(timeout=2), correction)
    assert (call.provider, call.model, call.outcome, call.latency_ms) == (
        "p",
        "m",
        "corrected",
        12.5,
    )
    assert (call.input_tokens, call.output_tokens, call.cache_hit, call.windowed) == (
        100,
        20,
        True,
        True,
    )
    assert (call.prompt_chars, call.prompt_bytes, call.prompt_tokens) == (300, 310, 80)
    assert call.prompt_budget_bytes == 4096 and call.deadline_ms == 2000.0


def test_a_correction_without_prompt_figures_records_zero_and_no_budget() -> None:
    bare = SimpleNamespace(
        provider=None,
        model=None,
        latency_ms=0.0,
        input_tokens=0,
        output_tokens=0,
        cache_hit=False,
        windowed=False,
        prompt_chars=0,
    )
    call = fixing._fixer_call(None, bare)  # type: ignore[arg-type]
    assert (call.prompt_bytes, call.prompt_tokens, call.prompt_budget_bytes) == (0, 0, None)
    assert call.deadline_ms is None


SOURCE = "def greet(name):\n    return 'hello ' + name\n"
WRONG_OLD = "def greeting(person_name):\n    return 'hello ' + person_name\n"
NEW = "def greeting(person_name):\n    return 'hi ' + person_name\n"


def test_an_invalid_answer_records_what_the_call_cost_and_blames_the_model(
    make_engine, write, fake_fixer, observer
) -> None:
    write("g.py", SOURCE)
    invalid = InvalidCorrection(
        "the answer is not JSON.", input_tokens=70, output_tokens=9, provider="p", model="m"
    )
    invalid.prompt_chars, invalid.prompt_bytes, invalid.windowed = 400, 410, True
    engine = make_engine(fixer=fake_fixer(invalid), telemetry=observer)
    with pytest.raises(NoMatch) as caught:
        engine.edit("g.py", WRONG_OLD, NEW)
    assert (
        "The LLM fixer could not correct it: the answer is not JSON. The model's answer was "
        "at fault, not your edit; your old_string still does not match the file."
    ) in str(caught.value)
    call = observer.events[-1][1].fixer
    assert (call.outcome, call.provider, call.model) == ("invalid_answer", "p", "m")
    assert (call.input_tokens, call.output_tokens) == (70, 9)
    assert (call.prompt_chars, call.prompt_bytes, call.windowed) == (400, 410, True)
    assert call.cache_hit is False and call.latency_ms >= 0


def test_a_failed_call_names_the_fixer_s_provider_and_model(
    make_engine, write, fake_fixer, observer
) -> None:
    write("g.py", SOURCE)
    fixer = fake_fixer(RuntimeError("bug in a fixer"))
    fixer.provider = SimpleNamespace(name="prov", model="mod-1")
    fixer.timeout = 3
    engine = make_engine(fixer=fixer, telemetry=observer)
    with pytest.raises(NoMatch) as caught:
        engine.edit("g.py", WRONG_OLD, NEW)
    assert "The LLM fixer could not correct it: RuntimeError('bug in a fixer')" in str(caught.value)
    state = observer.events[-1][1]
    call = state.fixer
    assert (call.provider, call.model, call.outcome, call.deadline_ms) == (
        "prov",
        "mod-1",
        "error",
        3000.0,
    )
    assert call.note == "RuntimeError('bug in a fixer')"
    assert state.fixer_pass_start == len(state.attempts)


def test_a_call_shared_with_a_concurrent_caller_counts_as_a_cache_hit(
    make_engine, write, fake_fixer, observer
) -> None:
    write("g.py", SOURCE)
    shared = InvalidCorrection("cut off.")
    shared.shared_call = True  # type: ignore[attr-defined]
    engine = make_engine(fixer=fake_fixer(shared), telemetry=observer)
    with pytest.raises(NoMatch):
        engine.edit("g.py", WRONG_OLD, NEW)
    assert observer.events[-1][1].fixer.cache_hit is True
