"""files/_anchored.py on its own: what each failure of an anchored access answers (the path
the caller gave, what went wrong, what to do), and the small promises around it — a walk
creates folders only when asked, links are looked at, never through, a sweep stays in its
folder."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from editengine._errors import (
    BadRequest,
    FileError,
    NotAFile,
    PathOutsideWorkspace,
    StaleFile,
    WriteFailed,
)
from editengine.files import _anchored as anchored
from editengine.files._anchored import MissingFolder, WorkspaceDir

pytestmark = pytest.mark.skipif(os.name != "posix", reason="dir_fd and symlinks")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    made = tmp_path / "ws"
    (made / "sub").mkdir(parents=True)
    (made / "sub" / "f.txt").write_text("x\n")
    return made


@pytest.fixture
def files(root: Path) -> WorkspaceDir:
    return WorkspaceDir(root)


STALE_TEMP = ".f.txt.999999999.0123456789ab.editengine.tmp"  # no such pid: stale


# -- _os_error -------------------------------------------------------------------------------


def test_a_name_too_long_for_the_file_system_is_a_bad_request():
    error = anchored._os_error(OSError(errno.ENAMETOOLONG, "File name too long"), "a/b.txt")
    assert isinstance(error, BadRequest)
    assert error.message == (
        "The path 'a/b.txt' is too long for the file system (a name over 255 bytes "
        "or a path over the system limit)."
    )
    assert error.hint == "Use a shorter file name."


def test_a_denied_path_says_so():
    error = anchored._os_error(OSError(errno.EACCES, "Permission denied"), "a/b.txt")
    assert type(error) is FileError
    assert error.message == "Permission denied on the path of a/b.txt."
    assert error.path == "a/b.txt"


@pytest.mark.parametrize(
    ("exc", "reason"), [(OSError(errno.EIO, "I/O error"), "I/O error"), (OSError("odd"), "odd")]
)
def test_any_other_failure_names_the_path_and_the_reason(exc, reason):
    error = anchored._os_error(exc, "a/b.txt")
    assert type(error) is FileError
    assert error.message == f"Could not open the path of a/b.txt: {reason}."
    assert error.path == "a/b.txt"


# -- the walk ----------------------------------------------------------------------------------


def test_the_workspace_root_is_not_a_file(files, root):
    with pytest.raises(NotAFile) as caught:
        files.parts_of(root)
    assert caught.value.message == "The workspace root is not a file."
    assert caught.value.path == str(root)


def test_a_walk_creates_no_folder_unless_asked(files, root):
    with pytest.raises(MissingFolder) as caught:
        files.walk(("new", "deeper"), display="new/deeper/f.txt")
    assert str(caught.value) == "new"
    assert not (root / "new").exists()


def test_a_root_that_cannot_be_opened_says_so(tmp_path):
    gone = tmp_path / "gone"
    with pytest.raises(FileError) as caught:
        WorkspaceDir(gone).walk((), display="f.txt")
    assert caught.value.message == (
        f"The workspace root {gone} cannot be opened: No such file or directory."
    )
    assert caught.value.path == "f.txt"


def test_a_file_on_the_path_is_not_a_folder(files):
    with pytest.raises(NotAFile) as caught:
        files.walk(("sub", "f.txt"), display="sub/f.txt/g.txt")
    assert caught.value.message == (
        "sub/f.txt/g.txt cannot be reached: 'f.txt' on its path is not a folder."
    )
    assert caught.value.path == "sub/f.txt/g.txt"


def test_a_link_on_the_path_is_refused_with_what_to_do(files, root, tmp_path):
    (root / "link").symlink_to(tmp_path)
    with pytest.raises(PathOutsideWorkspace) as caught:
        files.walk(("link",), display="link/f.txt")
    error = caught.value
    assert error.message == (
        "Refused link/f.txt: the folder 'link' on its path is now a symbolic link (it "
        "changed after the path was checked); nothing was read or written."
    )
    assert error.path == "link/f.txt"
    assert error.hint == "Check the folder layout of the workspace, then retry the edit."


def test_a_folder_name_too_long_is_a_bad_request_naming_the_path(files):
    with pytest.raises(BadRequest) as caught:
        files.walk(("d" * 300,), display="long/f.txt")
    assert "'long/f.txt' is too long" in caught.value.message


def test_a_folder_swapped_for_a_link_right_after_it_was_made_is_refused(
    files, root, tmp_path, monkeypatch
):
    def swapped_mkdir(name, mode=0o777, *, dir_fd=None):
        os.symlink(tmp_path, name, dir_fd=dir_fd)  # made, then replaced by a link

    monkeypatch.setattr(os, "mkdir", swapped_mkdir)
    with pytest.raises(PathOutsideWorkspace) as caught:
        files.walk(("new",), display="new/f.txt", create=True, created=[])
    assert caught.value.message.startswith("Refused new/f.txt: the folder 'new' on its path")
    assert caught.value.path == "new/f.txt"


def test_a_folder_swapped_for_a_file_right_after_it_was_made_is_not_a_folder(files, monkeypatch):
    def swapped_mkdir(name, mode=0o777, *, dir_fd=None):
        os.close(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=dir_fd))

    monkeypatch.setattr(os, "mkdir", swapped_mkdir)
    with pytest.raises(NotAFile) as caught:
        files.walk(("new",), display="new/f.txt", create=True, created=[])
    assert caught.value.path == "new/f.txt"


def test_a_link_gone_before_it_could_be_looked_at_is_still_refused(files, root):
    fd = os.open(root, os.O_RDONLY)
    try:
        error = files._refusal(fd, "vanished", OSError(errno.ELOOP, "loop"), "vanished/f.txt")
    finally:
        os.close(fd)
    assert isinstance(error, PathOutsideWorkspace)


def test_a_folder_that_cannot_be_made_says_why(files, monkeypatch):
    def full(name, mode=0o777, *, dir_fd=None):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "mkdir", full)
    with pytest.raises(WriteFailed) as caught:
        files.walk(("new",), display="new/f.txt", create=True, created=[])
    assert caught.value.message == (
        "Could not create the folder 'new' for new/f.txt: No space left on device. "
        "Nothing was written."
    )
    assert caught.value.path == "new/f.txt"


# -- an open folder ------------------------------------------------------------------------------


def test_exists_looks_at_a_link_not_through_it(files, root):
    (root / "sub" / "dangling").symlink_to(root / "nowhere")
    with files.directory(("sub",), display="sub") as folder:
        assert folder.exists("dangling")
        assert folder.exists("f.txt")
        assert not folder.exists("missing.txt")


def test_exists_on_a_name_too_long_names_the_folder(files):
    with files.directory(("sub",), display="sub") as folder, pytest.raises(BadRequest) as caught:
        folder.exists("n" * 300)
    assert "'sub' is too long" in caught.value.message


def test_a_folder_moved_during_the_edit_says_so(files, root, tmp_path):
    with files.directory(("sub",), display="sub/f.txt") as folder:
        os.rename(root / "sub", tmp_path / "elsewhere")
        (root / "sub").mkdir()
        with pytest.raises(StaleFile) as caught:
            folder.verify()
    error = caught.value
    assert error.message == (
        "A folder on the path of sub/f.txt was moved or replaced during the edit; "
        "nothing was written."
    )
    assert error.path == "sub/f.txt"
    assert error.hint == "Check the folder layout, read the file again and redo the edit."


def test_a_folder_turned_into_a_link_during_the_edit_names_the_path(files, root, tmp_path):
    with files.directory(("sub",), display="sub/f.txt") as folder:
        os.rename(root / "sub", tmp_path / "elsewhere")
        (root / "sub").symlink_to(tmp_path / "elsewhere")
        with pytest.raises(PathOutsideWorkspace) as caught:
            folder.verify()
    assert caught.value.path == "sub/f.txt"


def test_reading_a_folder_names_the_file_asked_for(files, root):
    (root / "sub" / "inner").mkdir()
    with files.directory(("sub",), display="sub") as folder, pytest.raises(NotAFile) as caught:
        folder.read("inner", display="sub/inner", max_bytes=1000)
    assert caught.value.path == "sub/inner"


def test_a_write_sweeps_its_own_folder_and_names_the_file_when_it_fails(files, root, monkeypatch):
    (root / "sub" / STALE_TEMP).write_bytes(b"partial")
    with files.directory(("sub",), display="sub") as folder:
        folder.write("g.txt", b"new\n", display="sub/g.txt", mode=None)
        assert not (root / "sub" / STALE_TEMP).exists()
        monkeypatch.setattr(os, "write", lambda fd, data: 0)
        with pytest.raises(WriteFailed) as caught:
            folder.write("g.txt", b"newer\n", display="sub/g.txt", mode=None)
    assert caught.value.path == "sub/g.txt"


def test_a_failed_delete_says_what_and_why(files, root):
    (root / "sub" / "inner").mkdir()
    with files.directory(("sub",), display="sub") as folder, pytest.raises(WriteFailed) as caught:
        folder.delete("inner", display="sub/inner")
    error = caught.value
    assert error.message.startswith("Could not delete sub/inner: ")
    assert error.message.removeprefix("Could not delete sub/inner: ") in {
        "Is a directory.",
        "Operation not permitted.",
    }
    assert error.path == "sub/inner"


def test_a_failed_rename_says_what_and_why(files):
    with files.directory(("sub",), display="sub") as folder, pytest.raises(WriteFailed) as caught:
        folder.rename("missing.txt", folder, "g.txt", display="sub/missing.txt")
    assert caught.value.message == "Could not rename sub/missing.txt: No such file or directory."
    assert caught.value.path == "sub/missing.txt"


def test_closing_twice_closes_once(files):
    with files.directory(("sub",), display="sub") as folder:
        fd = folder.fd
    folder.close()
    with pytest.raises(OSError):
        os.fstat(fd)
    os.fstat(1)  # a second close must not have hit another descriptor


# -- whole-file helpers --------------------------------------------------------------------------


def test_whole_file_helpers_answer_for_missing_folders(files, root):
    assert not files.exists(root / "nowhere" / "f.txt", display="nowhere/f.txt")
    assert files.exists(root / "sub" / "f.txt", display="sub/f.txt")
    assert files.read(root / "nowhere" / "f.txt", display="nowhere/f.txt", max_bytes=10) is (
        anchored.MISSING
    )


def test_whole_file_helpers_name_the_path_they_were_given(files, root):
    with pytest.raises(NotAFile) as caught:
        files.read(root / "sub" / "f.txt" / "g.txt", display="sub/f.txt/g.txt", max_bytes=10)
    assert caught.value.path == "sub/f.txt/g.txt"
    with pytest.raises(NotAFile) as caught:
        files.exists(root / "sub" / "f.txt" / "g.txt", display="sub/f.txt/g.txt")
    assert caught.value.path == "sub/f.txt/g.txt"
    (root / "sub" / "inner").mkdir()
    with pytest.raises(NotAFile) as caught:
        files.read(root / "sub" / "inner", display="sub/inner", max_bytes=10)
    assert caught.value.path == "sub/inner"


def test_a_sweep_cleans_the_folder_it_is_given_and_nothing_on_error(files, root):
    (root / "sub" / STALE_TEMP).write_bytes(b"partial")
    assert files.sweep(("nowhere",)) == 0
    assert files.sweep(("sub",)) == 1
    assert not (root / "sub" / STALE_TEMP).exists()
