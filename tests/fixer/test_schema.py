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
    with pytest.raises(InvalidCorrection, match="could not locate the edit: Not in this file"):
        parse_correction({**ANSWER, "search": "", "explanation": "Not in this file."})


def test_an_empty_search_is_fine_for_a_no_change_verdict():
    proposed = parse_correction(
        {"search": "", "replace": "", "noChangesRequired": True, "explanation": "Done already."}
    )

    assert proposed.no_changes_required is True
