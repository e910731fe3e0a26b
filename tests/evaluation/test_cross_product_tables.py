"""Tables per edit kind and per request, the labels they read, and ``eval`` printing them."""

import json

import pytest

from editengine._errors import InvalidDataset
from editengine.cli import main
from editengine.evaluation._dataset import EvalCase, case_from_record
from editengine.evaluation._executors import EngineConfig
from editengine.evaluation._runner import CaseRecord, RunResult
from editengine.evaluation._scoring import CaseResult, Outcome
from editengine.evaluation._tables import (
    TOTAL,
    by_edit_kind,
    by_request,
    grid,
    labelled,
    outcome_tables,
    summary,
)

from .conftest import write_jsonl

FILE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def _record(category, kind, request, outcome) -> CaseRecord:
    case = EvalCase(
        id=f"{category}-{kind}-{request}-{outcome.value}",
        content="a\n",
        old_string="a",
        new_string="b",
        category=category,
        edit_kind=kind,
        mistakes=(category,),
        request=request,
    )
    return CaseRecord(case, CaseResult(ok=outcome is Outcome.SUCCESS), outcome)


RUN = RunResult(
    EngineConfig("cascade"),
    (
        _record("fence", "rename", "fresh", Outcome.WRONG),
        _record("fence", "delete_lines", "retry", Outcome.SUCCESS),
        _record("typo", "rename", "fresh", Outcome.REFUSED),
        _record("typo", "delete_lines", "fresh", Outcome.SUCCESS),
    ),
    wall_s=0.1,
)


def test_tallies_per_edit_kind_request_and_cell():
    kinds = by_edit_kind(RUN)
    assert list(kinds) == ["rename", "delete_lines", TOTAL]
    assert (kinds["rename"].wrong, kinds["rename"].refused, kinds["rename"].success) == (1, 1, 0)
    assert kinds["delete_lines"].success == 2
    requests = by_request(RUN)
    assert (requests["fresh"].cases, requests["retry"].cases) == (3, 1)
    cells = grid(RUN)
    assert cells["fence"]["rename"].wrong == 1 and cells["typo"]["rename"].refused == 1


def test_tables_and_summary_only_add_the_new_views_for_labelled_cases():
    assert labelled(RUN) and len(outcome_tables(RUN)) == 3
    data = summary(RUN)
    assert data["edit_kinds"]["TOTAL"]["cases"] == 4
    assert data["requests"]["retry"]["success"] == 1
    assert data["grid"]["fence"]["rename"]["wrong"] == 1
    plain = RunResult(EngineConfig("cascade"), (), wall_s=0.0)
    assert not labelled(plain) and len(outcome_tables(plain)) == 1
    assert "edit_kinds" not in summary(plain)


def test_labels_load_from_a_record_and_bad_ones_are_typed_errors():
    where = {"default_id": "x", "default_category": "c", "path": "p", "line": 1}
    base = {"content": "a\n", "old_string": "a", "new_string": "b"}
    case = case_from_record(
        {**base, "edit_kind": "flip", "mistakes": ["crlf", "fence"], "request": "retry"}, **where
    )
    assert (case.edit_kind, case.mistakes, case.request) == ("flip", ("crlf", "fence"), "retry")
    assert case_from_record(base, **where).mistakes == ()
    with pytest.raises(InvalidDataset, match="mistakes"):
        case_from_record({**base, "mistakes": [1]}, **where)
    with pytest.raises(InvalidDataset, match="edit_kind"):
        case_from_record({**base, "edit_kind": 3}, **where)


def test_eval_prints_and_writes_the_edit_kind_and_request_tables(tmp_path, capsys):
    cases = [
        {
            "id": "fresh",
            "content": FILE,
            "old_string": "    return a + b",
            "new_string": "    return b + a",
            "expected_content": FILE.replace("a + b", "b + a"),
            "category": "exact",
            "edit_kind": "flip",
            "mistakes": ["exact"],
            "request": "fresh",
        },
        {
            "id": "retry",
            "content": FILE.replace("a + b", "b + a"),
            "old_string": "    return a + b",
            "new_string": "    return b + a",
            "expect": "refuse",
            "category": "exact",
            "edit_kind": "flip",
            "mistakes": ["exact"],
            "request": "retry",
        },
    ]
    path = write_jsonl(tmp_path / "cross.jsonl", cases)
    report, page = tmp_path / "report.json", tmp_path / "report.html"
    assert main(["eval", str(path), "--json", str(report), "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "outcomes per edit kind" in html and "outcomes per request" in html
    out = capsys.readouterr().out
    assert "per edit kind" in out and "per request" in out and "retry" in out
    (run,) = json.loads(report.read_text())["runs"]
    assert run["edit_kinds"]["flip"]["success"] == 2
    assert run["requests"]["retry"]["success"] == 1
    assert {c["request"] for c in run["cases"]} == {"fresh", "retry"}
