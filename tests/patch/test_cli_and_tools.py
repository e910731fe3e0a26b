"""`editengine patch`, batch patch lines, `eval --format`, and the apply_patch tool schemas."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from editengine import tools
from editengine.cli import main
from editengine.cli._batch import handle_line

DIFF = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    return tmp_path


def run(monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main(["patch", *argv])


def test_patch_from_stdin_writes_and_exits_0(root, monkeypatch, capsys) -> None:
    assert run(monkeypatch, DIFF, "--root", str(root), "--no-color") == 0
    assert (root / "a.py").read_text() == "def f():\n    return 2\n"
    assert "Applied the patch: 1 file updated" in capsys.readouterr().out


def test_patch_file_dry_run_and_json(root, monkeypatch, capsys) -> None:
    (root / "p.diff").write_text(DIFF)
    argv = ("--root", str(root), "--dry-run", "--output-json", str(root / "p.diff"))
    assert run(monkeypatch, "", *argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dry_run"] and data["files"] == {"a.py": "def f():\n    return 2\n"}
    assert data["hunks"][0]["strategy"] == "exact" and data["format"] == "udiff"
    assert (root / "a.py").read_text() == "def f():\n    return 1\n"


def test_patch_exit_codes(root, monkeypatch, capsys) -> None:
    failing = DIFF.replace("-    return 1", "-    return 7")
    assert run(monkeypatch, failing, "--root", str(root)) == 1
    assert "error[patch_failed]" in capsys.readouterr().err
    assert run(monkeypatch, "hello", "--root", str(root)) == 2
    assert "error[bad_patch]: Patch line 1" in capsys.readouterr().err
    assert run(monkeypatch, DIFF, "--root", str(root), "--format", "apply_patch") == 2
    assert run(monkeypatch, "", "--root", str(root), str(root / "missing.diff")) == 2
    assert (root / "a.py").read_text() == "def f():\n    return 1\n"


def test_batch_patch_lines_answer_with_files() -> None:
    blocks = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    line = json.dumps({"id": 7, "files": {"a.py": "x = 1\n", "b.py": "y\n"}, "patch": blocks})
    answer = handle_line(line)
    assert answer["ok"] and answer["id"] == 7 and answer["files"] == {"a.py": "x = 2\n"}
    assert answer["strategy"] == "exact" and answer["error"] is None
    bad = handle_line(json.dumps({"id": "x", "files": {"a.py": 1}, "patch": blocks}))
    assert bad["ok"] is False and bad["error_code"] == "bad_request" and bad["files"] is None
    wrong_format = json.dumps({"id": "y", "files": {}, "patch": blocks, "format": "svn"})
    assert handle_line(wrong_format)["error_code"] == "bad_patch"
    failing = json.dumps({"id": "z", "files": {"a.py": "q\n"}, "patch": blocks})
    assert handle_line(failing)["error_code"] == "patch_failed"


def test_batch_subprocess_mixes_edits_and_patches() -> None:
    lines = [
        {"id": "e", "content": "a\n", "old_string": "a", "new_string": "b"},
        {
            "id": "p",
            "files": {"a.py": "def f():\n    return 1\n"},
            "patch": DIFF,
            "format": "udiff",
        },
    ]
    done = subprocess.run(
        [sys.executable, "-m", "editengine", "batch"],
        input="".join(json.dumps(x) + "\n" for x in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    first, second = (json.loads(x) for x in done.stdout.splitlines())
    assert first["new_content"] == "b\n"
    assert second["files"] == {"a.py": "def f():\n    return 2\n"}


def test_eval_format_reports_each_format_beside_edit(tmp_path: Path, capsys) -> None:
    dataset = tmp_path / "cases.jsonl"
    cases = [
        {"id": "ok", "content": "a = 1\nb = 2\n", "old_string": "b = 2", "new_string": "b = 3",
         "expected_content": "a = 1\nb = 3\n"},
        {"id": "amb", "content": "x\nx\n", "old_string": "x", "new_string": "y",
         "expect": "refuse"},
        {"id": "all", "content": "x\nx\n", "old_string": "x", "new_string": "y",
         "replace_all": True, "expected_content": "y\ny\n"},
    ]  # fmt: skip
    dataset.write_text("".join(json.dumps(case) + "\n" for case in cases))
    report = tmp_path / "report.json"
    assert main(["eval", str(dataset), "--format", "all", "--json", str(report)]) == 0
    data = json.loads(report.read_text())
    for column in ("edit", "search_replace", "udiff", "apply_patch"):
        assert data["single"][column]["success"] == 2 and data["single"][column]["wrong"] == 0
    assert data["multi_file"]["udiff"]["cases"] == 1
    out = capsys.readouterr().out
    assert "1 case(s) left out" in out and "apply_patch" in out


def test_tool_schemas_for_openai_and_anthropic() -> None:
    (function,) = tools.openai_tools((tools.APPLY_PATCH_TOOL,))
    assert function["function"]["name"] == "apply_patch"
    assert function["function"]["parameters"]["required"] == ["patch"]
    (anthropic,) = tools.anthropic_tools((tools.APPLY_PATCH_TOOL,))
    assert anthropic["input_schema"]["properties"]["patch"]["type"] == "string"
    custom = tools.openai_custom_apply_patch_tool()
    assert custom["type"] == "custom" and custom["format"]["syntax"] == "lark"
    assert "*** Begin Patch" in custom["format"]["definition"]
    chat = tools.openai_custom_apply_patch_tool(api="chat")
    assert chat["custom"]["format"]["grammar"]["syntax"] == "lark"
    assert tools.openai_builtin_apply_patch_tool() == {"type": "apply_patch"}
    # the default tool lists are unchanged
    assert [t["name"] for t in tools.anthropic_tools()] == ["edit", "multiedit"]


def test_the_custom_tool_shapes_validate_against_the_openai_sdk_types() -> None:
    pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionCustomToolParam
    from openai.types.responses import CustomToolParam

    for shape, kind in (
        (tools.openai_custom_apply_patch_tool(), CustomToolParam),
        (tools.openai_custom_apply_patch_tool(api="chat"), ChatCompletionCustomToolParam),
    ):
        assert set(shape) <= set(kind.__annotations__) | {"type"}


def test_parse_patch_call_shapes() -> None:
    assert tools.parse_patch_call({"patchText": "p", "format": "udiff"}).format == "udiff"
    assert tools.parse_patch_call("*** Begin Patch").patch == "*** Begin Patch"
    assert tools.parse_patch_call(json.dumps({"patch": "x"})).patch == "x"
    for bad in (
        {},
        {"patch": ""},
        {"patch": 3},
        [1],
        {"operation": {"type": "chmod", "path": "a"}},
    ):
        with pytest.raises(Exception) as caught:
            tools.parse_patch_call(bad)
        assert caught.value.code == "bad_request"  # type: ignore[attr-defined]  # the error raised carries a code
