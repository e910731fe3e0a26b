"""``editengine apply`` passes a request's write guards on: a stale ``expected_hash``, in the
JSON request or as a flag, refuses the edit and leaves the file as it was."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from editengine.cli import main

BEFORE = "def f():\n    return 1\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text(BEFORE, encoding="utf-8")
    return tmp_path


def _apply(capsys, workspace: Path, *argv: str) -> tuple[int, dict]:
    status = main(["apply", "--root", str(workspace), "--output-json", *argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, json.loads(captured.out)


def _request_file(workspace: Path, **fields: object) -> str:
    request = {"file_path": "a.py", "old_string": "return 1", "new_string": "return 2", **fields}
    path = workspace / "request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    return str(path)


def test_a_stale_expected_hash_in_the_json_request_refuses_the_edit(capsys, workspace):
    status, answer = _apply(
        capsys, workspace, "--json", _request_file(workspace, expected_hash="0" * 64)
    )
    assert status == 1 and answer["error_code"] == "stale_file"
    assert (workspace / "a.py").read_text(encoding="utf-8") == BEFORE


def test_a_stale_expected_hash_flag_refuses_the_edit(capsys, workspace):
    flags = ["--file", "a.py", "--old", "return 1", "--new", "return 2"]
    status, answer = _apply(capsys, workspace, *flags, "--expected-hash", "0" * 64)
    assert status == 1 and answer["error_code"] == "stale_file"
    assert (workspace / "a.py").read_text(encoding="utf-8") == BEFORE


def test_the_current_hash_lets_the_edit_through(capsys, workspace):
    current = hashlib.sha256(BEFORE.encode()).hexdigest()
    status, answer = _apply(
        capsys, workspace, "--json", _request_file(workspace, expected_hash=current)
    )
    assert status == 0 and answer["ok"] is True
    assert (workspace / "a.py").read_text(encoding="utf-8") == "def f():\n    return 2\n"


def test_a_stale_expected_hash_refuses_a_multi_edit(capsys, workspace):
    request = {
        "file_path": "a.py",
        "edits": [{"old_string": "return 1", "new_string": "return 2"}],
        "expected_hash": "0" * 64,
    }
    path = workspace / "request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    status, answer = _apply(capsys, workspace, "--json", str(path))
    assert status == 1 and answer["error_code"] == "stale_file"
    assert (workspace / "a.py").read_text(encoding="utf-8") == BEFORE
