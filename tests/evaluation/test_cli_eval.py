"""``editengine eval`` end to end on a small dataset, in process."""

import json

from editengine.cli import main

from .conftest import SMALL_CASES, write_jsonl


def test_table_json_and_exit_code(small_dataset, tmp_path, capsys):
    report = tmp_path / "report.json"
    status = main(["eval", str(small_dataset), "--json", str(report)])
    out = capsys.readouterr().out
    assert status == 0
    for category in ("exact", "absent", "ambiguous", "indentation_shift", "TOTAL"):
        assert category in out
    data = json.loads(report.read_text())
    (run,) = data["runs"]
    outcomes = {c["id"]: c["outcome"] for c in run["cases"]}
    assert outcomes == {
        "exact-1": "success",
        "absent-1": "success",
        "ambiguous-1": "success",
        "indent-1": "success",
        # Only a tolerant tier places a mis-indented old_string; never a wrong edit.
        "indent-2": outcomes["indent-2"],
    }
    assert outcomes["indent-2"] in ("success", "refused")
    total = run["categories"]["TOTAL"]
    assert total["cases"] == 5
    assert total["success"] + total["refused"] + total["wrong"] == 5
    assert total["wrong"] == 0
    assert run["strategies"]["exact"] >= 2
    assert set(run["latency"]) == {"p50_ms", "p90_ms", "p99_ms", "max_ms"}


def test_wrong_outcome_fails_the_run_and_is_shown_with_a_diff(tmp_path, capsys):
    bad = dict(SMALL_CASES[0], expected_content="something else entirely\n")
    path = write_jsonl(tmp_path / "wrong.jsonl", [bad])
    status = main(["eval", str(path), "--show-failures", "3"])
    captured = capsys.readouterr()
    assert status == 1
    assert "WRONG" in captured.out
    assert "+    return b + a" in captured.out
    assert "-something else entirely" in captured.out
    assert "changed the file into something unexpected" in captured.err


def test_min_success_threshold(tmp_path, capsys):
    unrecoverable = dict(
        SMALL_CASES[0],
        id="hopeless",
        old_string="text that appears nowhere",
        expected_content="whatever\n",
    )
    path = write_jsonl(tmp_path / "half.jsonl", [SMALL_CASES[0], unrecoverable])
    assert main(["eval", str(path), "--min-success", "50"]) == 0
    assert main(["eval", str(path), "--min-success", "50.1"]) == 1
    assert "success 50.0% is under --min-success 50.1%" in capsys.readouterr().err


def test_category_option_limits_the_run(small_dataset, tmp_path, capsys):
    report = tmp_path / "r.json"
    assert main(["eval", str(small_dataset), "--category", "absent", "--json", str(report)]) == 0
    (run,) = json.loads(report.read_text())["runs"]
    assert [c["id"] for c in run["cases"]] == ["absent-1"]


def test_bad_dataset_exits_2_with_the_error_code(tmp_path, capsys):
    path = tmp_path / "broken.jsonl"
    path.write_text("{oops\n", encoding="utf-8")
    assert main(["eval", str(path)]) == 2
    err = capsys.readouterr().err
    assert "invalid_dataset" in err
    assert "broken.jsonl:1" in err


def test_html_report_has_charts(small_dataset, tmp_path, capsys):
    page = tmp_path / "report.html"
    assert main(["eval", str(small_dataset), "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "outcomes per category" in html
    assert "plotly" in html.lower()


def test_intended_content_turns_a_placed_edit_on_a_refuse_case_into_success(tmp_path, capsys):
    # The cascade places this edit exactly; the case accepts a refusal but names the file a
    # careful human would produce, so placing it right is a success too, not WRONG.
    refuse_ok = dict(SMALL_CASES[0], id="placed", expect="refuse", expected_content=None)
    plain = write_jsonl(tmp_path / "plain.jsonl", [refuse_ok])
    assert main(["eval", str(plain)]) == 1
    intended = dict(refuse_ok, intended_content=SMALL_CASES[0]["expected_content"])
    report = tmp_path / "r.json"
    path = write_jsonl(tmp_path / "intended.jsonl", [intended])
    assert main(["eval", str(path), "--json", str(report)]) == 0
    (run,) = json.loads(report.read_text())["runs"]
    assert [c["outcome"] for c in run["cases"]] == ["success"]
