"""The fixer step's helpers: how a failed search is described, what a changed file does
to the error, what a failed call records, and the fixer's deadline as telemetry sees it."""

from __future__ import annotations

import hashlib
import time
from types import SimpleNamespace

import pytest

from editengine import edit_text
from editengine._edits import EditSpec
from editengine._errors import (
    AmbiguousMatch,
    CountMismatch,
    FileNotFound,
    InvalidCorrection,
    MatchError,
    NoMatch,
    UnmatchedElision,
)
from editengine._results import Region
from editengine._state import EditState
from editengine.engine import _fixing as fixing
from editengine.engine import _judging as judging
from editengine.engine._jobs import Job, NeedsFix
from editengine.files._reading import FileSnapshot
from editengine.fixer._protocol import Correction, FixRequest
from editengine.verdict import NotTheRequestedEdit, RelatednessGuard


def test_an_ambiguous_search_is_described_by_its_places() -> None:
    error = AmbiguousMatch("x", candidates=(Region(2, 2), Region(7, 9)), tier="exact")
    assert judging._search_failed(error) == "it matches 2 places: line 2, lines 7-9"


def test_a_search_with_the_wrong_count_says_both_counts() -> None:
    error = CountMismatch("x", expected=1, found=3)
    assert judging._search_failed(error) == "it matches 3 places, not the 1 expected"


def test_a_search_not_found_is_said_to_be_absent() -> None:
    assert judging._search_failed(NoMatch("old_string is not in f.py")) == "it is not in the file"


def test_another_refusal_of_the_search_speaks_of_the_search_not_old_string() -> None:
    error = UnmatchedElision("old_string elides nothing\nsecond line")
    assert judging._search_failed(error) == "its search text elides nothing"
    assert judging._search_failed(MatchError("")) == "match_error"


def test_a_no_match_on_the_changed_file_replaces_the_first_error_and_keeps_its_notes() -> None:
    first = NoMatch("first read", closest=(Region(1, 1, 0.5),))
    first.add_note_for_agent("an earlier note")
    now = NoMatch("now", closest=(Region(8, 9, 0.7),), hint="look at lines 8-9")
    error, notes = judging._as_of_now(first, now)
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
    error, notes = judging._as_of_now(first, now)
    assert error is first
    assert notes == [
        "The file changed on disk while the LLM fixer ran; on its current content, "
        "old_string matches 2 places"
    ]
    _, notes = judging._as_of_now(first, MatchError(""))
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
    call = fixing._fixer_call(None, bare)  # type: ignore[arg-type]  # no fixer: a stand-in
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
    shared.shared_call = True  # type: ignore[attr-defined]  # a test double put in place
    engine = make_engine(fixer=fake_fixer(shared), telemetry=observer)
    with pytest.raises(NoMatch):
        engine.edit("g.py", WRONG_OLD, NEW)
    assert observer.events[-1][1].fixer.cache_hit is True


# ------------------------------------------------------------------ the judgement itself

FILE = "def total(rows):\n    s = 0\n    for r in rows:\n        s += r.amount\n    return s\n"
SPEC = EditSpec("    s += r.amout\n", "    s += r.amount * r.rate\n")


def _snapshot(text: str) -> FileSnapshot:
    data = text.encode()
    return FileSnapshot(True, text, hashlib.sha256(data).hexdigest(), len(data))


def _judge(correction: Correction, now: str = FILE, spec: EditSpec = SPEC) -> judging.Verdict:
    try:
        edit_text(FILE, spec.old_string, spec.new_string, match_mode="exact")
    except NoMatch as error:
        request = FixRequest("f.py", FILE, spec.old_string, spec.new_string, error, "why")
        step = NeedsFix(None, _snapshot(FILE), error, request)  # type: ignore[arg-type]  # no target: a stand-in
    return judging.judge_correction(
        spec,
        step,
        _snapshot(now),
        correction,
        run=lambda text, old, new: edit_text(text, old, new),
        guard=RelatednessGuard(),
    )


def _why(correction: Correction, now: str = FILE) -> str:
    decision = _judge(correction, now).decision
    assert isinstance(decision, judging.Refused)
    return decision.why


@pytest.mark.parametrize(
    ("search", "replace", "why"),
    [
        ("", "x", "its search text is empty"),
        (None, "x", "its search text is empty"),
        ("    s += r.amount\n", None, "its replacement is not text"),
        ("    s += r.amount\n", "    s += r.amount\n", "its search and replace are identical"),
    ],
)
def test_an_unusable_answer_is_refused_saying_what_is_wrong_with_it(search, replace, why) -> None:
    assert _why(Correction(search, replace)) == why  # type: ignore[arg-type]  # a stand-in, not the real type


def test_a_search_cut_inside_a_word_is_refused_before_it_is_placed() -> None:
    why = _why(Correction("s += r.amoun", "s += r.amount * r.rate"))
    assert why.startswith("its search text starts or ends inside a word of the file")


def test_a_search_the_cascade_cannot_place_is_refused_with_the_cascade_s_reason() -> None:
    why = _why(Correction("    s += r.total\n", "    s += r.total * r.rate\n"))
    assert why == "its search text does not place the edit safely (it is not in the file)"


def test_an_answer_that_changes_nothing_elsewhere_is_refused() -> None:
    # The answer's search and replace agree with the request, but the file already reads
    # as its replace somewhere that is not where old_string meant.
    text = FILE + "\n\ndef other(rows):\n    t = 0\n    t += r.amount * r.rate\n"
    why = _why(Correction("    t += r.amount\n", "    t += r.amount * r.rate\n"), now=text)
    assert why == "it changes nothing and new_string is not where old_string meant"


def test_a_no_change_answer_elsewhere_is_refused_naming_where_old_string_most_nearly_is() -> None:
    assert _why(Correction("", "", no_changes_required=True)) == (
        "it said no change was needed, but new_string is not in the file where old_string "
        "most nearly is (line 4 (96% similar)), in place of what old_string quotes"
    )


CHANGED = "# header\n" + FILE
NOTED = (
    "The file changed on disk while the LLM fixer ran; the correction was checked against "
    "the new content."
)


def test_a_correction_checked_on_a_changed_file_is_placed_by_the_file_s_new_lines() -> None:
    verdict = _judge(Correction("    s += r.amount\n", "    s += r.amount * r.rate\n"), CHANGED)
    assert isinstance(verdict.decision, judging.Accepted)
    assert verdict.decision.edit.new_content == CHANGED.replace("r.amount\n", "r.amount * r.rate\n")
    assert verdict.notes == (NOTED,)
    assert verdict.recheck and verdict.fix_pass
    assert verdict.error.closest[0].start_line == 5  # where old_string most nearly is now


def test_a_refusal_on_a_changed_file_answers_with_the_error_of_its_current_content() -> None:
    verdict = _judge(Correction("    s += r.total\n", "    s += r.total * r.rate\n"), CHANGED)
    assert isinstance(verdict.decision, judging.Refused)
    assert verdict.notes == (NOTED,)
    assert verdict.error_notes == (
        "The file changed on disk while the LLM fixer ran: this error describes its "
        "current content, not what you read.",
    )
    assert verdict.error.closest[0].start_line == 5
    assert verdict.recheck and verdict.error.trace == verdict.recheck


def test_a_no_change_answer_on_a_changed_file_looks_where_old_string_is_now() -> None:
    # The place meant moved down a line; new_string stands there now.
    now = "# header\n" + FILE.replace("        s += r.amount\n", "        s += r.amount * r.rte\n")
    verdict = _judge(Correction("", "", no_changes_required=True), now)
    assert isinstance(verdict.decision, judging.Refused)
    assert "(line 5 (" in verdict.decision.why


def test_the_model_s_explanation_is_kept_and_an_empty_one_is_none() -> None:
    answer = Correction("    s += r.amount\n", "    s += r.amount * r.rate\n", explanation="typo")
    decision = _judge(answer).decision
    assert isinstance(decision, judging.Accepted)
    assert (decision.explanation, decision.fixer_outcome, decision.by_fixer) == (
        "typo",
        "corrected",
        True,
    )
    bare = _judge(Correction("    s += r.amount\n", "    s += r.amount * r.rate\n")).decision
    assert isinstance(bare, judging.Accepted) and bare.explanation is None


def test_a_file_changed_so_that_the_original_edit_matches_needs_no_correction() -> None:
    now = FILE.replace("r.amount\n", "r.amout\n")
    verdict = _judge(Correction("    s += r.amount\n", "    s += r.amount * r.rate\n"), now)
    decision = verdict.decision
    assert isinstance(decision, judging.Accepted)
    assert decision.edit.new_content == FILE.replace("r.amount\n", "r.amount * r.rate\n")
    assert (decision.by_fixer, decision.fixer_outcome) == (False, None)
    assert decision.fixer_note == "not used: the original edit matched the changed file"
    assert verdict.notes == (
        "The file changed on disk while the LLM fixer ran; the original edit matches the new "
        "content, so it was applied as given.",
    )
    assert isinstance(verdict.error, NoMatch) and verdict.error_notes == ()
    assert verdict.recheck == tuple(decision.edit.trace) and verdict.recheck


def test_a_changed_file_where_old_string_is_now_ambiguous_keeps_both_places_in_view() -> None:
    # The typo now stands twice: the re-check is ambiguous, and its places are where a
    # "no change needed" answer is looked for.
    now = FILE.replace("        s += r.amount\n", "        s += r.amout\n        s += r.amout\n")
    verdict = _judge(Correction("", "", no_changes_required=True), now)
    assert isinstance(verdict.decision, judging.Refused)
    assert "line 4" in verdict.decision.why and "line 5" in verdict.decision.why
    assert verdict.error_notes[0].startswith(
        "The file changed on disk while the LLM fixer ran; on its current content,"
    )


def test_a_refusal_carries_the_cascade_s_error_and_the_trace_of_placing_the_search() -> None:
    verdict = _judge(Correction("    s += r.total\n", "    s += r.total * r.rate\n"))
    decision = verdict.decision
    assert isinstance(decision, judging.Refused) and isinstance(decision.cause, NoMatch)
    assert verdict.fix_pass == tuple(decision.cause.trace) and verdict.fix_pass
    assert verdict.error_notes == () and verdict.recheck == ()


def test_an_answer_that_changes_nothing_elsewhere_keeps_its_trace() -> None:
    text = FILE + "\n\ndef other(rows):\n    t = 0\n    t += r.amount * r.rate\n"
    verdict = _judge(Correction("    t += r.amount\n", "    t += r.amount * r.rate\n"), now=text)
    assert isinstance(verdict.decision, judging.Refused) and verdict.fix_pass


def test_the_fixer_is_told_whether_to_replace_all_and_how_many(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    fixer = fake_fixer(RuntimeError("no answer"))
    with pytest.raises(NoMatch):
        make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW, expected_replacements=1)
    assert fixer.requests[0].expected_replacements == 1
    fixer = fake_fixer(RuntimeError("no answer"))
    with pytest.raises(NoMatch):
        make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW, replace_all=True)
    assert fixer.requests[0].replace_all is True


GOOD = Correction("    return 'hello ' + name", "    return 'hi ' + name", provider="p")


def test_a_successful_call_records_the_fixer_s_deadline(make_engine, write, fake_fixer, observer):
    write("g.py", SOURCE)
    fixer = fake_fixer(GOOD)
    fixer.timeout = 2
    make_engine(fixer=fixer, telemetry=observer).edit("g.py", WRONG_OLD, NEW)
    call = observer.events[-1][1].fixer
    assert (call.provider, call.outcome, call.deadline_ms) == ("p", "corrected", 2000.0)


async def test_an_async_call_records_the_deadline_and_the_failure(
    make_engine, write, fake_fixer, observer
) -> None:
    write("g.py", SOURCE)
    fixer = fake_fixer(GOOD)
    fixer.timeout = 2
    await make_engine(fixer=fixer, telemetry=observer).aedit("g.py", WRONG_OLD, NEW)
    assert observer.events[-1][1].fixer.deadline_ms == 2000.0
    assert fixer.requests[0].old_string == WRONG_OLD
    write("g.py", SOURCE)
    failing = fake_fixer(RuntimeError("bug in a fixer"))
    failing.timeout = 3
    with pytest.raises(NoMatch):
        await make_engine(fixer=failing, telemetry=observer).aedit("g.py", WRONG_OLD, NEW)
    call = observer.events[-1][1].fixer
    assert (call.outcome, call.deadline_ms) == ("error", 3000.0)
    assert call.note == "RuntimeError('bug in a fixer')"


def test_an_unexpected_fixer_crash_is_logged_and_a_fixer_error_is_not(
    make_engine, write, fake_fixer, caplog
) -> None:
    write("g.py", SOURCE)
    with caplog.at_level("WARNING", logger="editengine"), pytest.raises(NoMatch):
        make_engine(fixer=fake_fixer(RuntimeError("bug"))).edit("g.py", WRONG_OLD, NEW)
    (record,) = [r for r in caplog.records if r.name == "editengine"]
    assert record.getMessage() == "the fixer raised an unexpected error"
    assert record.exc_info and isinstance(record.exc_info[1], RuntimeError)
    caplog.clear()
    with caplog.at_level("WARNING", logger="editengine"), pytest.raises(NoMatch):
        make_engine(fixer=fake_fixer(InvalidCorrection("bad"))).edit("g.py", WRONG_OLD, NEW)
    assert not [r for r in caplog.records if r.name == "editengine"]


TYPO_FIX = EditSpec("    s += r.amout\n", "    s += r.amount\n")


def test_a_no_change_answer_where_new_string_stands_is_accepted_as_changing_nothing() -> None:
    verdict = _judge(Correction("", "", no_changes_required=True), spec=TYPO_FIX)
    decision = verdict.decision
    assert isinstance(decision, judging.Accepted)
    assert (decision.edit.replacements, decision.edit.strategy) == (0, "already_applied")
    assert decision.edit.no_change and decision.edit.new_content == FILE
    assert (decision.fixer_outcome, decision.by_fixer) == ("no_change", True)
    assert isinstance(verdict.error, NoMatch) and verdict.error_notes == ()


def test_a_correction_placed_away_from_the_place_meant_is_refused_with_its_trace() -> None:
    verdict = _judge(Correction("    s = 0\n", "    s = 0 * r.rate\n"))
    assert isinstance(verdict.decision, judging.Refused)
    assert verdict.decision.why.startswith("it pointed elsewhere")
    assert verdict.fix_pass


def test_an_answer_with_another_edit_is_refused_with_the_disagreement_as_its_cause() -> None:
    verdict = _judge(Correction("    s += r.amount\n", "    s -= r.amount * r.rate\n"))
    assert isinstance(verdict.decision, judging.Refused)
    assert isinstance(verdict.decision.cause, NotTheRequestedEdit)
    assert verdict.decision.why == str(verdict.decision.cause) and verdict.fix_pass


def test_a_no_change_refusal_names_every_contender_or_none() -> None:
    guard = RelatednessGuard()
    two = (Region(3, 3, 0.9), Region(8, 9, 0.88))
    assert judging._not_applied_where_meant(guard, two) == (
        "it said no change was needed, but new_string is not in the file where old_string "
        "most nearly is (line 3 (90% similar), lines 8-9 (88% similar)), in place of what "
        "old_string quotes"
    )
    assert judging._not_applied_where_meant(guard, ()) == (
        "it said no change was needed, but new_string is not in the file where old_string "
        "most nearly is, in place of what old_string quotes"
    )


def test_a_refused_correction_is_recorded_and_noted_for_the_agent(
    make_engine, write, fake_fixer, observer
) -> None:
    write("g.py", SOURCE)
    answer = Correction("not in the file", "qqq = 7", provider="fake")
    with pytest.raises(NoMatch) as caught:
        make_engine(fixer=fake_fixer(answer), telemetry=observer).edit("g.py", WRONG_OLD, NEW)
    why = "its search text does not place the edit safely (it is not in the file)"
    assert (
        f"The LLM fixer proposed a correction, but {why}. The model's answer was not used; "
        "your old_string still does not match the file, so correct it and try again."
    ) in str(caught.value)
    assert isinstance(caught.value.__cause__, NoMatch)
    call = observer.events[-1][1].fixer
    assert (call.outcome, call.note, call.provider) == ("failed_validation", why, "fake")


def test_a_file_that_changed_into_a_match_records_that_the_answer_was_not_used(
    make_engine, write, fake_fixer, observer
) -> None:
    path = write("g.py", SOURCE)
    fixer = fake_fixer(GOOD, during=lambda request: path.write_text(WRONG_OLD))
    make_engine(fixer=fixer, telemetry=observer).edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == NEW
    call = observer.events[-1][1].fixer
    assert call.note == "not used: the original edit matched the changed file"


def test_a_failed_call_s_latency_is_in_milliseconds(make_engine, write, fake_fixer, observer):
    write("g.py", SOURCE)
    fixer = fake_fixer(RuntimeError("late"), during=lambda request: time.sleep(0.02))
    fixer.provider = SimpleNamespace(name=5, model=7)  # not names: recorded as none
    with pytest.raises(NoMatch):
        make_engine(fixer=fixer, telemetry=observer).edit("g.py", WRONG_OLD, NEW)
    call = observer.events[-1][1].fixer
    assert 20.0 <= call.latency_ms < 60_000.0
    assert (call.provider, call.model) == (None, None)


def _job() -> Job:
    return Job("edit", "f.py", (SPEC,), None, False, None, EditState("f.py"))


def test_settling_without_a_recorded_call_records_one_from_the_answer() -> None:
    job = _job()
    answer = Correction("    s += r.amount\n", "    s += r.amount * r.rate\n", provider="p")
    verdict = _judge(answer)
    decision = fixing.settle(job, answer, verdict)
    assert decision is verdict.decision
    assert (job.state.fixer.provider, job.state.fixer.outcome) == ("p", "corrected")
    assert job.state.fixer_pass_start == 0 and job.state.attempts == list(verdict.fix_pass)


def test_an_outcome_set_without_a_recorded_call_starts_one_and_marks_the_pass() -> None:
    job = _job()
    fixing.set_outcome(job, "failed_validation", "the file was deleted")
    assert (job.state.fixer.outcome, job.state.fixer.note) == (
        "failed_validation",
        "the file was deleted",
    )
    assert job.state.fixer_pass_start == 0


def test_a_file_deleted_while_the_fixer_ran_is_refused_and_recorded(
    make_engine, write, fake_fixer, observer
) -> None:
    path = write("g.py", SOURCE)
    fixer = fake_fixer(GOOD, during=lambda request: path.unlink())
    with pytest.raises(FileNotFound, match="deleted while the LLM fixer ran"):
        make_engine(fixer=fixer, telemetry=observer).edit("g.py", WRONG_OLD, NEW)
    state = observer.events[-1][1]
    assert (state.fixer.outcome, state.fixer.note) == ("failed_validation", "the file was deleted")
    assert state.fixer_pass_start == len(state.attempts)


def test_a_correction_may_rename_a_misquoted_name_to_one_the_file_uses_elsewhere() -> None:
    old = "count = line.qty\nfor line in lines:\n    result += line.cost\n"
    new = old.replace("    result", "    if line.qty == 0:\n        continue\n    result")
    search = "for item in items:\n    total += item.price\n"
    replace = (
        "for item in items:\n    if item.quantity == 0:\n        continue\n"
        "    total += item.price\n"
    )
    text = "count = item.quantity\n" + search
    spec = EditSpec(old, new)
    try:
        edit_text(text, old, new, match_mode="exact")
    except NoMatch as error:
        request = FixRequest("f.py", text, old, new, error, "why")
        step = NeedsFix(None, _snapshot(text), error, request)  # type: ignore[arg-type]  # no target: a stand-in
    verdict = judging.judge_correction(
        spec,
        step,
        _snapshot(text),
        Correction(search, replace),
        run=lambda content, o, n: edit_text(content, o, n),
        guard=RelatednessGuard(),
    )
    assert isinstance(verdict.decision, judging.Accepted)
    assert verdict.decision.edit.new_content == "count = item.quantity\n" + replace


def test_a_correction_the_cascade_finds_applied_where_meant_is_a_no_change() -> None:
    # The file already reads as the request asks; the answer quotes the line before too.
    spec = EditSpec("        s += r.amout\n", "        s += r.amount\n")
    answer = Correction(
        "    for r in rows:\n        s += r.amout\n", "    for r in rows:\n        s += r.amount\n"
    )
    decision = _judge(answer, spec=spec).decision
    assert isinstance(decision, judging.Accepted)
    assert decision.edit.no_change and decision.edit.new_content == FILE
    assert (decision.fixer_outcome, decision.by_fixer) == ("no_change", True)
