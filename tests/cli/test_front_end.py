"""Every command behaves alike: one error format, outputs checked before the work, JSON
for failures too, 80 columns, an example in every ``--help``."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from editengine._resources import benchmark_path
from editengine.cli import COMMANDS, main

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
ERROR_LINE = re.compile(r"^error\[[a-z_]+\]: \S")


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.out, captured.err


def widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


@pytest.fixture
def four_cases(tmp_path: Path) -> Path:
    with gzip.open(benchmark_path(), "rt", encoding="utf-8") as bundled:
        lines = [bundled.readline() for _ in range(4)]
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text("".join(lines), encoding="utf-8")
    return dataset


# -- --help --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_help_ends_with_examples_within_80_columns(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"] if command else ["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    examples = out.split("\nexamples:\n", 1)[1].splitlines()
    assert examples and all("editengine " in line for line in examples)
    assert widest(out) <= 80


def test_bench_has_a_description(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    _, _, rest = capsys.readouterr().out.partition("\n\n")
    assert rest.startswith("Times the matching cascade per edit")


def test_the_report_benchmark_module_answers_help():
    done = subprocess.run(
        [sys.executable, "-m", "editengine.bench.telemetry", "--help"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m editengine.bench.telemetry")
    assert "example:" in done.stdout


# -- one error format ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["apply", "--file", "missing.py", "--old", "a", "--new", "b"],
        ["apply", "--json", "missing.json"],
        ["patch", "missing.patch"],
        ["undo", "--steps", "0"],
        ["eval", "--workers", "0"],
        ["eval", "--llm", "bogus"],
        ["report", "missing.jsonl"],
        ["report", ".", "--since", "last tuesday"],
        ["bench", "--repeats", "0"],
        ["mcp", "--http", "host:port"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_every_command_says_error_code_colon_message(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, *argv)
    assert status in (1, 2)
    assert ERROR_LINE.match(err), err


def test_text_in_square_brackets_is_shown_as_written(capsys, tmp_path):
    missing = tmp_path / "cases[html].jsonl"
    status, _, err = run(capsys, "eval", str(missing))
    assert status == 2
    assert f"{missing}: no such dataset file" in err


# -- outputs checked before the work ---------------------------------------------------------


def test_eval_checks_its_output_paths_before_running_a_case(capsys, tmp_path, four_cases):
    telemetry = tmp_path / "events.jsonl"
    status, out, err = run(
        capsys,
        "eval", str(four_cases), "--telemetry", str(telemetry),
        "--html", str(tmp_path / "no-such-folder" / "eval.html"),
    )  # fmt: skip
    assert status == 2
    assert err.startswith("error[bad_request]: --html: cannot write")
    assert "no-such-folder does not exist" in err
    assert not telemetry.exists() and out == ""  # no case ran


@pytest.mark.parametrize("flag", ["--json", "--html"])
def test_report_checks_its_output_paths_before_reading(capsys, tmp_path, flag):
    # The input does not exist either: the output is what is reported, before any reading.
    status, _, err = run(capsys, "report", str(tmp_path / "x.jsonl"), flag, str(tmp_path))
    assert status == 2
    assert err.startswith(f"error[bad_request]: {flag}: {tmp_path} is a folder")


# -- --output-json -------------------------------------------------------------------------


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    return tmp_path


def test_apply_output_json_on_success_and_on_failure(capsys, workspace):
    flags = ["--root", str(workspace), "--file", "a.py", "--output-json"]
    status, out, _ = run(capsys, "apply", *flags, "--old", "return 1", "--new", "return 2")
    assert status == 0
    assert json.loads(out)["ok"] is True
    status, out, err = run(capsys, "apply", *flags, "--old", "return 9", "--new", "return 3")
    assert status == 1
    answer = json.loads(out)
    assert answer["ok"] is False and answer["error_code"] == "no_match"
    assert err.startswith("error[no_match]: ")


def test_apply_output_json_on_bad_usage(capsys, workspace):
    status, out, err = run(capsys, "apply", "--root", str(workspace), "--output-json")
    assert status == 2
    assert json.loads(out) == {
        "ok": False,
        "error_code": "bad_request",
        "error": "Missing --file, --old, --new (or use --json FILE).",
    }
    assert err.startswith("error[bad_request]: Missing --file")


def test_patch_output_json_on_failure(capsys, workspace):
    patch = workspace / "p.diff"
    patch.write_text("not a patch\n", encoding="utf-8")
    status, out, err = run(capsys, "patch", str(patch), "--root", str(workspace), "--output-json")
    assert status == 2
    answer = json.loads(out)
    assert answer["ok"] is False and answer["error_code"] == "bad_patch"
    assert err.startswith("error[bad_patch]: ")


# -- an edit sent twice ----------------------------------------------------------------------


def test_a_short_edit_sent_twice_says_new_string_already_stands_there(capsys, workspace):
    edit = ["apply", "--root", str(workspace), "--file", "a.py"]
    assert run(capsys, *edit, "--old", "return 1", "--new", "return 2")[0] == 0
    status, _, err = run(capsys, *edit, "--old", "return 1", "--new", "return 2")
    assert status == 1
    assert err.startswith("error[no_match]: ")
    assert "new_string already stands in the file at line 2" in err
    assert (workspace / "a.py").read_text() == "def f():\n    return 2\n"
    # A miss whose new_string is not in the file says nothing of the kind.
    status, _, err = run(capsys, *edit, "--old", "return 1", "--new", "return 3")
    assert status == 1 and "already stands" not in err


# -- 80 columns ------------------------------------------------------------------------------


def test_undo_list_fits_80_columns_with_long_paths(capsys, workspace, tmp_path):
    from editengine.engine import EditEngine
    from editengine.journal import Journal

    journal = tmp_path / "journal"
    engine = EditEngine(workspace, journal=Journal(workspace, directory=journal))
    long_name = "a folder with a rather long name/and a file inside it with a long name.py"
    engine.edit(long_name, "", "one\n")
    engine.edit(long_name, "one", "two")
    status, out, _ = run(capsys, "undo", "--list", "--root", str(workspace), "--journal-dir",
                         str(journal))  # fmt: skip
    assert status == 0
    assert widest(out) <= 80
    assert "Replaced 1" in out and "rather" in out and "(* = undo would restore it now" in out


def test_bench_fits_80_columns(capsys):
    status, out, _ = run(capsys, "bench", "--repeats", "1", "--sizes", "50")
    assert status == 0
    assert "slowest tiers:" in out
    assert widest(out) <= 80


def test_eval_tables_fit_80_columns(capsys, four_cases):
    status, out, _ = run(capsys, "eval", str(four_cases), "--compare")
    assert status == 0
    assert widest(out) <= 80


# -- eval --telemetry and report -------------------------------------------------------------


@pytest.fixture
def eval_telemetry(tmp_path: Path, four_cases: Path, capsys) -> Path:
    telemetry = tmp_path / "eval.jsonl"
    status, _, _ = run(capsys, "eval", str(four_cases), "--telemetry", str(telemetry))
    assert status == 0
    return telemetry


def test_eval_telemetry_writes_the_engine_events(eval_telemetry):
    events = [json.loads(line) for line in eval_telemetry.read_text().splitlines()]
    finished = [event for event in events if event["event"] == "edit.finished"]
    assert len(finished) == 4  # one per case


def test_eval_telemetry_with_workers_writes_every_case(capsys, tmp_path, four_cases):
    telemetry = tmp_path / "eval.jsonl"
    argv = ["eval", str(four_cases), "--telemetry", str(telemetry), "--workers", "2"]
    assert run(capsys, *argv)[0] == 0
    finished = [line for line in telemetry.read_text().splitlines() if "edit.finished" in line]
    assert len(finished) == 4


def test_eval_telemetry_needs_the_engine(capsys, tmp_path, four_cases):
    argv = ["eval", str(four_cases), "--telemetry", str(tmp_path / "t.jsonl")]
    status, _, err = run(capsys, *argv, "--executor", "text")
    assert status == 2
    assert err.startswith("error[bad_request]: --telemetry needs the engine executor")


def test_report_reads_a_file_given_twice_once(capsys, eval_telemetry, tmp_path):
    folder = tmp_path / "linked"
    folder.mkdir()
    link = folder / "same.jsonl"
    link.symlink_to(eval_telemetry)
    reads = []
    for paths in ([eval_telemetry], [eval_telemetry, eval_telemetry, link, folder]):
        status, out, _ = run(capsys, "report", *map(str, paths), "--json", "-")
        assert status == 0
        reads.append(json.loads(out)["input"])
    assert reads[0]["files"] == reads[1]["files"] == 1
    assert reads[0]["events"] == reads[1]["events"] > 0


@pytest.mark.parametrize(
    ("where", "argv", "why"),
    [
        ("empty", [], "no telemetry files there"),
        ("events", ["--since", "2030"], "fall outside --since/--until"),
        ("events", ["--until", "2001-01-01"], "fall outside --since/--until"),
        ("other", [], "none an editengine event"),
    ],
)
def test_report_with_no_event_read_warns_and_exits_1(capsys, tmp_path, eval_telemetry, where,
                                                     argv, why):  # fmt: skip
    paths = {
        "empty": tmp_path / "empty",
        "events": eval_telemetry,
        "other": tmp_path / "other.jsonl",
    }
    paths["empty"].mkdir()
    paths["other"].write_text('{"not": "an event"}\n', encoding="utf-8")
    html = tmp_path / "r.html"
    status, out, err = run(capsys, "report", str(paths[where]), *argv, "--html", str(html))
    assert status == 1
    assert err.startswith("warning: no telemetry events read from ")
    assert why in err and len(err.splitlines()) == 1
    assert out == "" and not html.exists()  # no empty report


def test_report_with_no_event_in_vs_warns_and_exits_1(capsys, tmp_path, eval_telemetry):
    empty = tmp_path / "empty"
    empty.mkdir()
    status, _, err = run(capsys, "report", str(eval_telemetry), "--vs", str(empty))
    assert status == 1
    assert err.startswith(f"warning: no telemetry events read from --vs {empty}")
