"""Paths are resolved and keyed once, the same way for edit, patch and undo; a path line
is a path; a /dev/null diff deletes only the content it quotes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from editengine import EditError, PatchFailed, apply_patch
from editengine._errors import PathOutsideWorkspace
from editengine.engine import EditEngine
from editengine.journal import Journal


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, EditEngine]:
    """``sub`` links to ``deep/x``: ``sub/..`` is ``deep``, not the root."""
    root = tmp_path / "ws"
    (root / "deep" / "x").mkdir(parents=True)
    (root / "sub").symlink_to(root / "deep" / "x")
    (root / "a.py").write_text("x = 1\n")
    (root / "deep" / "a.py").write_text("x = 1\n")
    journal = Journal(root, directory=tmp_path / "journal")
    return root, EditEngine(root, lock_dir=tmp_path / "locks", journal=journal)


def test_an_edit_through_a_link_and_dotdot_is_reported_where_it_writes(
    linked: tuple[Path, EditEngine],
) -> None:
    root, engine = linked
    result = engine.edit("sub/../a.py", "x = 1", "x = 2")
    assert result.file_path == "deep/a.py"
    assert (root / "deep/a.py").read_text() == "x = 2\n"
    assert (root / "a.py").read_text() == "x = 1\n"
    assert [entry.path for entry in engine.journal_entries()] == ["deep/a.py"]
    engine.undo("deep/a.py")
    assert (root / "deep/a.py").read_text() == "x = 1\n"


def test_a_patch_through_a_link_and_dotdot_is_keyed_where_it_writes(
    linked: tuple[Path, EditEngine],
) -> None:
    root, engine = linked
    result = engine.apply_patch(
        "*** Begin Patch\n*** Update File: sub/../a.py\n-x = 1\n+x = 3\n*** End Patch\n"
    )
    assert set(result.files) == {"deep/a.py"}
    assert [r.file_path for r in result.results] == ["deep/a.py"]
    assert (root / "deep/a.py").read_text() == "x = 3\n"
    assert (root / "a.py").read_text() == "x = 1\n"
    assert [entry.path for entry in engine.journal_entries()] == ["deep/a.py"]


@pytest.mark.parametrize("name", ["..\\x", "..\\..\\etc\\passwd", "a\\..\\..\\x"])
def test_edit_refuses_a_backslash_path_out_like_a_patch_does(
    linked: tuple[Path, EditEngine], name: str
) -> None:
    _, engine = linked
    with pytest.raises(PathOutsideWorkspace):
        engine.edit(name, "", "x\n")
    with pytest.raises(PathOutsideWorkspace):
        engine.apply_patch(f"*** Begin Patch\n*** Add File: {name}\n+x\n*** End Patch\n")
    with pytest.raises(PatchFailed) as caught:
        apply_patch({}, f"*** Begin Patch\n*** Add File: {name}\n+x\n*** End Patch\n")
    assert isinstance(caught.value.cause, PathOutsideWorkspace)


@pytest.mark.parametrize("name", ["a\\b.py", "x\\..\\y.py"])
def test_a_backslash_that_stays_inside_is_a_name(
    linked: tuple[Path, EditEngine], name: str
) -> None:
    root, engine = linked
    engine.edit(name, "", "x\n")
    assert (root / name).read_text() == "x\n"


BLOCK = "<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"


@pytest.mark.parametrize(
    "above",
    ["Add this at the end of src/app.py:", "Change src/app.py like this:", "In src/app.py do"],
)
def test_a_prose_line_above_a_block_is_not_a_path(above: str) -> None:
    with pytest.raises(EditError) as caught:
        apply_patch({"src/app.py": "x = 1\n"}, f"{above}\n{BLOCK}")
    assert caught.value.code == "bad_patch"


@pytest.mark.parametrize(
    "above", ["src/app.py", "src/app.py:", "`src/app.py`", "File: src/app.py", "### src/app.py"]
)
def test_a_path_line_above_a_block_is_its_path(above: str) -> None:
    result = apply_patch({"src/app.py": "x = 1\n"}, f"{above}\n{BLOCK}")
    assert result.files == {"src/app.py": "x = 2\n"}


def test_a_quoted_name_with_a_space_is_a_path() -> None:
    result = apply_patch({"my file.py": "x = 1\n"}, f"`my file.py`\n{BLOCK}")
    assert result.files == {"my file.py": "x = 2\n"}


def test_a_dev_null_diff_deletes_only_the_content_it_quotes() -> None:
    files = {"a.txt": "one\ntwo\n"}
    wrong = "--- a/a.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-three\n"
    with pytest.raises(PatchFailed) as caught:
        apply_patch(dict(files), wrong)
    assert "its '-' lines are not the file's content" in str(caught.value)
    right = "--- a/a.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n"
    assert apply_patch(dict(files), right).files == {"a.txt": None}
    crlf = {"a.txt": "one\r\ntwo"}  # endings and a missing final newline do not count
    assert apply_patch(crlf, right).files == {"a.txt": None}


def test_a_symlink_is_not_followed_out_by_a_dotdot(tmp_path: Path) -> None:
    if not hasattr(os, "symlink"):
        pytest.skip("no symlinks")
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "out" / "in").mkdir(parents=True)
    (root / "sub").symlink_to(tmp_path / "out" / "in")
    with pytest.raises(PathOutsideWorkspace):
        EditEngine(root, journal=False).edit("sub/../x.py", "", "x\n")
    assert not (tmp_path / "out" / "x.py").exists()


def test_a_patch_cannot_create_a_file_over_the_edit_size_limit(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    engine = EditEngine(root, journal=False, max_file_bytes=100)
    big = "".join(f"+line {n:03d} of many\n" for n in range(20))
    with pytest.raises(EditError) as caught:
        engine.apply_patch(f"*** Begin Patch\n*** Add File: big.txt\n{big}*** End Patch\n")
    assert caught.value.code == "file_too_large"
    assert not (root / "big.txt").exists()
    engine.apply_patch("*** Begin Patch\n*** Add File: small.txt\n+ok\n*** End Patch\n")
    assert (root / "small.txt").read_text() == "ok\n"


@pytest.mark.parametrize("form", ["apply_patch", "udiff", "search_replace"])
def test_a_patch_with_lone_cr_line_endings_is_recognised(form: str) -> None:
    text = {
        "apply_patch": "*** Begin Patch\n*** Update File: a.py\n-x = 1\n+x = 2\n*** End Patch\n",
        "udiff": "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
        "search_replace": "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n",
    }[form].replace("\n", "\r")
    assert apply_patch({"a.py": "x = 1\n"}, text).files == {"a.py": "x = 2\n"}


def test_a_message_never_capitalises_a_path() -> None:
    with pytest.raises(PatchFailed) as caught:
        apply_patch({"a.py": "x"}, "*** Begin Patch\n*** Add File: a.py\n+y\n*** End Patch\n")
    assert "no file was changed. a.py already exists" in str(caught.value)


@pytest.mark.parametrize(
    "operation",
    [
        "*** Delete File: link.txt\n",
        "*** Update File: link.txt\n*** Move to: moved.txt\n-t\n+T\n",
    ],
    ids=["delete", "move"],
)
def test_delete_or_move_of_a_symlink_acts_on_the_link_not_its_target(
    tmp_path: Path, operation: str
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "target.txt").write_text("t\n")
    (root / "link.txt").symlink_to("target.txt")
    engine = EditEngine(root, journal=Journal(root, directory=tmp_path / "journal"))

    result = engine.apply_patch(f"*** Begin Patch\n{operation}*** End Patch\n")

    assert not os.path.lexists(root / "link.txt")
    assert (root / "target.txt").read_text() == "t\n"
    assert any("the link was removed" in note for note in result.notes)
    if "Move" in operation:
        assert (root / "moved.txt").read_text() == "T\n"
