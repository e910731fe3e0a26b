import json

import pytest

from editengine._errors import InvalidDataset
from editengine.evaluation._dataset import load_cases, read_dataset

from .conftest import SMALL_CASES, write_jsonl


def test_reads_every_case_in_order_and_ignores_unknown_fields(small_dataset):
    cases = read_dataset(small_dataset)
    assert [c.id for c in cases] == [r["id"] for r in SMALL_CASES]
    assert cases[0].instruction == "Swap the operands."
    assert cases[1].expect == "refuse" and cases[1].expected_content is None
    assert cases[3].notes.startswith("old is a fragment")


def test_category_filter(small_dataset):
    cases = load_cases([small_dataset], categories=["indentation_shift"])
    assert [c.id for c in cases] == ["indent-1", "indent-2"]


def test_peer_case_format_loads_with_the_file_name_as_category(tmp_path):
    peer = {
        "id": "oc-1",
        "content": "x = 1\n",
        "old_string": "x = 1",
        "new_string": "x = 2",
        "replace_all": False,
        "expected_replacements": None,
        "expect": "success",
        "expected_content": None,
        "expected_contains": "x = 2",
        "source_test": "case 1",
        "source": "somewhere",
        "note": "peer variant: head",
    }
    (case,) = read_dataset(write_jsonl(tmp_path / "opencode.jsonl", [peer]))
    assert case.category == "opencode"
    assert case.expected_contains == "x = 2"
    assert case.notes == "peer variant: head"


def test_fixer_answers_are_parsed(tmp_path):
    record = dict(SMALL_CASES[0])
    record["fixer_answers"] = [
        {"search": "a", "replace": "b", "noChangesRequired": False, "explanation": "why"}
    ]
    (case,) = read_dataset(write_jsonl(tmp_path / "d.jsonl", [record]))
    assert case.fixer_answers[0].search == "a"
    assert case.fixer_answers[0].to_dict()["noChangesRequired"] is False


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"content": "x", "old_string": "x"}), "missing required field 'new_string'"),
        (
            json.dumps({"content": "x", "old_string": "x", "new_string": 3}),
            "'new_string' must be str",
        ),
        (
            json.dumps({"content": "x", "old_string": "x", "new_string": "y", "expect": "maybe"}),
            "expect must be",
        ),
        (
            json.dumps(
                {
                    "content": "x",
                    "old_string": "x",
                    "new_string": "y",
                    "expected_replacements": True,
                }
            ),
            "'expected_replacements' must be int",
        ),
        ("[1, 2]", "JSON object"),
    ],
)
def test_malformed_lines_name_the_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(SMALL_CASES[0]) + "\n\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InvalidDataset) as info:
        read_dataset(path)
    assert f"{path}:3" in str(info.value)
    assert message in str(info.value)
    assert info.value.code == "invalid_dataset"


def test_duplicate_ids_across_files_are_rejected(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", SMALL_CASES[:1])
    b = write_jsonl(tmp_path / "b.jsonl", SMALL_CASES[:1])
    with pytest.raises(InvalidDataset, match="duplicate case id 'exact-1'"):
        load_cases([a, b])


def test_missing_file_is_a_typed_error(tmp_path):
    with pytest.raises(InvalidDataset, match="no such dataset file"):
        read_dataset(tmp_path / "nope.jsonl")


def test_intended_content_is_read_when_present_and_none_when_absent(tmp_path):
    with_it = dict(SMALL_CASES[1], id="with", intended_content="def mul(a, b): ...\n")
    without = dict(SMALL_CASES[1], id="without")
    first, second = read_dataset(write_jsonl(tmp_path / "d.jsonl", [with_it, without]))
    assert first.intended_content == "def mul(a, b): ...\n"
    assert second.intended_content is None


def test_intended_content_must_be_text(tmp_path):
    record = dict(SMALL_CASES[1], intended_content=["not", "text"])
    with pytest.raises(InvalidDataset, match="intended_content"):
        read_dataset(write_jsonl(tmp_path / "d.jsonl", [record]))
