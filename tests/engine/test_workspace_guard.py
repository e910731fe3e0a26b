"""Escapes out of the workspace are refused before anything is read or written."""

from __future__ import annotations

import os

import pytest

from editengine._errors import BadRequest, PathOutsideWorkspace


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    secret = folder / "secret.txt"
    secret.write_bytes(b"do not touch\n")
    return folder


def assert_untouched(outside):
    assert (outside / "secret.txt").read_bytes() == b"do not touch\n"
    assert sorted(os.listdir(outside)) == ["secret.txt"]


@pytest.mark.parametrize(
    "path",
    ["../outside/secret.txt", "sub/../../outside/secret.txt", "./../outside/secret.txt"],
)
def test_dotdot_escape_is_refused(engine, workspace, outside, path):
    (workspace / "sub").mkdir()
    with pytest.raises(PathOutsideWorkspace, match="outside the workspace"):
        engine.edit(path, "do not touch", "pwned")
    assert_untouched(outside)


def test_dotdot_escape_cannot_create_files(engine, outside):
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("../outside/new.txt", "", "pwned")
    assert_untouched(outside)


def test_absolute_path_outside_is_refused(engine, outside):
    with pytest.raises(PathOutsideWorkspace):
        engine.edit(str(outside / "secret.txt"), "do not touch", "pwned")
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("/etc/passwd", "root", "toor")
    assert_untouched(outside)


def test_file_symlink_leading_out_is_refused(engine, workspace, outside):
    os.symlink(outside / "secret.txt", workspace / "link.txt")
    with pytest.raises(PathOutsideWorkspace, match="symbolic link"):
        engine.edit("link.txt", "do not touch", "pwned")
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("link.txt", "", "pwned")
    with pytest.raises(PathOutsideWorkspace):
        engine.read_file("link.txt")
    assert_untouched(outside)
    assert os.path.islink(workspace / "link.txt")


def test_parent_directory_symlink_leading_out_is_refused(engine, workspace, outside):
    os.symlink(outside, workspace / "linked_dir")
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("linked_dir/secret.txt", "do not touch", "pwned")
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("linked_dir/created.txt", "", "pwned")
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("linked_dir/deeper/created.txt", "", "pwned")
    assert_untouched(outside)


def test_dangling_symlink_to_outside_cannot_create(engine, workspace, outside):
    os.symlink(outside / "not-yet.txt", workspace / "dangling.txt")
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("dangling.txt", "", "pwned")
    assert_untouched(outside)


def test_symlink_through_dotdot_is_resolved_like_the_os_does(engine, workspace, outside):
    # "deep/link/.." is the parent of the link's target for the OS, not "deep".
    (workspace / "deep").mkdir()
    os.symlink(outside, workspace / "deep" / "link")
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("deep/link/../outside/secret.txt", "do not touch", "pwned")
    assert_untouched(outside)


def test_symlink_inside_the_workspace_is_edited_through(engine, workspace):
    (workspace / "real").mkdir()
    target = workspace / "real" / "target.py"
    target.write_text("x = 1\n")
    target.chmod(0o640)
    os.symlink("real/target.py", workspace / "alias.py")

    result = engine.edit("alias.py", "x = 1", "x = 2")

    assert os.path.islink(workspace / "alias.py")
    assert os.readlink(workspace / "alias.py") == "real/target.py"
    assert target.read_text() == "x = 2\n"
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    assert result.file_path == "alias.py"
    # No temp file was left next to the link or the target.
    assert sorted(os.listdir(workspace / "real")) == ["target.py"]


def test_dotdot_that_stays_inside_is_fine(engine, workspace):
    (workspace / "a").mkdir()
    (workspace / "b.txt").write_text("one\n")
    result = engine.edit("a/../b.txt", "one", "two")
    assert result.file_path == "b.txt"
    assert (workspace / "b.txt").read_text() == "two\n"


def test_root_symlink_is_followed_consistently(tmp_path, lock_dir):
    from editengine.engine import EditEngine

    real_root = tmp_path / "real_root"
    real_root.mkdir()
    (real_root / "f.txt").write_text("a\n")
    os.symlink(real_root, tmp_path / "root_link")
    engine = EditEngine(tmp_path / "root_link", lock_dir=lock_dir)
    engine.edit("f.txt", "a", "b")
    engine.edit(str(real_root / "f.txt"), "b", "c")
    assert (real_root / "f.txt").read_text() == "c\n"


@pytest.mark.parametrize("bad", ["", "   ", "a\x00b", 42, None, b"bytes.txt"])
def test_malformed_paths_are_bad_requests(engine, bad):
    with pytest.raises(BadRequest):
        engine.edit(bad, "a", "b")


def test_the_root_itself_is_not_editable(engine, workspace):
    from editengine._errors import NotAFile

    with pytest.raises(NotAFile):
        engine.edit(".", "", "x")
    with pytest.raises(NotAFile):
        engine.edit(str(workspace), "a", "b")
