from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._scoring import CaseResult, Outcome, score

CONTENT = "a = 1\nb = 2\n"
EXPECTED = "a = 1\nb = 3\n"


def success_case(**kw) -> EvalCase:
    base = dict(
        id="c",
        content=CONTENT,
        old_string="b = 2",
        new_string="b = 3",
        expect="success",
        expected_content=EXPECTED,
    )
    base.update(kw)
    return EvalCase(**base)


def refuse_case() -> EvalCase:
    return EvalCase(
        id="r", content=CONTENT, old_string="c = 9", new_string="c = 8", expect="refuse"
    )


def test_expected_file_is_success():
    assert score(success_case(), CaseResult(ok=True, new_content=EXPECTED)) is Outcome.SUCCESS


def test_declined_edit_with_file_untouched_is_refused():
    result = CaseResult(ok=False, error_code="no_match")
    assert score(success_case(), result) is Outcome.REFUSED


def test_any_other_file_is_wrong():
    result = CaseResult(ok=True, new_content="a = 1\nb = 3")  # lost the final newline
    assert score(success_case(), result) is Outcome.WRONG


def test_a_failure_that_still_changed_the_file_is_wrong():
    result = CaseResult(ok=False, new_content="", error_code="write_failed")
    assert score(success_case(), result) is Outcome.WRONG


def test_ok_answer_that_left_the_file_alone_is_refused_not_success():
    result = CaseResult(ok=True, new_content=CONTENT, strategy="no_op")
    assert score(success_case(), result) is Outcome.REFUSED


def test_refusal_where_refusal_expected_is_success():
    assert score(refuse_case(), CaseResult(ok=False, error_code="ambiguous")) is Outcome.SUCCESS


def test_no_op_success_on_a_refuse_case_is_success():
    result = CaseResult(ok=True, new_content=CONTENT, strategy="no_op")
    assert score(refuse_case(), result) is Outcome.SUCCESS


def test_edit_on_a_refuse_case_is_wrong():
    result = CaseResult(ok=True, new_content="a = 1\nc = 8\n")
    assert score(refuse_case(), result) is Outcome.WRONG


def test_already_applied_case_succeeds_only_when_reported_ok():
    case = success_case(content=EXPECTED, expected_content=EXPECTED)
    assert score(case, CaseResult(ok=True, new_content=EXPECTED)) is Outcome.SUCCESS
    assert score(case, CaseResult(ok=False, error_code="no_match")) is Outcome.REFUSED


def test_expected_contains_is_enough_when_no_full_file_is_given():
    case = success_case(expected_content=None, expected_contains="b = 3")
    assert score(case, CaseResult(ok=True, new_content="x\nb = 3\n")) is Outcome.SUCCESS
    assert score(case, CaseResult(ok=True, new_content="x\nb = 4\n")) is Outcome.WRONG


# intended_content: the file a careful human would produce, a success even where a refusal
# is acceptable (an LLM-only case whose scripted answer is bad).


def intended_case(**kw) -> EvalCase:
    base = dict(
        id="i",
        content=CONTENT,
        old_string="bb = 2",
        new_string="bb = 3",
        expect="refuse",
        intended_content=EXPECTED,
    )
    base.update(kw)
    return EvalCase(**base)


def test_intended_file_on_a_refuse_case_is_success():
    assert score(intended_case(), CaseResult(ok=True, new_content=EXPECTED)) is Outcome.SUCCESS


def test_refusal_on_a_case_with_intended_content_is_still_success():
    result = CaseResult(ok=False, error_code="no_match")
    assert score(intended_case(), result) is Outcome.SUCCESS


def test_any_other_change_on_a_case_with_intended_content_is_wrong():
    result = CaseResult(ok=True, new_content="a = 1\nbb = 3\n")
    assert score(intended_case(), result) is Outcome.WRONG


def test_intended_file_written_by_an_edit_reported_as_failed_is_wrong():
    # An agent told "failed" retries, and a second application would damage the file.
    result = CaseResult(ok=False, new_content=EXPECTED, error_code="no_match")
    assert score(intended_case(), result) is Outcome.WRONG


def test_intended_content_is_an_accepted_alternative_on_a_success_case():
    alternative = "a = 1\nb = 3  # changed\n"
    case = success_case(intended_content=alternative)
    assert score(case, CaseResult(ok=True, new_content=alternative)) is Outcome.SUCCESS
    assert score(case, CaseResult(ok=True, new_content=EXPECTED)) is Outcome.SUCCESS
    assert score(case, CaseResult(ok=True, new_content="b = 3\n")) is Outcome.WRONG
