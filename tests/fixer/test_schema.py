from __future__ import annotations

import pytest

from editengine._errors import InvalidCorrection
from editengine.fixer import CORRECTION_SCHEMA, parse_correction

from .conftest import ANSWER


def test_the_schema_is_strict_and_complete():
    assert set(CORRECTION_SCHEMA["properties"]) == {
        "search",
        "replace",
        "noChangesRequired",
        "explanation",
    }
    assert set(CORRECTION_SCHEMA["required"]) == set(CORRECTION_SCHEMA["properties"])
    assert CORRECTION_SCHEMA["additionalProperties"] is False


def test_a_good_answer_is_accepted():
    proposed = parse_correction({**ANSWER, "explanation": "  Indentation differed.\n"})

    assert proposed.search == ANSWER["search"]
    assert proposed.replace == ANSWER["replace"]
    assert proposed.no_changes_required is False
    assert proposed.explanation == "Indentation differed."


def test_search_and_replace_are_kept_byte_for_byte():
    answer = {**ANSWER, "search": "  x = 1\t\r\n", "replace": "\n  y = '$&'\n"}

    proposed = parse_correction(answer)

    assert (proposed.search, proposed.replace) == (answer["search"], answer["replace"])


@pytest.mark.parametrize(
    "data, complaint",
    [
        (["search"], "not a JSON object"),
        ({}, "missing search, replace, noChangesRequired, explanation"),
        ({**ANSWER, "extra": 1}, "unexpected extra"),
        ({**ANSWER, "noChangesRequired": 0}, "noChangesRequired should be a boolean, got int"),
        ({**ANSWER, "noChangesRequired": None}, "should be a boolean, got null"),
        ({**ANSWER, "replace": ["a"]}, "replace should be a string, got list"),
        ({**ANSWER, "explanation": None}, "explanation should be a string"),
    ],
)
def test_answers_off_the_schema_are_refused(data, complaint):
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction(data)

    assert complaint in str(caught.value)


def test_an_empty_search_is_refused_because_it_would_replace_the_whole_file():
    with pytest.raises(InvalidCorrection, match='could not locate the edit: "Not in this file'):
        parse_correction({**ANSWER, "search": "", "explanation": "Not in this file."})


def test_an_empty_search_is_fine_for_a_no_change_verdict():
    proposed = parse_correction(
        {"search": "", "replace": "", "noChangesRequired": True, "explanation": "Done already."}
    )

    assert proposed.no_changes_required is True


# Each refusal word for word: the model is asked again with these words, and an agent reads
# them when the fixer gives up.


def test_an_answer_that_is_no_object_is_refused_naming_who_gave_it():
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction("search", source="the openai model")
    assert caught.value.message == "The answer from the openai model is not a JSON object."


def test_without_a_source_the_answer_is_the_models():
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction(None)
    assert caught.value.message == "The answer from the model is not a JSON object."


def test_missing_and_unexpected_keys_are_listed_together_in_schema_order_and_sorted():
    data = {"search": "a", "zeta": 1, "alpha": 2, 3: "three"}
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction(data, source="the stand-in")
    assert caught.value.message == (
        "The answer from the stand-in does not follow the correction schema: "
        "missing replace, noChangesRequired, explanation; unexpected 3, alpha, zeta."
    )


def test_missing_keys_alone_are_listed_alone():
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction({"search": "a", "replace": "b"})
    assert caught.value.message == (
        "The answer from the model does not follow the correction schema: "
        "missing noChangesRequired, explanation."
    )


def test_unexpected_keys_alone_are_listed_alone():
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction({**ANSWER, "confidence": 0.9})
    assert caught.value.message == (
        "The answer from the model does not follow the correction schema: unexpected confidence."
    )


def test_every_value_of_the_wrong_type_is_named_with_what_it_should_be():
    data = {"search": 1, "replace": None, "noChangesRequired": "no", "explanation": True}
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction(data, source="the stand-in")
    assert caught.value.message == (
        "The answer from the stand-in does not follow the correction schema: "
        "search should be a string, got int; replace should be a string, got null; "
        "noChangesRequired should be a boolean, got a string; "
        "explanation should be a string, got a boolean."
    )


def test_an_empty_search_without_a_reason_says_none_was_given():
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction({**ANSWER, "search": "", "explanation": "  "}, source="the stand-in")
    assert caught.value.message == "The stand-in could not locate the edit: no reason given"


def test_an_empty_search_gives_the_models_reason_without_its_spaces():
    with pytest.raises(InvalidCorrection) as caught:
        parse_correction({**ANSWER, "search": "", "explanation": " Not here.\n"})
    assert caught.value.message == 'The model could not locate the edit: "Not here."'


def test_a_no_change_verdict_keeps_its_search_and_replace():
    proposed = parse_correction({**ANSWER, "noChangesRequired": True})
    assert proposed.no_changes_required is True
    assert (proposed.search, proposed.replace) == (ANSWER["search"], ANSWER["replace"])
