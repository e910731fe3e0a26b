"""WorkspaceDir / AnchoredDir: the file-access API every engine feature goes through."""

from __future__ import annotations

import os

import pytest

from editengine._errors import NotAFile, PathOutsideWorkspace, StaleFile
from editengine.files import MissingFolder, WorkspaceDir


def walk(files, parts, **options) -> None:
    with files.directory(parts, **options):
        pass


@pytest.fixture
def files(workspace):
    return WorkspaceDir(workspace.resolve())


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "f.txt").write_text("outside\n")
    return folder


def test_write_read_rename_delete(files, workspace):
    with files.directory(("a", "b"), display="a/b/f.txt", create=True) as folder:
        folder.write("f.txt", b"one\n", display="a/b/f.txt", mode=None)
        snapshot = folder.read("f.txt", display="a/b/f.txt", max_bytes=100)
        assert snapshot.text == "one\n" and snapshot.exists
        with files.directory(("a",), display="a") as parent:
            folder.rename("f.txt", parent, "g.txt", display="a/b/f.txt")
            assert parent.exists("g.txt") and not folder.exists("f.txt")
            parent.delete("g.txt", display="a/g.txt")
            assert not parent.exists("g.txt")
    assert sorted(os.listdir(workspace / "a" / "b")) == []


def test_a_missing_folder_is_reported_not_created(files, workspace):
    with pytest.raises(MissingFolder):
        walk(files, ("nope",), display="nope/f.txt")
    assert not (workspace / "nope").exists()
    assert (
        files.read(workspace.resolve() / "nope" / "f.txt", display="x", max_bytes=9).exists is False
    )


def test_a_created_folder_is_removed_again_on_request(files, workspace):
    with files.directory(("x", "y"), display="x/y/f", create=True) as folder:
        folder.remove_created()
    assert os.listdir(workspace) == []


def test_a_link_on_the_walk_is_refused(files, workspace, outside):
    os.symlink(outside, workspace / "lnk")
    with pytest.raises(PathOutsideWorkspace):
        walk(files, ("lnk",), display="lnk/f.txt")
    with pytest.raises(PathOutsideWorkspace):
        walk(files, ("lnk", "deeper"), display="lnk/deeper/f.txt", create=True)
    assert sorted(os.listdir(outside)) == ["f.txt"]


def test_a_file_on_the_walk_is_not_a_folder(files, workspace):
    (workspace / "plain").write_text("")
    with pytest.raises(NotAFile):
        walk(files, ("plain",), display="plain/f.txt")


@pytest.mark.parametrize("operation", ["write", "delete", "rename", "read"])
def test_every_operation_refuses_a_folder_swapped_after_the_walk(
    files, workspace, outside, operation
):
    (workspace / "sub").mkdir()
    (workspace / "sub" / "f.txt").write_text("inside\n")
    with files.directory(("sub",), display="sub/f.txt") as folder:
        os.rename(workspace / "sub", outside / "moved")
        os.symlink(outside, workspace / "sub")
        with pytest.raises((PathOutsideWorkspace, StaleFile)):
            if operation == "write":
                folder.write("f.txt", b"pwned\n", display="sub/f.txt", mode=None)
            elif operation == "delete":
                folder.delete("f.txt", display="sub/f.txt")
            elif operation == "rename":
                folder.rename("f.txt", folder, "g.txt", display="sub/f.txt")
            else:
                folder.read("f.txt", display="sub/f.txt", max_bytes=100)
    assert (outside / "f.txt").read_text() == "outside\n"
    assert sorted(os.listdir(outside / "moved")) == ["f.txt"]
    assert (outside / "moved" / "f.txt").read_text() == "inside\n"
