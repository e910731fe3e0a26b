"""Every command answers bad input with a typed one-line error, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from editengine.cli import main

DEEP = "[" * 100_000
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.out, captured.err


def first_line_is_typed(err: str) -> None:
    line = err.strip().splitlines()[0]
    assert line.startswith("error["), err


def batch(stdin: bytes, env: dict[str, str] | None = None) -> list[dict]:
    completed = subprocess.run(
        [sys.executable, "-m", "editengine", "batch"],
        input=stdin,
        capture_output=True,
        env=env or ENV,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert b"Traceback" not in completed.stderr
    return [json.loads(line) for line in completed.stdout.splitlines()]


GOOD = {"id": "ok", "content": "a b", "old_string": "a", "new_string": "c"}


# -- batch ----------------------------------------------------------------------------------


def test_batch_answers_every_bad_line_and_goes_on():
    lines = [
        json.dumps({**GOOD, "id": 1, "content": "a\ud800"}).encode(),  # lone surrogate
        DEEP.encode(),
        b"\xff\xfe{not utf-8}",
        json.dumps({**GOOD, "id": 4, "replace_all": "false"}).encode(),
        json.dumps({**GOOD, "id": 5, "match_mode": ["exact"]}).encode(),
        json.dumps({**GOOD, "id": {"nested": "id"}}).encode(),
        json.dumps(GOOD).encode(),
    ]
    answers = batch(b"\n".join(lines) + b"\n")
    assert len(answers) == len(lines)
    # a lone surrogate is text no UTF-8 consumer can encode: refused, not edited
    assert [a["error_code"] for a in answers[0:6]] == ["bad_request"] * 6
    assert "content holds a lone surrogate" in answers[0]["error"]
    assert "nested too deeply" in answers[1]["error"]
    assert "UTF-8" in answers[2]["error"]
    assert "replace_all must be true or false" in answers[3]["error"]
    assert answers[6] == {**answers[6], "id": "ok", "ok": True, "new_content": "c b"}


def test_batch_output_is_utf8_whatever_the_locale():
    request = json.dumps({**GOOD, "content": "a é ✓"}, ensure_ascii=False).encode("utf-8")
    env = {**ENV, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "latin-1"}
    (answer,) = batch(request + b"\n", env=env)
    assert answer["new_content"] == "c é ✓"


# -- apply ----------------------------------------------------------------------------------


@pytest.fixture
def request_file(tmp_path):
    def make(data) -> str:
        path = tmp_path / "request.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(path)

    return make


@pytest.mark.parametrize("extra", [["--dry-run"], ["--output-json"], []])
def test_apply_with_surrogates_is_typed(capsys, workspace, request_file, extra):
    (workspace / "in.txt").write_text("x = 1\n")
    path = request_file({"file_path": "in.txt", "old_string": "x = 1", "new_string": "y\ud800"})
    status, _, err = run(capsys, "apply", "--root", str(workspace), "--json", path, *extra)
    assert status == 2  # a preview says what the edit would do: refuse
    first_line_is_typed(err)
    assert (workspace / "in.txt").read_text() == "x = 1\n"


def test_apply_deep_nesting_is_a_bad_request(capsys, workspace, request_file):
    status, _, err = run(capsys, "apply", "--root", str(workspace), "--json", request_file(DEEP))
    assert status == 2
    assert err.startswith("error[bad_request]:") and "nested too deeply" in err


@pytest.mark.parametrize(
    ("field", "value"),
    [("dry_run", "false"), ("dry_run", 0), ("replace_all", "false"), ("replace_all", 1)],
)
def test_apply_booleans_follow_one_strict_rule(capsys, workspace, request_file, field, value):
    (workspace / "in.txt").write_text("x = 1\n")
    path = request_file(
        {"file_path": "in.txt", "old_string": "x = 1", "new_string": "x = 2", field: value}
    )
    status, _, err = run(capsys, "apply", "--root", str(workspace), "--json", path)
    assert status == 2
    assert err.startswith("error[bad_request]:") and f"{field} must be true or false" in err
    assert (workspace / "in.txt").read_text() == "x = 1\n"


def test_apply_with_stdout_closed_does_nothing_and_says_so(workspace):
    (workspace / "in.txt").write_text("x = 1\n")
    completed = subprocess.run(
        f'"{sys.executable}" -m editengine apply --root "{workspace}" --file in.txt '
        '--old "x = 1" --new "x = 3" >&-',
        shell=True,
        capture_output=False,
        stderr=subprocess.PIPE,
        env=ENV,
        timeout=120,
    )
    assert b"Traceback" not in completed.stderr
    assert completed.stderr.startswith(b"error[bad_request]: standard output is closed")
    assert completed.returncode == 2
    assert (workspace / "in.txt").read_text() == "x = 1\n"


# -- report ---------------------------------------------------------------------------------


def event(**fields) -> str:
    base = {"edit_id": "e", "ts": "2026-01-01T00:00:00.000000Z", "engine_version": "0"}
    return json.dumps({**base, **fields})


def test_report_counts_bad_lines_as_malformed(capsys, tmp_path):
    good = event(event="edit.finished", outcome="success", strategy="exact", duration_ms=1.0)
    lines = [
        good,
        event(event="edit.finished", outcome="success", duration_ms=1.0).replace(
            '"duration_ms": 1.0', '"duration_ms": Infinity'
        ),
        event(event="edit.finished", outcome="error", error_code=5, duration_ms=1.0),
        event(event="edit.finished", outcome="error", error_code="no_match", duration_ms=1.0),
        event(event="tier.tried", tier=True, outcome="matched", elapsed_ms=1.0),
        event(event="fixer.called", outcome="corrected", latency_ms=-3, model="m"),
        event(event="edit.finished", outcome=None, duration_ms=1.0),
        DEEP,
    ]
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "r.json"
    status, _, _ = run(capsys, "report", str(tmp_path / "t.jsonl"), "--json", str(out))
    assert status == 0
    report = json.loads(out.read_text())
    assert report["input"]["malformed"] == 6
    assert report["edits"]["finished"] == 2


@pytest.mark.parametrize("since", ["1e400", "nan", "-1e20", "inf"])
def test_report_out_of_range_times_are_bad_requests(capsys, tmp_path, since):
    (tmp_path / "t.jsonl").write_text("")
    status, _, err = run(capsys, "report", str(tmp_path / "t.jsonl"), f"--since={since}")
    assert status == 2
    first_line_is_typed(err)


@pytest.mark.parametrize("flag", ["--html", "--json"])
def test_report_into_a_missing_folder(capsys, tmp_path, flag):
    (tmp_path / "t.jsonl").write_text("")
    target = tmp_path / "missing" / "out"
    status, _, err = run(capsys, "report", str(tmp_path / "t.jsonl"), flag, str(target))
    assert status == 2
    first_line_is_typed(err)
    assert "missing" in err and not target.parent.exists()


# -- eval -----------------------------------------------------------------------------------

CASE = {"id": "c", "content": "a", "old_string": "a", "new_string": "b", "expected_content": "b"}


@pytest.mark.parametrize(
    "line",
    [
        json.dumps({**CASE, "content": "a\ud800"}),
        DEEP,
        json.dumps({**CASE, "file_name": "a\x00b"}),
        json.dumps({**CASE, "file_name": "x" * 300}),
        json.dumps({**CASE, "file_name": "/".join(["d" * 200] * 8)}),
    ],
    ids=["surrogate", "deep", "nul-name", "long-name", "long-path"],
)
def test_eval_bad_cases_are_invalid_datasets(capsys, tmp_path, line):
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text(line + "\n")
    status, _, err = run(capsys, "eval", str(dataset), "--no-progress")
    assert status == 2
    assert "invalid_dataset" in err.splitlines()[0]


def test_eval_json_into_a_missing_folder(capsys, tmp_path):
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text(json.dumps(CASE) + "\n")
    target = tmp_path / "missing" / "r.json"
    status, _, err = run(capsys, "eval", str(dataset), "--no-progress", "--json", str(target))
    assert status == 2
    assert "cannot write" in err and not target.parent.exists()


@pytest.mark.parametrize("value", ["nan", "inf", "-5", "101"])
def test_eval_min_success_must_be_a_percentage(capsys, tmp_path, value):
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text(json.dumps({**CASE, "old_string": "zz"}) + "\n")  # 0 % success
    status, _, err = run(capsys, "eval", str(dataset), "--no-progress", f"--min-success={value}")
    assert status == 2
    assert "--min-success" in err


def test_eval_min_success_still_gates(capsys, tmp_path):
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text(json.dumps({**CASE, "old_string": "zz", "expect": "success"}) + "\n")
    status, _, _ = run(capsys, "eval", str(dataset), "--no-progress", "--min-success=50")
    assert status == 1


def test_unexpected_failures_are_one_line(capsys, monkeypatch, tmp_path):
    import editengine.cli._report as report_cli

    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(report_cli, "aggregate_paths", broken)
    (tmp_path / "t.jsonl").write_text("")
    status, _, err = run(capsys, "report", str(tmp_path / "t.jsonl"))
    assert status == 1
    assert err == "error[internal_error]: RuntimeError: boom second line\n"


@pytest.mark.parametrize(
    "argv",
    [["--repeats", "0"], ["--sizes", "0"], ["--telemetry-events", "-1", "--skip-cascade"]],
)
def test_bench_bad_numbers_are_bad_requests(capsys, argv):
    status, _, err = run(capsys, "bench", *argv)
    assert status == 2
    assert err.startswith("error[bad_request]:")


def test_batch_with_stdin_closed_answers_nothing_and_exits_0():
    completed = subprocess.run(
        f'"{sys.executable}" -m editengine batch <&-',
        shell=True,
        capture_output=True,
        env=ENV,
        timeout=120,
    )
    assert completed.returncode == 0
    assert completed.stdout == b"" and b"Traceback" not in completed.stderr
