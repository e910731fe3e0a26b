"""Diagnostics in the command line and protocol front ends: the batch protocol's ``path`` and
``diagnostics``, ``editengine apply``/``patch`` output and flags, ``editengine mcp --lsp``, and
``editengine eval --syntax-guard``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from editengine.cli import main
from editengine.cli._batch import handle_line
from editengine.cli._eval import configurations
from editengine.cli._mcp import lsp_commands

PY = "def f(a):\n    if a:\n        return 1\n    return 2\n"


def test_a_batch_request_with_a_path_answers_with_its_diagnostics() -> None:
    request = {"id": 1, "content": PY, "old_string": "return 1", "new_string": "return (1"}
    plain = handle_line(json.dumps(request))
    assert plain["ok"] and plain["diagnostics"] == []
    answer = handle_line(json.dumps({**request, "path": "src/a.py"}))
    assert answer["ok"] and answer["strategy"] == "exact"
    (diagnostic,) = answer["diagnostics"]
    assert diagnostic["line"] == 3 and diagnostic["source"] == "syntax"
    assert set(diagnostic) == {
        "line", "column", "end_line", "end_column", "severity", "message", "source",
    }  # fmt: skip


def test_a_batch_request_placed_forgivingly_that_breaks_is_refused() -> None:
    request = {
        "id": 2,
        "content": PY,
        "old_string": "if a:\n  return 1",
        "new_string": "if a:\n  return (1",
        "path": "a.py",
    }
    answer = handle_line(json.dumps(request))
    assert not answer["ok"] and answer["error_code"] == "syntax_broken"
    assert answer["new_content"] is None and answer["diagnostics"][0]["line"] == 3
    report = handle_line(json.dumps({**request, "syntax_guard": "report"}))
    assert report["ok"] and report["strategy"] == "line_trimmed" and report["diagnostics"]


@pytest.mark.parametrize(
    ("field", "value"), [("path", 3), ("path", ""), ("syntax_guard", "strict")]
)
def test_bad_syntax_fields_are_bad_requests(field: str, value: object) -> None:
    request = {"id": 3, "content": PY, "old_string": "return 1", "new_string": "return 2"}
    answer = handle_line(json.dumps({**request, field: value}))
    assert answer["error_code"] == "bad_request" and field in answer["error"]


def test_a_batch_patch_answers_with_each_files_diagnostics() -> None:
    patch = "a.py\n<<<<<<< SEARCH\n        return 1\n=======\n        return (1\n>>>>>>> REPLACE\n"
    answer = handle_line(json.dumps({"id": 4, "files": {"a.py": PY}, "patch": patch}))
    assert answer["ok"]
    assert [(d["path"], d["line"]) for d in answer["diagnostics"]] == [("a.py", 3)]


def test_apply_prints_the_errors_after_the_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.py").write_text(PY)
    argv = ["apply", "--root", str(tmp_path), "--file", "a.py", "--no-color"]
    assert main([*argv, "--old", "return 1", "--new", "return (1"]) == 0
    out = capsys.readouterr().out
    assert out.index("+        return (1") < out.index("Errors in a.py introduced by this edit:")
    assert "ERROR [3:16]" in out
    (tmp_path / "a.py").write_text(PY)
    forgiving = ["--old", "if a:\n  return 1", "--new", "if a:\n  return (1"]
    assert main([*argv, *forgiving]) == 1
    assert "error[syntax_broken]" in capsys.readouterr().err
    assert main([*argv, *forgiving, "--syntax-guard", "report"]) == 0
    assert "(1" in (tmp_path / "a.py").read_text()


def test_patch_prints_each_files_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.py").write_text(PY)
    patch = tmp_path / "p.txt"
    patch.write_text(
        "a.py\n<<<<<<< SEARCH\n    return 2\n=======\n    return (2\n>>>>>>> REPLACE\n"
    )
    assert main(["patch", str(patch), "--root", str(tmp_path), "--no-color"]) == 0
    assert "Errors in a.py introduced by this edit:" in capsys.readouterr().out


def test_mcp_lsp_flags_become_the_engines_servers() -> None:
    commands = lsp_commands(["python=pylsp", "typescript=typescript-language-server --stdio"])
    assert commands == {
        "python": ["pylsp"],
        "typescript": ["typescript-language-server", "--stdio"],
    }
    for bad in ("pylsp", "python=", "=pylsp"):
        with pytest.raises(ValueError, match="LANG=COMMAND"):
            lsp_commands([bad])


def test_eval_runs_the_guard_beside_the_run_without_it() -> None:
    args = argparse.Namespace(
        llm="none", model=None, record=None, fixer_timeout=None, executor="text",
        compare=False, engine_cmd=[], syntax_guard="refuse",
    )  # fmt: skip
    configs, main_config = configurations(args)
    assert [(c.label, c.syntax_guard) for c in configs] == [
        ("cascade", "off"),
        ("cascade+guard", "refuse"),
    ]
    assert main_config is configs[-1]
