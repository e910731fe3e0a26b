"""``editengine undo``: exit 0 when restored, 1 when refused, 2 on bad usage; --list, --json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from editengine.cli import main
from editengine.engine import EditEngine
from editengine.journal import Journal


@pytest.fixture
def edited(tmp_path: Path) -> tuple[Path, list[str]]:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_bytes(b"x = 1\r\ny = 2\r\n")
    engine = EditEngine(root, journal=Journal(root, directory=tmp_path / "j"))
    engine.edit("a.py", "x = 1", "x = 10")
    engine.edit("b.txt", "", "created\n")
    engine.multi_edit("a.py", [{"old_string": "y = 2", "new_string": "y = 20"}])
    return root, ["--root", str(root), "--journal-dir", str(tmp_path / "j")]


def test_undo_restores_the_last_edit_anywhere(edited, capsys) -> None:
    root, flags = edited
    assert main(["undo", *flags]) == 0
    assert (root / "a.py").read_bytes() == b"x = 10\r\ny = 2\r\n"
    out = capsys.readouterr().out
    assert out.startswith("Undid 1 write: a.py")
    assert "-y = 20" in out and "+y = 2" in out


def test_undo_of_a_path_and_steps(edited) -> None:
    root, flags = edited
    assert main(["undo", "a.py", "--steps", "2", *flags]) == 0
    assert (root / "a.py").read_bytes() == b"x = 1\r\ny = 2\r\n"
    assert (root / "b.txt").read_bytes() == b"created\n"
    assert main(["undo", *flags]) == 0
    assert not (root / "b.txt").exists()


def test_undo_refused_after_an_outside_change_exits_1(edited, capsys) -> None:
    root, flags = edited
    (root / "a.py").write_bytes(b"hand made\n")
    assert main(["undo", *flags]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error[stale_file]: a.py")
    assert (root / "a.py").read_bytes() == b"hand made\n"
    assert (root / "b.txt").exists()


def test_redo_and_nothing_left(edited, capsys) -> None:
    root, flags = edited
    assert main(["undo", "--steps", "3", *flags]) == 0
    assert main(["undo", *flags]) == 1
    assert "error[nothing_to_undo]" in capsys.readouterr().err
    assert main(["undo", "--redo", *flags]) == 0
    assert (root / "a.py").read_bytes() == b"x = 10\r\ny = 2\r\n"


def test_list_and_json(edited, capsys) -> None:
    _, flags = edited
    assert main(["undo", "--list", *flags]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len([line for line in out if line.startswith("*")]) == 3
    assert main(["undo", "--json", *flags]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["restored"][0]["file_path"] == "a.py"
    assert main(["undo", "--list", "--json", *flags]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["operation"] for row in rows] == ["edit", "edit", "multi_edit", "undo"]
    assert [row["undoable"] for row in rows] == [True, True, False, False]


def test_bad_usage_exits_2(edited, capsys) -> None:
    _, flags = edited
    assert main(["undo", "--steps", "0", *flags]) == 2
    assert main(["undo", "../outside.txt", *flags]) == 1
    assert "path_outside_workspace" in capsys.readouterr().err
    assert main(["undo", "--root", "/no/such/folder"]) == 2
    assert "error[file_not_found]" in capsys.readouterr().err
